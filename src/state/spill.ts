import fs from "node:fs";
import { createHash } from "node:crypto";
import { dirname, join } from "node:path";
import { writeError } from "./durable-file.js";

/**
 * One batch of journal records, and where it belongs in the backend's journal.
 * @example { base: 7, at: 12, text: '{"t":"end","op":3}\n' }
 */
export interface SpillEntry {
  /** The snapshot serial the journal continues. */
  base: number;
  /** The journal slot the batch starts at (a row number, an object number). */
  at: number;
  /** The records, NDJSON. */
  text: string;
}

/**
 * The local file where journal records bound for a network backend (PostgreSQL, S3) wait until the backend
 * acknowledges them: `<spill dir>/<project>.<stack>.<hash of the backend URL>.ndjson` (the spill dir is
 * `.cairn/spill` beside the program, or `<--state-dir>/spill`).
 *
 * @example spillPath(".cairn/spill", "postgres://db/infra", "web", "prod") // ".cairn/spill/web.prod.3f2a9c01b4d2.ndjson"
 */
export function spillPath(spillDir: string, url: string, project: string, stack: string): string {
  return join(spillDir, `${project}.${stack}.${createHash("sha256").update(url).digest("hex").slice(0, 12)}.ndjson`);
}

/**
 * A local, fsynced write-ahead copy of the records a network backend has not acknowledged yet. Every batch
 * is written (and fdatasynced) here before it is sent; once every batch sent is acknowledged the file is
 * emptied. If the backend stays unreachable, the records wait here, and the next run of the stack writes
 * them into the backend before it plans: a result the cloud returned is never dropped.
 *
 * @example
 * const spill = new SpillFile(spillPath(".cairn", url, "web", "prod"));
 * const n = await spill.write({ base: 7, at: 12, text });
 * await backend.append(text); spill.ack(n);
 */
export class SpillFile {
  private fd: number | undefined;
  private unacked = new Set<number>();
  private count = 0;

  constructor(readonly file: string) {}

  /** The batches waiting in the file (a torn last line, from a crash while writing it, is left out). */
  read(): SpillEntry[] {
    let text: string;
    try {
      text = fs.readFileSync(this.file, "utf8");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw e;
    }
    const out: SpillEntry[] = [];
    for (const line of text.split("\n")) {
      if (!line) continue;
      try {
        const e = JSON.parse(line) as Partial<SpillEntry>;
        if (typeof e.base === "number" && typeof e.at === "number" && typeof e.text === "string") out.push({ base: e.base, at: e.at, text: e.text });
      } catch {
        // A torn last line: its batch was never sent (sending waits for this write).
      }
    }
    return out;
  }

  /**
   * Appends a batch durably (written and fdatasynced) without blocking the event loop (a network backend's
   * every write round passes here); resolves with its number for {@link SpillFile.ack}.
   */
  async write(entry: SpillEntry): Promise<number> {
    try {
      this.fd ??= this.open();
      const fd = this.fd;
      await new Promise<void>((resolve, reject) => fs.write(fd, JSON.stringify(entry) + "\n", (e) => (e ? reject(e) : resolve())));
      await new Promise<void>((resolve, reject) => fs.fdatasync(fd, (e) => (e ? reject(e) : resolve())));
    } catch (e) {
      throw writeError(this.file, e);
    }
    this.unacked.add(++this.count);
    return this.count;
  }

  /**
   * Appends a batch durably, synchronously: for records that arrive after the backend was given up on,
   * which must be kept before the call that reports them returns.
   */
  keep(entry: SpillEntry): number {
    try {
      this.fd ??= this.open();
      fs.writeSync(this.fd, JSON.stringify(entry) + "\n");
      fs.fdatasyncSync(this.fd);
    } catch (e) {
      throw writeError(this.file, e);
    }
    this.unacked.add(++this.count);
    return this.count;
  }

  /** The backend acknowledged batch `n`; once none is outstanding the file is emptied (no fsync needed: replay is idempotent). */
  ack(n: number): void {
    this.unacked.delete(n);
    if (this.unacked.size === 0 && this.fd !== undefined) fs.ftruncateSync(this.fd, 0);
  }

  /** Empties the file: everything in it is in the backend now. */
  clear(): void {
    this.unacked.clear();
    if (this.fd !== undefined) fs.ftruncateSync(this.fd, 0);
    else fs.rmSync(this.file, { force: true });
  }

  /** Batches written and not acknowledged by this process. */
  get outstanding(): number {
    return this.unacked.size;
  }

  /** Closes the file, removing it when it holds nothing (no empty files pile up). */
  close(): void {
    if (this.fd === undefined) return;
    const empty = this.unacked.size === 0 && fs.fstatSync(this.fd).size === 0;
    fs.closeSync(this.fd);
    this.fd = undefined;
    if (empty) fs.rmSync(this.file, { force: true });
  }

  private open(): number {
    // One level at a time: Node's recursive mkdir never returns on a special file system such as /proc.
    const missing: string[] = [];
    for (let d = dirname(this.file); !fs.existsSync(d) && dirname(d) !== d; d = dirname(d)) missing.push(d);
    for (const d of missing.reverse()) fs.mkdirSync(d);
    return fs.openSync(this.file, "a", 0o600);
  }
}

/**
 * Thrown by a store's `replayAt` when kept records no longer fit the backend's journal (another run moved
 * the stack on meanwhile): they are left in the spill file, and nothing is written.
 *
 * @example throw new SpillConflictError("the stack is at version 9 now, and the records continue version 7")
 */
export class SpillConflictError extends Error {
  override name = "SpillConflictError";
  constructor(readonly reason: string) {
    super(reason);
  }
}
