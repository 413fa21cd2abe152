import { headRecordSchema, journalRecordSchema, describeZodError, type HeadRecord, type JournalRecord } from "./schema.js";
import { encodeMutation } from "./secret-encoding.js";
import type { Crypter } from "./secrets.js";
import { STATE_FORMAT_VERSION, type PendingOperation, type StateMutation } from "./types.js";

/**
 * The journal file format: newline-delimited JSON, one record per line.
 *
 * ```text
 * {"t":"head","v":1,"serial":7}                      snapshot serial this journal continues
 * {"t":"begin","op":1,"kind":"create","urn":"urn:cairn:dev::p::local:File::a","type":"local:File","since":"2025-01-01T00:00:00.000Z"}
 * {"t":"end","op":1,"m":[{"kind":"upsert","resource":{...}}]}
 * {"t":"abort","op":2}
 * {"t":"mutate","m":[{"kind":"outputs","outputs":{},"secretOutputs":[]}]}
 * ```
 *
 * Records are kept small on purpose: a begin carries no inputs, an end carries the resulting
 * resource once, and secrets are encrypted as in the snapshot.
 */
export const JOURNAL_FORMAT = "ndjson";

/** The head line of a new journal. @example headLine(7) // '{"t":"head","v":1,"serial":7}\n' */
export function headLine(serial: number): string {
  return `{"t":"head","v":${STATE_FORMAT_VERSION},"serial":${serial}}\n`;
}

/** The line recording that a provider call is about to start. @example beginLine(pendingOp) */
export function beginLine(p: PendingOperation): string {
  // Key order is fixed and `id` omitted when absent, to keep 10,000 of these small.
  const rec =
    p.id === undefined
      ? { t: "begin", op: p.op, kind: p.kind, urn: p.urn, type: p.type, since: p.since }
      : { t: "begin", op: p.op, kind: p.kind, urn: p.urn, type: p.type, id: p.id, since: p.since };
  return JSON.stringify(rec) + "\n";
}

/**
 * The line recording the end (or abort) of an operation, or standalone mutations; secrets are
 * encrypted with `crypter` (throws if there is a secret and no passphrase).
 * @example finishLine("end", 1, [{ kind: "remove", urn }], crypter)
 */
export function finishLine(t: "end" | "abort" | "mutate", op: number | undefined, m: readonly StateMutation[], crypter?: Crypter): string {
  const enc = m.map((x) => encodeMutation(x, crypter));
  if (t === "mutate") return JSON.stringify({ t, m: enc }) + "\n";
  return JSON.stringify(enc.length ? { t, op, m: enc } : { t, op }) + "\n";
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
export class JournalCorruptError extends Error {
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
        if ((rec as { t?: unknown } | null)?.t === "head" && typeof v === "number" && v > STATE_FORMAT_VERSION) {
          throw new Error(`${file} was written by a newer Cairn (format v${v}, this build reads v${STATE_FORMAT_VERSION}): upgrade cairn`);
        }
        const h = headRecordSchema.safeParse(rec);
        if (h.success) out.head = h.data;
        else problem = `expected the journal head record first: ${describeZodError(h.error)}`;
      } else {
        const r = journalRecordSchema.safeParse(rec);
        if (r.success) out.records.push(r.data);
        else problem = describeZodError(r.error);
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
