import { createHash } from "node:crypto";
import { typeOf } from "../core/urn.js";
import { headRecordSchema, journalRecordSchema, describeZodError, type HeadRecord, type JournalRecord } from "./schema.js";
import { encodeMutation } from "./secret-encoding.js";
import type { Crypter } from "./secrets.js";
import type { PendingOperation, Props, ResourceState, StateMutation } from "./types.js";
import { UserError } from "../core/diagnostic.js";

/**
 * The journal file format: newline-delimited JSON, one record per line.
 *
 * ```text
 * {"t":"head","v":2,"serial":7}                      format version, snapshot serial this journal continues
 * {"t":"begin","op":1,"kind":"create","urn":"urn:cairn:dev::p::local:File::a","since":"2025-01-01T00:00:00.000Z"}
 * {"t":"end","op":1,"r":{"id":"a.txt","inputs":{"text":"hi"},"outputs":{"size":2},"deps":[]},"same":["text"]}
 * {"t":"end","op":2,"m":[{"kind":"remove","urn":"urn:cairn:dev::p::local:File::b"}]}
 * {"t":"note","op":4,"d":{"requestToken":"…"}}             what a provider noted during operation 4
 * {"t":"abort","op":3}
 * {"t":"mutate","m":[{"kind":"outputs","outputs":{},"secretOutputs":[]}]}
 * ```
 *
 * Records are kept small on purpose, since every create writes two: a begin carries no inputs, and no
 * `type` when its URN names it; an end whose one change records the operation's own resource (most of
 * them) is written short, as `r`: the resource without the URN and type its begin gave, and without the
 * leading outputs that repeat the input of the same name (listed in `same`). Secrets are encrypted as in
 * the snapshot. Reading expands short records to the long form (`m`), which is also always accepted.
 * Version 1 journals (no short records) are read as they are.
 *
 * This is the version of that format this build writes (and the newest it reads).
 *
 * @example headLine(7).includes(`"v":${JOURNAL_FORMAT_VERSION}`) // true
 */
export const JOURNAL_FORMAT_VERSION = 2;

/** The head line of a new journal. @example headLine(7) // '{"t":"head","v":2,"serial":7}\n' */
export function headLine(serial: number): string {
  return `{"t":"head","v":${JOURNAL_FORMAT_VERSION},"serial":${serial}}\n`;
}

/** The type a URN names, or undefined if it is not a Cairn URN (read without parsing: every begin asks). */
function typeInUrn(urn: string): string | undefined {
  return typeOf(urn) || undefined;
}

/** The line recording that a provider call is about to start. @example beginLine(pendingOp) */
export function beginLine(p: PendingOperation): string {
  // Key order is fixed, and `type` and `id` left out when not needed, to keep 10,000 of these small.
  const type = typeInUrn(p.urn) === p.type ? undefined : p.type;
  if (type !== undefined || p.note !== undefined) {
    return JSON.stringify({ t: "begin", op: p.op, kind: p.kind, urn: p.urn, type, id: p.id, since: p.since, note: p.note }) + "\n";
  }
  // Every begin of a run (a create or a delete) in these same bytes, written out: stringifying an object of
  // eight fields (four undefined) is several times slower, and a run writes one per call.
  const id = p.id === undefined ? "" : `,"id":${JSON.stringify(p.id)}`;
  return `{"t":"begin","op":${JSON.stringify(p.op)},"kind":${JSON.stringify(p.kind)},"urn":${JSON.stringify(p.urn)}${id},"since":${JSON.stringify(p.since)}}\n`;
}

/**
 * The identity of a journaled operation, the same in every run that reads its record: what providers seed
 * idempotency tokens with (`OpContext.operation.id`).
 *
 * @example operationId({ op: 3, urn, since: "2026-01-01T00:00:00.000Z" }) // "5f0c…" (32 hex digits)
 */
export function operationId(p: Pick<PendingOperation, "op" | "urn" | "since">): string {
  return createHash("sha256").update(`${p.urn}\n${p.op}\n${p.since}`).digest("hex").slice(0, 32);
}

/** The line recording what a provider noted during an operation (tokens only: never secrets). @example noteLine(4, { requestToken: "r-1" }) */
export function noteLine(op: number, d: Readonly<Record<string, string>>): string {
  return JSON.stringify({ t: "note", op, d }) + "\n";
}

/** Who an operation acts on, as its begin record says: what a short end record leaves out. */
export interface OperationTarget {
  urn: string;
  type: string;
}

/**
 * The line recording the end (or abort) of an operation, or standalone mutations; secrets are
 * encrypted with `crypter` (throws if there is a secret and no passphrase). Given the operation's
 * `target`, an end that records that very resource is written in the short form.
 * @example finishLine("end", 1, [{ kind: "remove", urn }], crypter)
 */
export function finishLine(t: "end" | "abort" | "mutate", op: number | undefined, m: readonly StateMutation[], crypter?: Crypter, target?: OperationTarget): string {
  const enc = m.map((x) => encodeMutation(x, crypter));
  if (t === "mutate") return JSON.stringify({ t, m: enc }) + "\n";
  const short = t === "end" && target && enc.length === 1 ? shortUpsert(enc[0]!, target) : undefined;
  if (short) return JSON.stringify(short.same ? { t, op, r: short.r, same: short.same } : { t, op, r: short.r }) + "\n";
  return JSON.stringify(enc.length ? { t, op, m: enc } : { t, op }) + "\n";
}

/** The short form of an upsert of the operation's own resource, or undefined when it is another's. */
function shortUpsert(m: StateMutation, target: OperationTarget): { r: Omit<ResourceState, "urn" | "type">; same?: string[] } | undefined {
  if (m.kind !== "upsert" || m.resource.urn !== target.urn || m.resource.type !== target.type) return undefined;
  const rec = m.resource;
  const keys = Object.keys(rec.outputs);
  let n = 0;
  while (n < keys.length && Object.hasOwn(rec.inputs, keys[n]!) && sameValue(rec.outputs[keys[n]!], rec.inputs[keys[n]!])) n++;
  // Only a leading run is left out, so reading puts every output back in its place.
  let outputs = rec.outputs;
  if (n > 0) {
    outputs = {};
    for (let i = n; i < keys.length; i++) outputs[keys[i]!] = rec.outputs[keys[i]!];
  }
  // One copy, in the record's own order (a rest, a spread and a spread again were three per create).
  const r: Record<string, unknown> = {};
  for (const k in rec) if (k !== "urn" && k !== "type") r[k] = k === "outputs" ? outputs : rec[k as keyof ResourceState];
  const short = r as Omit<ResourceState, "urn" | "type">;
  return n === 0 ? { r: short } : { r: short, same: keys.slice(0, n) };
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return a !== undefined;
  return typeof a === "object" && a !== null && typeof b === "object" && b !== null && JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The long form of a record as parsed JSON: a begin gets the type its URN names, a short end its
 * resource back; or the problem with it (a short end no begin record started).
 */
function expand(rec: unknown, begun: ReadonlyMap<number, OperationTarget>): { rec: unknown } | { problem: string } {
  const o = rec as Record<string, unknown> | null;
  if (o?.t === "begin" && o.type === undefined && typeof o.urn === "string") return { rec: { ...o, type: typeInUrn(o.urn) } };
  if (o?.t !== "end" || o.r === undefined) return { rec };
  const target = begun.get(o.op as number);
  if (!target) return { problem: `a short end record for operation ${String(o.op)}, which no begin record before it started` };
  const { r, same, ...rest } = o as { r: Record<string, unknown>; same?: unknown } & Record<string, unknown>;
  const inputs = (r.inputs ?? {}) as Props;
  const outputs: Props = {};
  if (Array.isArray(same)) for (const k of same) if (Object.hasOwn(inputs, String(k))) outputs[String(k)] = inputs[String(k)];
  Object.assign(outputs, r.outputs);
  return { rec: { ...rest, m: [{ kind: "upsert", resource: { urn: target.urn, type: target.type, ...r, outputs } }] } };
}

/** What reading a journal file found. */
export interface ParsedJournal {
  /** Undefined when the file holds no complete head line (empty, or torn while being created). */
  head: HeadRecord | undefined;
  /** Records after the head, in file order, secrets still encrypted. */
  records: JournalRecord[];
  /** Length in bytes of the complete, valid part; anything after it is a torn last line. */
  validBytes: number;
  /** Set when a torn last line was ignored. */
  tornNote?: string;
}

/**
 * Error for a journal that cannot be read safely. The file is never modified when this is thrown.
 * @example throw new JournalCorruptError("journal.ndjson", 12, "not valid JSON")
 */
export class JournalCorruptError extends UserError {
  override name = "JournalCorruptError";
  constructor(
    readonly file: string,
    readonly line: number,
    problem: string,
  ) {
    super(
      `${file} line ${line} is damaged (${problem}); the file was left untouched. ` +
        `Only a crash while writing the LAST line is repaired automatically. Fix the line by hand, or ` +
        `move the file aside to continue from the last snapshot (the changes it records will be forgotten ` +
        `and the affected resources must be re-imported or refreshed).`,
    );
  }
}

const NL = 0x0a;

/**
 * Parses a journal's bytes. A last line that is unterminated, or that does not parse, is a write
 * torn by a crash: it is left out and reported in `tornNote` (its record was never acknowledged
 * as durable, so nothing depended on it). Any other bad line throws {@link JournalCorruptError}.
 *
 * @example
 * const j = parseJournal(await readFile(path), path);
 * for (const r of j.records) if (r.t === "begin") console.log(r.urn);
 */
export function parseJournal(bytes: Buffer, file: string): ParsedJournal {
  const lines: { start: number; end: number }[] = [];
  let start = 0;
  for (let i = bytes.indexOf(NL); i !== -1; i = bytes.indexOf(NL, start)) {
    lines.push({ start, end: i });
    start = i + 1;
  }
  const tail = start < bytes.length ? bytes.length - start : 0;
  const out: ParsedJournal = { head: undefined, records: [], validBytes: 0 };
  if (tail) out.tornNote = `ignored an incomplete last record in ${file} (${tail} bytes, left by a crash while writing)`;

  const begun = new Map<number, OperationTarget>();
  for (let n = 0; n < lines.length; n++) {
    const { start: s, end: e } = lines[n]!;
    const text = bytes.toString("utf8", s, e);
    if (text.trim() === "") {
      out.validBytes = e + 1;
      continue;
    }
    const isLast = n === lines.length - 1 && !tail;
    let rec: unknown;
    let problem: string | undefined;
    try {
      rec = JSON.parse(text);
    } catch {
      problem = "not valid JSON";
    }
    if (problem === undefined) {
      if (!out.head) {
        const v = (rec as { t?: unknown; v?: unknown } | null)?.v;
        if ((rec as { t?: unknown } | null)?.t === "head" && typeof v === "number" && v > JOURNAL_FORMAT_VERSION) {
          throw new UserError(`${file} was written by a newer Cairn (journal format v${v}, this build reads up to v${JOURNAL_FORMAT_VERSION}): upgrade cairn`);
        }
        const h = headRecordSchema.safeParse(rec);
        if (h.success) out.head = h.data;
        else problem = `expected the journal head record first: ${describeZodError(h.error)}`;
      } else {
        const long = expand(rec, begun);
        const r = "problem" in long ? undefined : journalRecordSchema.safeParse(long.rec);
        if (r?.success) {
          out.records.push(r.data);
          if (r.data.t === "begin") begun.set(r.data.op, { urn: r.data.urn, type: r.data.type });
        } else problem = "problem" in long ? long.problem : describeZodError(r!.error);
      }
    }
    if (problem !== undefined) {
      if (isLast) {
        out.tornNote = `ignored a damaged last record in ${file} (line ${n + 1}, ${problem}; left by a crash while writing)`;
        return out;
      }
      throw new JournalCorruptError(file, n + 1, problem);
    }
    out.validBytes = e + 1;
  }
  return out;
}
