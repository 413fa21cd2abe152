import type { GroupCommit } from "./group-commit.js";
import { beginLine, headLine } from "./journal-format.js";
import type { LockFence } from "./lock-fence.js";
import type { OpenOperations } from "./open-operations.js";
import type { RecordLines } from "./record-lines.js";
import { encodeState } from "./secret-encoding.js";
import { snapshotChunks } from "./snapshot.js";
import type { StackSecrets } from "./stack-secrets.js";
import type { StateProjection } from "./state-projection.js";
import type { JournalStorage } from "./store.js";
import type { StackState } from "./types.js";

/** The parts of a journal a compaction works with. */
export interface CompactionParts {
  storage: JournalStorage;
  commit: GroupCommit;
  projection: StateProjection;
  open: OpenOperations;
  fence: LockFence;
  secrets: StackSecrets;
  /** The records of the snapshot file the state was loaded from, for the first compaction to copy those unchanged. */
  lines?: RecordLines | undefined;
}

/**
 * A journal's compactions: each makes every record so far durable in the journal, then writes the state as
 * a new snapshot (serial + 1) and a fresh journal holding only the operations still pending.
 *
 * @example
 * const compaction = new Compaction({ storage, commit, projection, open, fence, secrets });
 * const saved = await compaction.run(); // saved.serial: the previous serial + 1
 */
export class Compaction {
  private readonly parts: CompactionParts;
  /** The loaded snapshot's record lines, until the first compaction (after it, that file is no longer the one). */
  private lines: RecordLines | undefined;

  constructor(parts: CompactionParts) {
    this.parts = parts;
    this.lines = parts.lines;
  }

  /**
   * Writes `state` (else the journal's state) as the next snapshot; resolves with what was written. Records
   * made while it is written are kept and go to the fresh journal. A full disk fails it (everything recorded
   * is written first, with the reserve) and leaves the journal as it was; any other failure stops the journal.
   * @example const saved = await compaction.run(engineState);
   */
  async run(state?: StackState): Promise<StackState> {
    const { storage, commit, projection, open, fence, secrets } = this.parts;
    if (commit.compacting) throw new Error("journal: a compaction is already running; wait for it before starting another");
    if (commit.diskFull) {
      // Everything recorded is written (using the reserve); a snapshot would only fill the disk again.
      await commit.flush();
      throw commit.diskFull;
    }
    // Everything below up to the first await happens at one instant: the snapshot covers exactly the
    // records made so far, and everything after it goes to the fresh journal. The snapshot is serialized
    // piece by piece as it is written, and is the value returned; it shares its map of resources with the
    // journal's state until the journal next changes it (see `StateProjection`).
    const base = state ?? projection.state;
    const snap = { ...base, serial: base.serial + 1 };
    const encoded = encodeState(snap, secrets.crypter); // throws before any change if a secret cannot be encrypted
    const journalText = headLine(snap.serial) + open.values().map(beginLine).join("");
    const undo = projection.advance(state, snap.serial);
    const cut = commit.cut();
    try {
      // First make the covered records durable in the current journal: should the snapshot fail, nothing is lost.
      const dropped = await commit.writeCut(cut);
      if (dropped.size || commit.diskFull) {
        undo();
        throw commit.diskFull!;
      }
      await fence.beforeInstall();
      await secrets.persist();
      // Records still the very objects read from the loaded snapshot are copied from its file (see `recordLines`).
      const lines = this.lines;
      this.lines = undefined;
      // The count is counted only by the stores that keep it beside the snapshot (listing a large map's keys is not free).
      const write = { chunks: () => snapshotChunks(encoded, lines), serial: snap.serial, get resources() { return Object.keys(snap.resources).length; } };
      commit.addBytes(await storage.replace(write, journalText));
    } catch (e) {
      const err = e as Error;
      if (err === commit.diskFull) throw err;
      // The snapshot may or may not be in place, so the old journal may no longer be the one loaded next:
      // stop this run. Everything recorded was made durable first, so the next load loses nothing.
      commit.fail(new Error(`journal: compacting into ${storage.snapshotName} failed (${err.message}); the run must stop`), cut.waiters);
      throw commit.failure!;
    } finally {
      commit.resume();
    }
    return snap;
  }
}
