import { createHash, type Hash } from "node:crypto";
import { shareStrings } from "./shared-strings.js";
import { ReusableLines, recordLines, type RecordLines, type SnapshotFile } from "./record-lines.js";
import { describeZodError, stackStateSchema } from "./schema.js";
import { parseUrn } from "../core/urn.js";
import { STATE_FORMAT_VERSION, type StackState } from "./types.js";
import { UserError } from "../core/diagnostic.js";

/**
 * Error for a snapshot that cannot be used. Thrown before anything is written, and the file is
 * never overwritten or deleted because of it.
 *
 * @example throw new SnapshotError("state.json", "is not valid JSON")
 */
export class SnapshotError extends UserError {
  override name = "SnapshotError";
  constructor(
    readonly file: string,
    /** What is wrong with it, without the file's name (e.g. `is empty`). */
    readonly problem: string,
    /** True when the text is unreadable (truncated, not JSON, not a state), as opposed to refused (newer format, other stack). */
    readonly damaged = false,
  ) {
    super(`${file} ${problem}`);
  }
}

/**
 * Parses and validates a snapshot's text (secrets still encrypted) for the expected project and stack.
 *
 * @example
 * const state = parseSnapshot(await readFile(file, "utf8"), file, { project: "hello", stack: "dev" });
 */
export function parseSnapshot(text: string, file: string, expected: { project: string; stack: string }): StackState {
  return parsed(text, file, expected).state;
}

/**
 * {@link parseSnapshot}, with the lines of its records when the text is exactly as written (its digest
 * matches) in this format version and `read` says which file it came from: the next snapshot may copy
 * the records that did not change (see `recordLines`).
 *
 * @example const { state, lines } = parseSnapshotLines(snap.text, snap.name, expected, snap.file);
 */
export function parseSnapshotLines(text: string, file: string, expected: { project: string; stack: string }, read: SnapshotFile | undefined): { state: StackState; lines?: RecordLines } {
  const { state, asWritten } = parsed(text, file, expected);
  const lines = read && asWritten && state.version === STATE_FORMAT_VERSION ? recordLines(text, state.resources, read) : undefined;
  return lines ? { state, lines } : { state };
}

/**
 * What a snapshot holds before its resources.
 * @example const head: SnapshotHead = { version: 1, project: "net", stack: "prod", serial: 7, outputs: { vpcId: "vpc-1" } };
 */
export type SnapshotHead = Omit<StackState, "resources">;

/** Where a snapshot as written ends its head: the resources come last but for the digest. */
const RESOURCES_FIELD = ',\n "resources": {';

/**
 * The head of a snapshot (version, project, stack, serial, outputs) without parsing its resources, when
 * `text` is byte for byte what {@link snapshotChunks} wrote in this format version, for `expected`'s stack;
 * else undefined, and the caller parses it whole (which checks a file edited by hand, and names what is
 * wrong with a damaged one). The digest is still checked over every byte: a reader of a large stack's
 * outputs hashes its bytes and parses a few lines, far cheaper in time and memory than parsing it whole.
 *
 * @example snapshotHead(snap.text, { project: "net", stack: "prod" })?.outputs // { vpcId: "vpc-1" }
 */
export function snapshotHead(text: string, expected: { project: string; stack: string }): SnapshotHead | undefined {
  const cut = text.indexOf(RESOURCES_FIELD);
  if (cut < 0 || cut > text.lastIndexOf(DIGEST_FIELD) || !digestHolds(text)) return undefined;
  // As written, no value before the resources holds a raw line break (JSON escapes them): the first
  // `"resources"` at the start of a line is the field itself.
  let head: SnapshotHead;
  try {
    head = JSON.parse(`${text.slice(0, cut)}\n}`) as SnapshotHead;
  } catch {
    return undefined;
  }
  if (head.version !== STATE_FORMAT_VERSION || head.project !== expected.project || head.stack !== expected.stack) return undefined;
  return head;
}

/** The first lines of a snapshot as {@link snapshotChunks} writes it, up to its serial. */
const SERIAL_AT_HEAD = /^\{\n "version": \d+,\n "project": "(?:[^"\\\n]|\\.)*",\n "stack": "(?:[^"\\\n]|\\.)*",\n "serial": (\d+),\n/;

/**
 * The serial a snapshot's first lines name, when they are as {@link snapshotChunks} writes them (version,
 * project, stack and serial, one a line); else undefined, and the caller reads the file whole. Enough for
 * listing versions (which one is current) without parsing the resources.
 *
 * @example serialAtHead(await readStart(files.snapshot, 4096)) // 12
 */
export function serialAtHead(head: string): number | undefined {
  const m = SERIAL_AT_HEAD.exec(head);
  return m ? Number(m[1]) : undefined;
}

/**
 * How many resources a snapshot as written holds, counted without parsing them: each record is one line,
 * starting with two spaces and its URN's quote (no value holds a raw line break). Only for a text
 * {@link snapshotHead} read.
 *
 * @example if (snapshotHead(text, expected)) snapshotRecordCount(text) // 100000
 */
export function snapshotRecordCount(text: string): number {
  let n = 0;
  const end = text.lastIndexOf(DIGEST_FIELD);
  for (let at = text.indexOf('\n  "', text.indexOf(RESOURCES_FIELD)); at >= 0 && at < end; at = text.indexOf('\n  "', at + 4)) n++;
  return n;
}

function parsed(text: string, file: string, expected: { project: string; stack: string }): { state: StackState; asWritten: boolean } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    const why = text.trim() === "" ? "is empty" : `is not valid JSON (${(e as Error).message.replace(/\s+/g, " ")})`;
    throw new SnapshotError(file, `${why}: it may have been truncated or damaged`, true);
  }
  const version = (json as { version?: unknown } | null)?.version;
  if (typeof version === "number" && version > STATE_FORMAT_VERSION) {
    throw new SnapshotError(file, `was written by a newer Cairn (format v${version}, this build reads v${STATE_FORMAT_VERSION}): upgrade cairn`);
  }
  const written = asWritten(text, json);
  const s = written ?? validated(json, file);
  delete (s as { digest?: unknown }).digest;
  shareStrings(s);
  if (s.project !== expected.project || s.stack !== expected.stack) {
    throw new SnapshotError(
      file,
      `holds the state of project "${s.project}" stack "${s.stack}", but this program is project "${expected.project}" ` +
        `stack "${expected.stack}": use another state directory, or fix the project/stack name, so one stack's state is not applied to another`,
    );
  }
  if (!written) refuseForeignRecords(s, file);
  return { state: s, asWritten: written !== undefined };
}

/** Refuses a file edited by hand that holds a record of another stack or project (as written, it cannot). */
function refuseForeignRecords(s: StackState, file: string): void {
  for (const urn in s.resources) {
    let owner: { stack: string; project: string };
    try {
      owner = parseUrn(urn);
    } catch {
      continue; // not a Cairn URN: the record is refused by what reads it
    }
    if (owner.stack === s.stack && owner.project === s.project) continue;
    throw new SnapshotError(file, `is not a valid Cairn state file: it holds ${urn}, a resource of stack "${owner.stack}" of project "${owner.project}", not of stack "${s.stack}" of "${s.project}" (edited or merged by hand?)`, true);
  }
}

function validated(json: unknown, file: string): StackState {
  const parsed = stackStateSchema.safeParse(json);
  if (!parsed.success) {
    throw new SnapshotError(file, `is not a valid Cairn state file: ${describeZodError(parsed.error)}`, true);
  }
  return parsed.data;
}

/** Where a snapshot's digest starts: it covers every byte before it, and is the last field. */
const DIGEST_FIELD = ',\n "digest": "';

/** The digest field's value for a hash of every byte before it. */
function digestOf(hash: Hash): string {
  return `sha256-${hash.digest("base64")}`;
}

/**
 * The state, when `text` is byte for byte what {@link snapshotChunks} wrote (its digest matches): it was
 * valid when written, so checking it again field by field would only cost time, more with every
 * resource. A file edited by hand, or damaged, no longer matches and is checked in full.
 */
function asWritten(text: string, json: unknown): StackState | undefined {
  return digestHolds(text) ? (json as StackState) : undefined;
}

/**
 * True when `text` ends with the digest field {@link snapshotChunks} writes and it is the hash of every
 * byte before it: the text is as written. (The digest is base64: it holds no quote.)
 */
function digestHolds(text: string): boolean {
  const at = text.lastIndexOf(DIGEST_FIELD);
  if (at < 0) return false;
  const from = at + DIGEST_FIELD.length;
  return text.slice(from, text.indexOf('"', from)) === digestOf(hashText(text, at));
}

/** Characters hashed at a time by {@link hashText}. */
const HASH_PIECE = 1 << 20;

/**
 * A SHA-256 of `text` up to `end`, fed a piece at a time: hashing a large text in one call is slower, and
 * makes a copy of all its bytes outside the heap. A
 * piece never ends between the two halves of a surrogate pair, so the bytes hashed are the text's UTF-8.
 *
 * @example digestOf(hashText(text, text.lastIndexOf(DIGEST_FIELD)))
 */
export function hashText(text: string, end: number, piece = HASH_PIECE): Hash {
  const hash = createHash("sha256");
  for (let from = 0; from < end; ) {
    let to = Math.min(end, from + piece);
    const last = text.charCodeAt(to - 1);
    if (to < end && last >= 0xd800 && last <= 0xdbff) to++; // a high surrogate: keep its pair together
    hash.update(text.slice(from, to));
    from = to;
  }
  return hash;
}

const KNOWN = new Set(["version", "project", "stack", "serial", "outputs", "secretOutputs", "resources", "digest"]);

/**
 * About how many characters each piece of {@link snapshotChunks} holds: large enough for few writes, and
 * under V8's large-object size (128 KB, even for a two-byte string): a larger string is made in the
 * large-object space, which only a full collection frees, so larger pieces of a large state would stay in
 * memory at the run's peak.
 */
const CHUNK_CHARS = 60_000;

/**
 * A snapshot's text (secrets already encrypted) in pieces of about 60 KB, to write one after another: JSON
 * with one resource per line, compact enough for 100,000 resources and still readable and diffable. The
 * last field, `digest`, is a hash of everything before it, computed as the pieces go: a file read back
 * unchanged needs no second validation. The whole text is never one string (for a large state that
 * string, its bytes and the copies on the way would be the run's peak).
 *
 * The resources are read as the pieces are taken: pass a state no one changes meanwhile (a compaction
 * passes its own copy, whose resources are replaced, never edited). Given the `lines` of the snapshot file
 * the state was loaded from (see `recordLines`), a record that is still the very object read from it is
 * copied from that file's bytes instead of stringified, as long as the file is unchanged: the same bytes,
 * for a fraction of the time.
 *
 * @example for (const piece of snapshotChunks(encodeState(state, crypter))) await write(piece);
 */
export function* snapshotChunks(s: StackState, lines?: RecordLines): Generator<string> {
  const hash = createHash("sha256");
  const head: string[] = [
    `"version": ${JSON.stringify(s.version)}`,
    `"project": ${JSON.stringify(s.project)}`,
    `"stack": ${JSON.stringify(s.stack)}`,
    `"serial": ${JSON.stringify(s.serial)}`,
    `"outputs": ${JSON.stringify(s.outputs)}`,
  ];
  if (s.secretOutputs) head.push(`"secretOutputs": ${JSON.stringify(s.secretOutputs)}`);
  // Fields a newer engine added are kept as they are.
  for (const [k, v] of Object.entries(s)) if (!KNOWN.has(k) && v !== undefined) head.push(`${JSON.stringify(k)}: ${JSON.stringify(v)}`);
  const urns = Object.keys(s.resources);
  const out = new Pieces(hash);
  out.push(`{\n ${head.join(",\n ")},\n "resources": {${urns.length ? "\n" : "}"}`);
  const old = ReusableLines.open(lines);
  try {
    // A run of records unchanged since the old file was read, and in the same order there: its bytes
    // (separators included, which are the same) are copied as they are, not stringified again.
    let run: { start: number; end: number; last: number } | undefined;
    for (let i = 0; i < urns.length; i++) {
      const record = s.resources[urns[i]!]!;
      const j = old ? old.match(urns[i]!, record) : -1;
      if (j >= 0 && run && j === run.last + 1) {
        run.end = old!.end(j);
        run.last = j;
        continue;
      }
      if (run) yield* copied(old!, run, out);
      run = undefined;
      out.push(i ? ",\n  " : "  ");
      if (j >= 0) run = { start: old!.start(j), end: old!.end(j), last: j };
      else out.push(JSON.stringify(urns[i]), ": ", JSON.stringify(record));
      if (out.full) yield out.take();
    }
    if (run) yield* copied(old!, run, out);
  } finally {
    old?.close();
  }
  if (urns.length) out.push("\n }");
  yield out.take();
  yield `${DIGEST_FIELD}${digestOf(hash)}"\n}\n`;
}

/** The old file's text of a run of unchanged records, after what `out` holds. */
function* copied(old: ReusableLines, run: { start: number; end: number }, out: Pieces): Generator<string> {
  if (!out.empty) yield out.take();
  for (const text of old.read(run.start, run.end)) yield out.passed(text);
}

/**
 * The parts of the next piece of a snapshot, joined once it is full: `join` makes one flat string, where
 * `+=` made a rope of every part. Each piece taken, or passed on as it is, is added to the digest.
 */
class Pieces {
  private parts: string[] = [];
  private chars = 0;

  constructor(private readonly hash: Hash) {}

  push(...texts: string[]): void {
    for (const t of texts) {
      this.parts.push(t);
      this.chars += t.length;
    }
  }

  get full(): boolean {
    return this.chars >= CHUNK_CHARS;
  }

  get empty(): boolean {
    return this.parts.length === 0;
  }

  /** A piece that goes out as it is (copied text), after whatever was taken before it. */
  passed(text: string): string {
    this.hash.update(text);
    return text;
  }

  take(): string {
    const piece = this.parts.join("");
    this.parts = [];
    this.chars = 0;
    this.hash.update(piece);
    return piece;
  }
}
