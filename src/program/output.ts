import { Observable, combineLatest, from, isObservable, map, of, shareReplay, switchMap, take, throwError } from "rxjs";
import { UNKNOWN } from "../core/unknown.js";
import type { ResourceNode } from "./node.js";
import { isDeepStrictEqual } from "node:util";
import { enterApply, evaluationNow, leaveApply, trackApply, type EvalContext } from "./context.js";
import type { ValueState, Resolution, Resolver } from "./resolver.js";
import type { Origin } from "./deferral/deferral.js";
import { afterCallback, deferralsOnly, joinDeferral, type DeferralInfo } from "./deferral/deferral-info.js";
import { NOTHING_FORESEEN, foresee, type Foresight } from "./deferral/foresee.js";
import { fieldState } from "./field-state.js";
import { misuseError } from "./output-misuse.js";
import { globalShadowError } from "./global-shadow.js";
import { DeclarationSites, userCallSite, type DeclarationSite } from "../core/declaration-site.js";

export type { ValueState, OState, Resolution, Resolver } from "./resolver.js";

// Process-wide on purpose: this only hands out names. A number names one resolver (one phase of one run)
// and is never reused, so an output two runs share (a module-level `output(...)`) at worst computes again
// for the other run; it never hands one run's value to the other.
const resolverIds = new WeakMap<Resolver, number>();
let nextResolverId = 1;

/**
 * A new number to name a resolver by (never 0, never handed out twice): its `id`.
 *
 * @example class Scope implements Resolver { readonly id = newResolverId(); … }
 */
export function newResolverId(): number {
  return nextResolverId++;
}

/** A number naming a resolver for as long as it lives: its own `id`, else one given on first use. */
function resolverId(r: Resolver): number {
  if (r.id !== undefined) return r.id;
  let id = resolverIds.get(r);
  if (id === undefined) resolverIds.set(r, (id = newResolverId()));
  return id;
}

/** A resolution as an observable (for the places that combine or await it). */
export function asObservable<T>(r: Resolution<T>): Observable<ValueState<T>> {
  return isObservable(r) ? r : of(r);
}

/** Where resources and waits keep their node (the same symbol as `NODE` in resource.ts, which imports this file). */
const NODE_KEY = Symbol.for("cairn.node");

/**
 * What every output carries, as resources and waits carry `NODE_KEY`: a symbol of the process's registry,
 * so another copy of Cairn's outputs carry the same one (see {@link isOutput}).
 */
const OUTPUT_BRAND = Symbol.for("cairn.output");

/** The node of a resource or wait handle, if `v` is one. */
function nodeOf(v: unknown): ResourceNode | undefined {
  return v !== null && typeof v === "object" ? ((v as Record<symbol, unknown>)[NODE_KEY] as ResourceNode | undefined) : undefined;
}

/** A value, a promise of it, or an output of it: what resource inputs and `apply` callbacks accept. */
export type Input<T> = T | Promise<T> | Output<T>;

/** Deeply: every nested property or element may itself be an {@link Input}. */
export type Inputs<T> = Input<
  T extends readonly (infer E)[] ? Inputs<E>[]
  : T extends (...args: never[]) => unknown ? T
  : T extends object ? { [K in keyof T]: Inputs<T[K]> }
  : T
>;

/** The plain type inside an input: `Unwrap<Output<string>>` is `string`. */
export type Unwrap<T> = T extends Output<infer U> ? U : T extends Promise<infer U> ? U : T;

const NO_DEPS: readonly ResourceNode[] = [];

/**
 * A value that becomes known as the engine plans and applies: a resource attribute, or anything derived from one.
 * It carries whether it is secret and which resources it depends on. The fields of an object inside are
 * outputs too (see {@link Lifted}): `db.endpoint.address` is an `Output<string>`.
 *
 * @example
 * const greeting = file.path.apply(p => `config lives in ${p}`);
 * const both = all([file.path, file.size]).apply(([p, n]) => `${p}: ${n} bytes`);
 * const host = db.endpoint.address; // Output<string>, like db.endpoint.apply((e) => e.address)
 */
export type Output<T> = OutputBase<T> & Lifted<T>;

/**
 * The `Output` class as a value: `new Output(...)` inside Cairn, and `instanceof Output` for this copy of
 * Cairn's outputs ({@link isOutput} knows those of every copy).
 *
 * @example if (value instanceof Output) value.apply(console.log);
 */
export interface OutputConstructor {
  /** @internal Use `output()`, `all()`, `secret()` or resource attributes to make outputs. */
  new <T>(resources: readonly ResourceNode[], source: (r: Resolver) => Resolution<T>, label?: string): Output<T>;
  readonly prototype: OutputBase<any>;
}

/** Plain values: nothing in them is lifted. */
type Primitive = string | number | boolean | bigint | symbol | null | undefined;

/**
 * Names an output's own members take (and every object's, and `then`, which would make it look like a
 * promise): a field named one of these is reached through `apply`, e.g. `o.apply((v) => v.apply)`.
 */
export type OwnOutputKeys = keyof OutputBase<unknown> | keyof object | "then";

/** `undefined` when `T` may be null or undefined (a field of nothing is undefined). */
type Missing<T> = T extends null | undefined ? undefined : never;

/**
 * The fields of the value inside an `Output<T>`, each as an output: for an object, one per property not named
 * in {@link OwnOutputKeys}; for an array, its elements by index and its `length`. Nothing is lifted from a
 * string, number, boolean, function, record (`Record<string, …>`), `unknown` or `any`, nor from a union
 * holding one of those. Each field behaves as `apply((v) => v?.[key])` does: secret when the value is,
 * unknown when it is, with the same dependencies and behind the same waits.
 *
 * @example const port: Output<string> = db.endpoint.port;
 */
export type Lifted<T> = 0 extends 1 & T
  ? NothingLifted
  : [Extract<NonNullable<T>, Primitive | Function>] extends [never]
    ? [keyof NonNullable<T>] extends [never]
      ? NothingLifted
      : [NonNullable<T>] extends [readonly (infer E)[]]
        ? { readonly [index: number]: Output<E | undefined>; readonly length: Output<number | Missing<T>> }
        : string extends keyof NonNullable<T>
          ? NothingLifted // a record by any name: its fields are reached through `apply`
          : LiftedFields<NonNullable<T>, Missing<T>>
    : NothingLifted; // a plain value, or one that may be: nothing to lift

/** Never present (no runtime value): it keeps `Output<string>` an intersection, so editors name it `Output<string>`. */
declare const nothingLifted: unique symbol;
/** What {@link Lifted} gives when nothing is lifted: an optional member no value has. */
type NothingLifted = { readonly [nothingLifted]?: never };

/** One output per field of `T` (optional ones included, as possibly undefined). */
type LiftedFields<T, M> = {
  readonly [K in keyof T as K extends OwnOutputKeys ? never : K extends string ? K : never]-?: Output<T[K] | M>;
};

/**
 * The class behind {@link Output}: its members (`apply`, …) are the names lifting never takes.
 *
 * @example const upper = bucket.bucketName.apply((n) => n.toUpperCase());
 */
export class OutputBase<T> {
  // Private state is in #fields: they are not properties, so no field of the value is hidden by them.
  readonly #dependsOn: readonly ResourceNode[];
  /** @internal */
  readonly source: (r: Resolver) => Resolution<T>;
  /** Which resolver the cached state is for (by number: holding the resolver would keep its phase's values alive). */
  #cacheFor = 0;
  /** The state in `#cacheFor`'s phase, when it was known at once; else {@link OutputBase.#later}. */
  #now: ValueState<T> | undefined = undefined;
  #later: Observable<ValueState<T>> | undefined = undefined;

  readonly #labelText: string | undefined;

  /** @internal Use `output()`, `all()`, `secret()` or resource attributes to make outputs. */
  constructor(resources: readonly ResourceNode[], source: (r: Resolver) => Resolution<T>, label?: string) {
    this.#dependsOn = resources;
    this.source = source;
    this.#labelText = label;
  }

  /** @internal Resources this output statically depends on: they become graph edges. */
  get resources(): readonly ResourceNode[] {
    return this.#dependsOn;
  }

  /** @internal How the program names this value, for messages: `cert.domainValidationOptions`. */
  get label(): string | undefined {
    return this.#labelText;
  }

  /** @internal The output's state in a phase, at once if it is known already; computed once per resolver. */
  resolveNow(r: Resolver): Resolution<T> {
    const id = resolverId(r);
    if (this.#cacheFor !== id) {
      this.#cacheFor = id;
      let s: Resolution<T>;
      try {
        s = this.source(r);
      } catch (e) {
        s = throwError(() => e); // an apply callback threw: the same error the rxjs path would give
      }
      if (isObservable(s)) {
        this.#now = undefined;
        this.#later = s.pipe(take(1), shareReplay(1));
      } else {
        this.#now = s;
        this.#later = undefined;
      }
    }
    return this.#now ?? this.#later!;
  }

  /** @internal The output's state in a phase, as an observable. */
  resolve(r: Resolver): Observable<ValueState<T>> {
    return asObservable(this.resolveNow(r));
  }

  /**
   * Derives a new output. `f` runs only when the value is known (never on unknowns while planning);
   * it may return a plain value, a promise or another output.
   *
   * @example const url = bucket.name.apply(n => `https://${n}.example.com`);
   */
  apply<U>(f: (value: T) => Input<U>): Output<Unwrap<U>> {
    const owner = evaluationNow();
    // Where the program called apply(), for the message when the callback throws: one frame captured (about
    // a microsecond), kept as the evaluation's shared site for that place in the code.
    const called = userCallSite(OutputBase.prototype.apply);
    const callback = new Callback(f, owner, originOf(this), (owner?.sites ?? new DeclarationSites()).siteOf(called));
    const step = (s: ValueState<T>, r: Resolver): Resolution<Unwrap<U>> => {
      if (!s.known) return callback.unknown(s, r) as ValueState<Unwrap<U>>;
      const result = callback.run(s.value);
      const joined = (inner: ValueState<unknown>) => combineStates([s, inner], inner.known ? inner.value : undefined) as ValueState<Unwrap<U>>;
      const inner = resolveNow(result, r, "strict");
      return isObservable(inner) ? inner.pipe(map(joined)) : joined(inner);
    };
    const out = new Output<Unwrap<U>>(this.resources, (r) => {
      const s = this.resolveNow(r);
      return isObservable(s) ? s.pipe(switchMap((x) => asObservable(step(x, r)))) : step(s, r);
    }, this.label);
    trackApply(out as Output<unknown>);
    return out;
  }

  /** Outputs are not strings: this throws, naming the line and saying to use `interpolate` or `apply`. */
  toString(): string {
    throw misuseError(this.label, "string", OutputBase.prototype.toString);
  }

  /** Outputs cannot be serialised directly: this throws, naming the line and saying to use `apply` first. */
  toJSON(): never {
    throw misuseError(this.label, "json", OutputBase.prototype.toJSON);
  }

  /** A template string or `+` on an output: this throws, naming the line and saying to use `interpolate` or `apply`. */
  [Symbol.toPrimitive](): never {
    throw misuseError(this.label, "string", OutputBase.prototype[Symbol.toPrimitive]);
  }

  /** Keeps `console.log(output)` readable. */
  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return "Output<…>";
  }
}

/** The class of outputs (see {@link Output}). */
export const Output = OutputBase as unknown as OutputConstructor;

/**
 * A field of an output's value, as an output of its own (`db.endpoint.address`): its value is the field's,
 * everything else (secret, unknown, dependencies, deferrals) is the parent's, as through `apply`.
 */
class FieldOutput extends OutputBase<unknown> {
  readonly #parent: OutputBase<unknown>;
  readonly #key: string;

  constructor(parent: OutputBase<unknown>, key: string) {
    super(parent.resources, (r) => {
      const s = parent.resolveNow(r);
      return isObservable(s) ? s.pipe(map((x) => fieldState(x, key))) : fieldState(s, key);
    });
    this.#parent = parent;
    this.#key = key;
  }

  // Made when a message needs it, as attribute outputs' labels are.
  override get label(): string | undefined {
    const of = this.#parent.label;
    return of === undefined ? undefined : `${of}.${this.#key}`;
  }
}

// Every input value is asked for its node (`nodeOf`): an output answers here, before the proxy below (a trap
// per read costs ~0.1 µs where a property costs nothing).
Object.defineProperty(OutputBase.prototype, NODE_KEY, { value: undefined });
Object.defineProperty(OutputBase.prototype, OUTPUT_BRAND, { value: true });

/**
 * Lifting: a name an output does not have (not a member, not an object's) reads that field of its value.
 * The prototype chain ends in a proxy, so an output never read that way costs what it did: its own members
 * are found before the proxy, and no object is made per output.
 */
Object.setPrototypeOf(
  OutputBase.prototype,
  new Proxy({}, {
    get(target, key, receiver) {
      if (typeof key === "symbol" || key === "then" || key in target || !(receiver instanceof OutputBase)) return Reflect.get(target, key, receiver);
      return new FieldOutput(receiver, key);
    },
  }),
);

/**
 * One `apply` callback: runs it on known values, and keeps its result when it declared resources (a later
 * phase that runs it on the same value gets the same resources, not a second declaration of each). On a
 * value unknown while planning, it is run once on stand-ins to see what it would declare: if anything, the
 * result is deferred to the next round of `up`.
 */
class Callback<T, U> {
  private kept: { value: T; result: Input<U> } | undefined;
  /** What its run on stand-ins showed (it runs once, the first time its value is unknown while planning). */
  private foresight: Foresight | undefined;

  constructor(
    private readonly f: (value: T) => Input<U>,
    private readonly owner: EvalContext | undefined,
    private readonly origin: Origin,
    /** Where the program called `apply()`. */
    private readonly site: DeclarationSite,
  ) {}

  run(value: T): Input<U> {
    if (this.kept && isDeepStrictEqual(this.kept.value, value)) return this.kept.result;
    const frame = enterApply(this.owner, this.origin);
    let result: Input<U>;
    try {
      result = this.f(value);
    } catch (e) {
      throw saidWhere(globalShadowError(e) ?? e, this.origin, this.site);
    } finally {
      leaveApply();
    }
    if (frame.declared > 0) this.kept = { value, result };
    return result;
  }

  /** The state of the result when the value is unknown: deferred if, while planning, a run on stand-ins declares anything. */
  unknown(s: ValueState<T> & { known: false }, r: Resolver): ValueState<unknown> {
    if (!r.planning) return s;
    // A secret's known parts are not shown to a run whose names end up in the plan: stand-ins only.
    this.foresight ??= this.owner ? foresee(this.f, this.owner, this.origin, s.secret ? undefined : s.deferral?.partial) : NOTHING_FORESEEN;
    r.planning.unknownApply(this.origin, this.foresight.deferral ?? undefined, this.foresight.unforeseen);
    return { ...s, deferral: afterCallback(s.deferral, this.foresight.deferral) };
  }
}

/** Marks an error that names the apply() callback it came from (a callback run again does not say it twice). */
const SAID_WHERE = Symbol("cairn.applyNamed");

/**
 * `e`, its message naming the throwing apply() callback by its line and the value it was given (`at
 * infra.ts:7:30 on a.v`). In the text, for now: the planner and the stack outputs report a failure as its
 * message, adding the resource it feeds. The same error object, not a wrapper: callers tell kinds of errors
 * apart by their class (a late declaration, a misused output).
 */
function saidWhere(e: unknown, origin: Origin, site: DeclarationSite): unknown {
  if (!(e instanceof Error) || (e as { [SAID_WHERE]?: true })[SAID_WHERE]) return e;
  const at = site.toString();
  e.message = `${e.message} (thrown by ${at ? `the apply() callback at ${at}` : "an apply() callback"} on ${origin.waitsFor})`;
  Object.defineProperty(e, SAID_WHERE, { value: true });
  return e;
}

/** Where a callback on `o` gets its value: named only when a message needs it (most applies never do). */
function originOf(o: Output<unknown>): Origin {
  return {
    on: o.resources,
    get waitsFor() {
      return o.label ?? (o.resources.map((n) => n.name).join(", ") || "a value");
    },
  };
}

/**
 * True for an {@link Output}, from this copy of Cairn or another one in the same process (a program and a
 * library of components may each bring their own): it asks for the brand every output carries, where
 * `instanceof Output` knows only this copy's class.
 *
 * @example if (isOutput(value)) value.apply(console.log);
 */
export function isOutput(v: unknown): v is Output<unknown> {
  return v !== null && typeof v === "object" && (v as Record<symbol, unknown>)[OUTPUT_BRAND] === true;
}

/** Merges secret flags, dependencies and deferrals of several states into one known (or unknown) state. */
function combineStates(states: readonly ValueState<unknown>[], value: unknown): ValueState<unknown> {
  let secret = false;
  let known = true;
  let deps = NO_DEPS;
  let deferral: DeferralInfo | undefined;
  for (const s of states) {
    secret ||= s.secret;
    known &&= s.known;
    if (s.deps.length) deps = deps.length ? [...deps, ...s.deps] : s.deps;
    if (s.deferral) deferral = joinDeferral(deferral, s.deferral, s.known);
  }
  const out: ValueState<unknown> = known ? { known: true, value, secret, deps } : { known: false, secret, deps };
  if (deferral) out.deferral = deferral;
  return out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== "object") return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/**
 * True when `v` holds an Output, a Promise or a resource anywhere inside it (so it needs resolving); plain
 * data resolves to itself.
 *
 * @example needsResolving({ a: 1 }) // false; needsResolving({ a: bucket.arn }) // true
 */
export function needsResolving(v: unknown): boolean {
  if (v instanceof Output || v instanceof Promise || nodeOf(v)) return true;
  if (Array.isArray(v)) return v.some(needsResolving);
  if (isPlainObject(v)) {
    for (const k in v) if (needsResolving(v[k])) return true;
  }
  return false;
}

/**
 * Resolves an input deeply. In `"strict"` mode any unknown part makes the whole value unknown (what `apply`
 * and `all` need); in `"embed"` mode unknown parts become {@link UNKNOWN} in place (what planned inputs need).
 */
export function resolveDeep(v: unknown, r: Resolver, mode: "strict" | "embed"): Observable<ValueState<unknown>> {
  return asObservable(resolveNow(v, r, mode));
}

/** {@link resolveDeep}, handing the state on at once when every part of `v` is known already. */
export function resolveNow(v: unknown, r: Resolver, mode: "strict" | "embed"): Resolution<unknown> {
  if (!needsResolving(v)) return { known: true, value: v, secret: false, deps: NO_DEPS };
  return resolveNode(v, r, mode);
}

/** In "embed" mode an unknown becomes a known value holding {@link UNKNOWN}. */
function embedded(s: ValueState<unknown>): ValueState<unknown> {
  if (s.known) return s;
  const deferral = deferralsOnly(s.deferral);
  return deferral ? { known: true, value: UNKNOWN, secret: s.secret, deps: s.deps, deferral } : { known: true, value: UNKNOWN, secret: s.secret, deps: s.deps };
}

function inMode(r: Resolution<unknown>, mode: "strict" | "embed"): Resolution<unknown> {
  if (mode === "strict") return r;
  return isObservable(r) ? r.pipe(map(embedded)) : embedded(r);
}

function resolveNode(v: unknown, r: Resolver, mode: "strict" | "embed"): Resolution<unknown> {
  if (v instanceof Output) return inMode(v.resolveNow(r), mode);
  if (v instanceof Promise) return from(v).pipe(switchMap((x) => resolveDeep(x, r, mode)));
  const node = nodeOf(v);
  if (node?.kind === "component") {
    // A component has no state of its own: as a value it is its identity (its children are the dependencies).
    return { known: true, value: { urn: node.urn }, secret: false, deps: [node] };
  }
  if (node) return inMode(r.peekWhole?.(node) ?? r.whole(node).pipe(take(1)), mode);
  if (Array.isArray(v)) return combineParts(v.map((x) => resolveNow(x, r, mode)), (states) => states.map((s) => (s.known ? s.value : UNKNOWN)));
  if (isPlainObject(v)) {
    const keys = Object.keys(v);
    return combineParts(keys.map((k) => resolveNow(v[k], r, mode)), (states) => {
      const value: Record<string, unknown> = {};
      keys.forEach((k, i) => {
        const s = states[i]!;
        value[k] = s.known ? s.value : UNKNOWN;
      });
      return value;
    });
  }
  return { known: true, value: v, secret: false, deps: NO_DEPS };
}

/** Combines the parts of an array or object: at once when every part is known now, else through rxjs. */
function combineParts(parts: Resolution<unknown>[], build: (states: ValueState<unknown>[]) => unknown): Resolution<unknown> {
  if (!parts.some(isObservable)) {
    const states = parts as ValueState<unknown>[];
    return combineStates(states, build(states));
  }
  return combineLatest(parts.map(asObservable)).pipe(
    take(1),
    map((states) => combineStates(states, build(states))),
  );
}

/** Static resources an input refers to, found by walking it (promises are opaque); each is handed to `into.add`. */
export function collectResources(v: unknown, into: { add(n: ResourceNode): unknown }): void {
  const node = nodeOf(v);
  if (node) {
    into.add(node);
  } else if (v instanceof Output) {
    for (const n of v.resources) into.add(n);
  } else if (Array.isArray(v)) {
    for (const x of v) collectResources(x, into);
  } else if (isPlainObject(v)) {
    for (const k in v) collectResources(v[k], into);
  }
}

function resourcesOf(v: unknown): ResourceNode[] {
  const s = new Set<ResourceNode>();
  collectResources(v, s);
  return [...s];
}

/**
 * Lifts any input into an Output, deeply unwrapping nested outputs and promises.
 *
 * @example const o = output({ a: file.path, b: Promise.resolve(2) }); // Output<{ a: string; b: number }>
 */
export function output<T>(v: Input<T>): Output<T> {
  if (v instanceof Output) return v;
  return new Output(resourcesOf(v), (r) => resolveNow(v, r, "strict") as Resolution<T>);
}

/** Resolved form of an array or record of inputs. */
export type UnwrapAll<T> = { [K in keyof T]: Unwrap<T[K]> };

/**
 * Combines several inputs into one output of an array or record, known when all of them are.
 *
 * @example all([a.path, b.size]).apply(([p, n]) => `${p} ${n}`)
 * @example all({ p: a.path, n: b.size }).apply(({ p, n }) => `${p} ${n}`)
 */
export function all<T extends readonly unknown[] | [unknown, ...unknown[]]>(inputs: T): Output<UnwrapAll<T>>;
export function all<T extends Record<string, unknown>>(inputs: T): Output<UnwrapAll<T>>;
export function all(inputs: unknown): Output<unknown> {
  return output(inputs);
}

/**
 * Builds a string from a template with outputs in it: known when all of them are, secret when any is.
 *
 * @example const url = interpolate`https://${zone.name}/health`;
 */
export function interpolate(strings: TemplateStringsArray, ...values: Input<unknown>[]): Output<string> {
  return output(values).apply((vs) => strings.reduce((acc, s, i) => acc + s + (i < vs.length ? String(vs[i]) : ""), ""));
}

/**
 * Marks a value secret: it and everything derived from it print as `[secret]` and are encrypted in state.
 *
 * @example const password = secret(process.env.DB_PASSWORD!);
 */
export function secret<T>(v: Input<T>): Output<Unwrap<T>> {
  const inner = output(v);
  const secretly = (s: ValueState<unknown>): ValueState<unknown> => ({ ...s, secret: true });
  return new Output(inner.resources, (r) => {
    const s = inner.resolveNow(r);
    return isObservable(s) ? s.pipe(map(secretly)) : secretly(s);
  }) as Output<Unwrap<T>>;
}
