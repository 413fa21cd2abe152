import type { Props, ResourceState } from "../state/types.js";
import { secretValuesOf, visitResourceSecrets, visitSecretProps, visitSecrets, type SecretHolder } from "../state/secret-walk.js";
import type { PlanStep } from "../plan/plan.js";
import type { EngineEvent } from "./events.js";
import { SECRET_MASK } from "../core/secret-mask.js";

/** The shortest text treated as a secret's form: masking two letters would garble every message. */
const MIN_LENGTH = 4;
/** The shortest encoded form looked for: a shorter run of hex or base64 letters is found in too much text by chance. */
const MIN_ENCODED = 8;

/**
 * The base64 letters that stand for the secret's bytes wherever it sits in a longer text that is encoded
 * (`base64("admin:" + password)`): three alignments, each without the letters shared with neighbours.
 */
function base64Cores(bytes: Buffer): string[] {
  const out: string[] = [];
  for (const offset of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString("base64");
    const start = [0, 2, 3][offset]!;
    const whole = Math.floor((offset + bytes.length) / 3) * 4; // letters of complete 3-byte groups
    const end = (offset + bytes.length) % 3 === 0 ? encoded.length : whole;
    const core = encoded.slice(start, end);
    out.push(core, core.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  return out;
}

/**
 * The ways a secret can show up in text: as it is, JSON-escaped (inside JSON), URL-encoded, hex (either
 * case) and base64 (standard and URL-safe, at any alignment, so inside an encoded concatenation too).
 */
function formsOf(v: unknown, minLength = MIN_LENGTH): string[] {
  if (v === undefined || v === null || typeof v === "boolean") return [];
  const text = typeof v === "string" ? v : JSON.stringify(v);
  if (text === undefined) return [];
  const forms = new Set([text, JSON.stringify(text).slice(1, -1), encodeURIComponent(text)]);
  const bytes = Buffer.from(text, "utf8");
  const encoded = [bytes.toString("hex"), bytes.toString("hex").toUpperCase(), bytes.toString("base64"), bytes.toString("base64").replace(/=+$/, ""), bytes.toString("base64url"), ...base64Cores(bytes)];
  for (const e of encoded) if (e.length >= MIN_ENCODED) forms.add(e);
  // Parts of a structured secret (an object of credentials) leak one by one, too.
  if (v !== null && typeof v === "object") for (const x of Object.values(v)) for (const f of formsOf(x, minLength)) forms.add(f);
  return [...forms].filter((f) => f.length >= minLength);
}

/**
 * Every secret value a run has seen — from config, state, plans, inputs resolved at apply and provider
 * results — and one redaction pass that masks them (and their JSON-escaped, URL-encoded, hex and base64
 * forms) in any text:
 * every event, log line and error message goes through it before a user or a file sees it.
 *
 * @example
 * const secrets = new SecretRegistry();
 * secrets.add("hunter2!");
 * secrets.redact('auth failed for "hunter2!"') // 'auth failed for "[secret]"'
 */
export class SecretRegistry {
  private readonly forms = new Set<string>();
  /** The shortest text masked (a run's registry masks from 4 characters; one step's own secrets from 3). */
  private readonly minLength: number;

  constructor(opts: { minLength?: number } = {}) {
    this.minLength = opts.minLength ?? MIN_LENGTH;
  }

  private sorted: string[] | undefined;
  private readonly visit = (v: unknown) => this.add(v);

  /** Remembers a secret value (any JSON value). */
  add(v: unknown): void {
    for (const f of formsOf(v, this.minLength)) {
      if (this.forms.has(f)) continue;
      this.forms.add(f);
      this.sorted = undefined;
    }
  }

  /** Remembers the values of the named attributes. */
  addProps(props: Props, keys: readonly string[]): void {
    visitSecretProps(props, keys, this.visit);
  }

  /** Remembers every secret a record holds in its attributes named secret (a plan step: news, olds and outputs). */
  addSecretsOf(holder: SecretHolder): void {
    visitSecrets(holder, this.visit);
  }

  /** Remembers every secret a resource record holds (current and deposed objects). */
  addResource(r: ResourceState): void {
    visitResourceSecrets(r, this.visit);
  }

  /**
   * The text with every known secret form masked (longest first, so a secret inside another goes too). Text
   * that holds none is found so through the index of forms, not by trying each: every line the CLI prints
   * comes here, and with a secret per resource, trying each form would make printing a run quadratic.
   */
  redact(text: string): string {
    if (this.forms.size === 0 || !this.mayHold(text)) return text;
    return this.mask(text);
  }

  /** Masks every known form in `text`, trying each (the text itself when none occurs). */
  private mask(text: string): string {
    this.sorted ??= [...this.forms].sort((a, b) => b.length - a.length);
    let out = text;
    for (const f of this.sorted) if (out.includes(f)) out = out.split(f).join(SECRET_MASK);
    return out;
  }

  /**
   * An event with every string in it redacted (events are plain data, so this is a walk). Plain objects and
   * arrays in which nothing is masked are passed on as they are: nearly every event holds no secret, and a
   * run emits two or more per step.
   */
  redactEvent(e: EngineEvent): EngineEvent {
    if (this.forms.size === 0) return e;
    return this.walk(e) as EngineEvent;
  }

  private walk(v: unknown): unknown {
    if (typeof v === "string") return this.mayHold(v) ? this.mask(v) : v;
    if (v === null || typeof v !== "object") return v;
    if (Array.isArray(v)) {
      const out = v.map((x) => this.walk(x));
      return out.every((x, i) => x === v[i]) ? v : out;
    }
    const proto = Object.getPrototypeOf(v) as unknown;
    return proto === Object.prototype || proto === null ? this.walkPlain(v as Record<string, unknown>) : this.copy(v);
  }

  /** A plain object, itself when no field changes; else a copy from the first field that does. */
  private walkPlain(v: Record<string, unknown>): Record<string, unknown> {
    const keys = Object.keys(v);
    for (let i = 0; i < keys.length; i++) {
      const masked = this.walk(v[keys[i]!]);
      if (masked === v[keys[i]!]) continue;
      const out: Record<string, unknown> = {};
      for (let j = 0; j < i; j++) out[keys[j]!] = v[keys[j]!];
      out[keys[i]!] = masked;
      for (let j = i + 1; j < keys.length; j++) out[keys[j]!] = this.walk(v[keys[j]!]);
      return out;
    }
    return v;
  }

  /**
   * Any other object: one with a JSON form (a Date) is walked as that form, and stays itself when nothing in
   * it is masked, so it prints the same whether or not the run knows a secret (a Date became `{}` once one
   * was known). The rest (a Map, a class instance) becomes a plain copy of its own fields, as it always did:
   * what else it holds is not looked into.
   */
  private copy(v: object): unknown {
    const toJSON = (v as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === "function") {
      const json: unknown = toJSON.call(v);
      const masked = this.walk(json);
      return masked === json ? v : masked;
    }
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = this.walk(x);
    return out;
  }

  /**
   * Forms by a hash of their first three characters (one form, or those that share the hash), for
   * {@link mayHold}; fed by {@link indexNewForms}. About 40 bytes a form.
   */
  private readonly byStart = new Map<number, string | string[]>();
  private indexed = 0;
  private formsSeen: Iterator<string> | undefined;

  /**
   * False when no known form occurs in `text` (redact would return it as it is), found by looking up each
   * three characters of it: checking every form, as redact does, would make a run with a secret per
   * resource quadratic (every form, for each string of each event). Few forms are checked
   * by redact itself.
   */
  private mayHold(text: string): boolean {
    if (text.length < this.minLength) return false;
    if (this.forms.size <= FEW_FORMS || this.minLength < 3) return true;
    this.indexNewForms();
    for (let i = 0; i + 3 <= text.length; i++) {
      const forms = this.byStart.get(startKey(text, i));
      if (forms === undefined) continue;
      if (typeof forms === "string" ? text.startsWith(forms, i) : forms.some((f) => text.startsWith(f, i))) return true;
    }
    return false;
  }

  /** Indexes the forms added since the last call, each once. */
  private indexNewForms(): void {
    // `forms` only grows, in insertion order, and a Set's iterator goes on to what is added after it was
    // made: asked for exactly as many forms as were added, it never ends, and the next call resumes it.
    this.formsSeen ??= this.forms.values();
    for (; this.indexed < this.forms.size; this.indexed++) {
      const f = this.formsSeen.next().value as string;
      const key = startKey(f, 0);
      const known = this.byStart.get(key);
      if (known === undefined) this.byStart.set(key, f);
      else if (typeof known === "string") this.byStart.set(key, [known, f]);
      else known.push(f);
    }
  }
}

/** Up to this many forms, {@link SecretRegistry.redact}'s scan of them all is as quick as an index. */
const FEW_FORMS = 32;

/**
 * A hash of the three UTF-16 code units of `text` at `at`, in 30 bits: a small integer V8 keeps unboxed in a
 * map (forms that share it are told apart by comparing them).
 */
const startKey = (text: string, at: number) => ((text.charCodeAt(at) << 14) ^ (text.charCodeAt(at + 1) << 7) ^ text.charCodeAt(at + 2)) & 0x3fffffff;

/**
 * Output attributes that carry a secret input's value (a connection string built from a password): the
 * provider did not say they are secret, but they are, and they are kept secret from then on.
 *
 * @example taintedKeys({ url: "postgres://u:pw123@h" }, ["pw123"]) // ["url"]
 */
export function taintedKeys(outputs: Props, secretValues: readonly unknown[]): string[] {
  const forms = secretValues.flatMap(formsOf);
  if (forms.length === 0) return [];
  return Object.keys(outputs).filter((k) => {
    const text = typeof outputs[k] === "string" ? (outputs[k] as string) : JSON.stringify(outputs[k]) ?? "";
    return forms.some((f) => text.includes(f));
  });
}

/**
 * A redactor for just these values (one step's secrets), with the registry's masking: every encoded form
 * too. The one way Cairn masks secrets in text; the stack's registry masks what a run has seen overall.
 *
 * @example redactorOf(["hunter2!"])("bad password hunter2!") // "bad password [secret]"
 */
export function redactorOf(values: readonly unknown[]): (text: string) => string {
  if (values.length === 0) return unchanged;
  // Built on first use: nearly every step's redactor is never called (it masks error and retry messages).
  let registry: SecretRegistry | undefined;
  return (text) => {
    if (!registry) {
      // A step's own secrets are masked from 3 characters in its messages: it knows exactly which values they are.
      registry = new SecretRegistry({ minLength: 3 });
      // A secret boolean is masked as its text here too (the run-wide registry leaves "true" alone).
      for (const v of values) registry.add(typeof v === "boolean" ? String(v) : v);
    }
    return registry.redact(text);
  };
}

const unchanged = (text: string) => text;

/**
 * Masks a step's secret values (its inputs' and outputs' secret attributes) in a message: a provider's error
 * text may quote them.
 *
 * @example redactorFor(step)("password pw-1 is too short") // "password [secret] is too short"
 */
export function redactorFor(step: PlanStep): (text: string) => string {
  return redactorOf("secretKeys" in step ? secretValuesOf(step) : []);
}
