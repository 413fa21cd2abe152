import fs from "node:fs";
import type { ResourceState, StackState } from "./types.js";
import { isSameFile, type FileIdentity } from "./durable-file.js";
import { UserError } from "../core/diagnostic.js";

/** A snapshot file as it was when read: its bytes are reused only while it still is that file. */
export type SnapshotFile = FileIdentity;

/**
 * Where each record of a snapshot file sits, for the next snapshot to copy the bytes of records that did
 * not change since the file was read, instead of stringifying them again (after a small change, nearly
 * every record is one that was read, and stringifying those would be most of a compaction's work). Kept: offsets and the parsed records
 * (~24 bytes a resource), never the text.
 *
 * @example const lines = recordLines(text, state.resources, file); // undefined: not reusable
 */
export interface RecordLines extends SnapshotFile {
  /** The records' URNs and objects as parsed, in file order: a record is unchanged while it is the same object. */
  readonly urns: readonly string[];
  readonly records: readonly ResourceState[];
  /** Byte offsets of each record's `"<urn>": {…}` (without its indentation and the comma after it). */
  readonly starts: Int32Array;
  readonly ends: Int32Array;
}

/** Where the records of a written snapshot begin (see `snapshotChunks`: one record a line, two spaces in). */
const RESOURCES_OPEN = '\n "resources": {\n';

/**
 * The place of every record of a snapshot's text, read from `file`, when the text is laid out exactly as
 * `snapshotChunks` writes it (call it only for a text whose digest matched) and is ASCII (its characters are
 * then its bytes): every line is checked to start with its record's URN. Undefined otherwise.
 *
 * @example recordLines(text, parseSnapshot(text, name, expected).resources, { path, ino, size, mtimeMs })
 */
export function recordLines(text: string, resources: StackState["resources"], file: SnapshotFile): RecordLines | undefined {
  if (text.length !== file.size) return undefined; // not ASCII: a character offset is not a byte offset
  const open = text.indexOf(RESOURCES_OPEN);
  if (open < 0) return undefined;
  const urns = Object.keys(resources);
  const starts = new Int32Array(urns.length);
  const ends = new Int32Array(urns.length);
  const records: ResourceState[] = new Array<ResourceState>(urns.length);
  let at = open + RESOURCES_OPEN.length;
  for (let i = 0; i < urns.length; i++) {
    const urn = urns[i]!;
    // `  "<urn>": {…},` — a URN JSON would escape is not found as it is, and the file is not reused.
    if (!text.startsWith('  "', at) || !text.startsWith(urn, at + 3) || !text.startsWith('": {', at + 3 + urn.length)) return undefined;
    const nl = text.indexOf("\n", at);
    const last = i === urns.length - 1;
    const end = last ? nl : nl - 1;
    if (nl < 0 || text.charCodeAt(end - 1) !== 0x7d || (!last && text.charCodeAt(end) !== 0x2c)) return undefined;
    starts[i] = at + 2;
    ends[i] = end;
    records[i] = resources[urn]!;
    at = nl + 1;
  }
  if (!text.startsWith(" }", at)) return undefined;
  return { path: file.path, ino: file.ino, size: file.size, mtimeMs: file.mtimeMs, urns, records, starts, ends };
}

/**
 * Bytes read from the old file at a time, each handed on as a string: under V8's large-object size, and in
 * the heap, so the young generation frees them (a buffer of its own per read would stay outside the heap
 * until a collection, at the end of the run where its peak is).
 */
const READ_BYTES = 60_000;

/** Records looked at ahead of the last one found before an index by URN is made (see `ReusableLines.find`). */
const LOOK_AHEAD = 256;

/**
 * The records of an old snapshot file that a new snapshot can copy: `match` finds a record there that is
 * the very object (under the same URN) the new snapshot writes, and `read` hands its bytes back. Opened
 * only while the file is the one the lines were taken from (same inode, size and time).
 *
 * @example const old = ReusableLines.open(lines); old?.match(urn, record) // index in the old file, or -1
 */
export class ReusableLines {
  private next = 0;
  private byUrn: Map<string, number> | undefined;
  private readonly buf = Buffer.allocUnsafe(READ_BYTES);

  private constructor(
    private readonly lines: RecordLines,
    private readonly fd: number,
  ) {}

  /** The old file's records, or undefined when the file changed or is gone. */
  static open(lines: RecordLines | undefined): ReusableLines | undefined {
    if (!lines) return undefined;
    let fd: number | undefined;
    try {
      fd = fs.openSync(lines.path, "r");
      const st = fs.fstatSync(fd);
      if (isSameFile(st, lines)) return new ReusableLines(lines, fd);
    } catch {
      // Gone or unreadable: every record is written afresh.
    }
    if (fd !== undefined) fs.closeSync(fd);
    return undefined;
  }

  /** The old index of `record` under `urn` when it is unchanged since the file was read, else -1. */
  match(urn: string, record: ResourceState): number {
    const j = this.find(urn);
    if (j < 0) return -1;
    this.next = j + 1; // also past a record that changed: the one after it comes next
    return this.lines.records[j] === record ? j : -1;
  }

  /**
   * Where `urn` is in the old file, at or after the last one found: records keep their order from one
   * snapshot to the next (removed ones leave gaps, new ones go last), so a short look ahead finds it, or
   * reaches the end (a new resource). Only a gap longer than that needs an index of every URN, made then
   * (large for a large stack: made for every change, it would set a run's peak).
   */
  private find(urn: string): number {
    const { urns } = this.lines;
    const to = Math.min(urns.length, this.next + LOOK_AHEAD);
    for (let j = this.next; j < to; j++) if (urns[j] === urn) return j;
    if (to === urns.length) return -1;
    this.byUrn ??= new Map(urns.map((u, i) => [u, i]));
    const j = this.byUrn.get(urn) ?? -1;
    return j >= this.next ? j : -1;
  }

  /** Where record `j`'s text starts in the old file (bytes). */
  start(j: number): number {
    return this.lines.starts[j]!;
  }

  /** Where record `j`'s text ends in the old file (bytes). */
  end(j: number): number {
    return this.lines.ends[j]!;
  }

  /** The old file's bytes from `start` to `end`, a piece at a time (ASCII: each byte is one character). */
  *read(start: number, end: number): Generator<string> {
    for (let at = start; at < end; ) {
      const got = fs.readSync(this.fd, this.buf, 0, Math.min(READ_BYTES, end - at), at);
      if (got <= 0) {
        throw new UserError(
          `${this.lines.path} changed while the next snapshot was being written from it (it ends at byte ${at}, not ${end}): another process wrote to it. ` +
            "Nothing recorded is lost (the journal holds it): run the command again.",
        );
      }
      yield this.buf.toString("latin1", 0, got);
      at += got;
    }
  }

  close(): void {
    fs.closeSync(this.fd);
  }
}
