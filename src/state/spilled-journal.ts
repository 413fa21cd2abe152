import { BackendUnreachableError } from "./net/retry.js";
import type { SpillFile } from "./spill.js";
import type { JournalStorage, SnapshotWrite } from "./store.js";

/**
 * A journal storage that writes across a network, at positions it can name (PostgreSQL rows, S3 objects).
 * @example const { base, next } = storage.cursor(); storage.after(next, text) // the slot after this batch
 */
export interface RemoteJournalStorage extends JournalStorage {
  /** Where the next append goes: the snapshot serial the journal continues, and its next slot (after `ready`). */
  cursor(): { base: number; next: number };
  /** The slot after `text` written at slot `at`. */
  after(at: number, text: string): number;
}

/**
 * A network journal with a local safety copy: each batch goes to the {@link SpillFile} (fsynced) before it
 * is sent, and leaves it when the backend acknowledges it. A batch the backend never acknowledged (the
 * network stayed down past the retry budget) stays in the file, and so do the records that arrive after
 * that ({@link SpilledJournalStorage.keep}): the next run writes them into the backend before planning.
 *
 * @example const storage = new SpilledJournalStorage(pgStorage, spill);
 */
export class SpilledJournalStorage implements JournalStorage {
  readonly name: string;
  readonly snapshotName: string;
  readonly ready: Promise<number>;
  /** The slot after the last batch spilled (sent or not). */
  private next: { base: number; at: number } | undefined;

  constructor(
    private readonly inner: RemoteJournalStorage,
    private readonly spill: SpillFile,
  ) {
    this.name = inner.name;
    this.snapshotName = inner.snapshotName;
    this.ready = inner.ready;
  }

  get keptIn(): string {
    return this.spill.file;
  }

  async append(text: string): Promise<number> {
    await this.inner.ready;
    const at = this.place();
    const n = await this.spill.write({ ...at, text });
    this.next = { base: at.base, at: this.inner.after(at.at, text) };
    try {
      const bytes = await this.inner.append(text);
      this.spill.ack(n);
      return bytes;
    } catch (e) {
      if (!(e instanceof BackendUnreachableError)) {
        // Refused, not unreachable (a conflict, a lost lock): the records cannot go there later either.
        this.spill.ack(n);
        throw e;
      }
      // Begins in the lost batch never led to a call (the journal refuses them): say so, so the next run
      // does not report them as interrupted operations.
      const aborts = beginOps(text).map((op) => `{"t":"abort","op":${op}}\n`).join("");
      if (aborts) this.keep(aborts);
      e.message += `. The records it did not get are kept in ${this.spill.file}; the next run writes them into it before planning`;
      throw e;
    }
  }

  /** Keeps records that could not be sent, locally (synchronously: durable when it returns). */
  keep(text: string): boolean {
    const at = this.place();
    this.spill.keep({ ...at, text });
    this.next = { base: at.base, at: this.inner.after(at.at, text) };
    return true;
  }

  async replace(snapshot: SnapshotWrite, journal: string): Promise<number> {
    const bytes = await this.inner.replace(snapshot, journal);
    // Everything spilled is in the backend by now (a compaction writes the journal first).
    if (this.spill.outstanding === 0) this.spill.clear();
    this.next = undefined;
    return bytes;
  }

  releaseReserve(): Promise<boolean> {
    return this.inner.releaseReserve?.() ?? Promise.resolve(false);
  }

  async close(): Promise<void> {
    await this.inner.close();
    this.spill.close();
  }

  private place(): { base: number; at: number } {
    const c = this.inner.cursor();
    return this.next && this.next.base === c.base ? { base: c.base, at: Math.max(this.next.at, c.next) } : { base: c.base, at: c.next };
  }
}

/** The op numbers of the begin records in an NDJSON batch. */
function beginOps(text: string): number[] {
  const ops: number[] = [];
  for (const line of text.split("\n")) {
    if (!line.startsWith('{"t":"begin"')) continue;
    const m = /"op":(\d+)/.exec(line);
    if (m) ops.push(Number(m[1]));
  }
  return ops;
}
