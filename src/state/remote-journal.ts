import type { RemoteJournalStorage } from "./spilled-journal.js";
import type { JournalPrep, SnapshotWrite, StoreNames } from "./store.js";

/**
 * The records of an NDJSON text, one a line (the empty string after the last newline is not one).
 * @example recordLines('{"t":"begin"}\n{"t":"end"}\n') // ['{"t":"begin"}', '{"t":"end"}']
 */
export function recordLines(text: string): string[] {
  return text.split("\n").filter((l) => l !== "");
}

/**
 * The records a compaction carries into the new version's journal: all but the head line, which the new
 * version's serial implies.
 *
 * @example carriedRecords('{"t":"head","serial":8}\n{"t":"begin","op":3}\n') // ['{"t":"begin","op":3}']
 */
export function carriedRecords(journal: string): string[] {
  return recordLines(journal).slice(1);
}

/**
 * What a journal in a network store (PostgreSQL rows, S3 objects) keeps the same way: its names, the
 * snapshot serial it continues and its next slot, and its opening, which waits for the journal before it
 * (`prep.after`) and whose failure is reported by the first append, not as an unhandled rejection. A
 * backend adds where its records go: `open`, `append`, `replace` and `after`.
 *
 * @example
 * class RowJournal extends RemoteJournal {
 *   protected async open() { this.nextSeq = await lastRow() + 1; return 0; }
 *   ...
 * }
 */
export abstract class RemoteJournal implements RemoteJournalStorage {
  readonly name: string;
  readonly snapshotName: string;
  readonly ready: Promise<number>;
  /** The snapshot serial the journal continues. */
  protected base: number;
  /** The slot the next append goes to. */
  protected nextSeq = 1;

  constructor(names: StoreNames, prep: JournalPrep) {
    this.name = names.journal;
    this.snapshotName = names.snapshot;
    this.base = prep.snapshotSerial;
    // `open` runs after the subclass's constructor: the `await` defers it past this synchronous call.
    this.ready = (async () => {
      await prep.after;
      return this.open(prep);
    })();
    this.ready.catch(() => {});
  }

  /** Prepares the journal for this run (finds the next slot; starts it over when it predates the snapshot); resolves with the bytes written. */
  protected abstract open(prep: JournalPrep): Promise<number>;

  /** The slot after `text` written at slot `at`. */
  abstract after(at: number, text: string): number;

  /** Appends complete NDJSON records durably; resolves with the bytes written. */
  abstract append(text: string): Promise<number>;

  /** Installs `snapshot` as the current version and replaces the journal with `journal`'s records; resolves with the bytes written. */
  abstract replace(snapshot: SnapshotWrite, journal: string): Promise<number>;

  /** Where the next append goes: the snapshot serial the journal continues, and its next slot. */
  cursor(): { base: number; next: number } {
    return { base: this.base, next: this.nextSeq };
  }

  /** Waits for the opening to end (its failure was reported already). */
  async close(): Promise<void> {
    await this.ready.catch(() => 0);
  }
}
