import fs from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { durableWrite, writeError } from "./durable-file.js";
import type { StackFiles } from "./stack-files.js";
import { beginLine, headLine } from "./journal-format.js";
import type { JournalPrep, JournalStorage, SnapshotWrite } from "./store.js";

/**
 * What the journal uses of a file store (the store is one): its files, and the writes around a journal.
 * Named here so that the journal depends on this, not on the store that opens it.
 *
 * @example new FileJournalStorage(store, prep) // a FileStore is a FilePlace
 */
export interface FilePlace {
  readonly files: StackFiles;
  /** Makes the stack's folder. */
  mkdir(): Promise<void>;
  /** Makes sure the disk-space reserve file exists (a full disk then still leaves room to finish). */
  ensureReserve(): Promise<void>;
  /** Frees the reserve; true when there was one. */
  releaseReserve(): Promise<boolean>;
  /** Writes a snapshot durably; resolves with the bytes written. */
  writeSnapshot(snap: SnapshotWrite): Promise<number>;
}

/**
 * A journal file opened for appending. Each append is one write + fdatasync; a failed append is cut
 * off again (the file keeps only whole records), so a full disk never leaves a half record behind.
 *
 * @example const storage = new FileJournalStorage(store, scan.prep); await storage.append(line);
 */
export class FileJournalStorage implements JournalStorage {
  readonly name: string;
  readonly snapshotName: string;
  readonly ready: Promise<number>;
  private fh: FileHandle | undefined;
  private size = 0;

  constructor(
    private readonly store: FilePlace,
    prep: JournalPrep,
  ) {
    const files = store.files;
    this.name = files.journal;
    this.snapshotName = files.snapshot;
    this.ready = (async () => {
      await prep.after;
      await store.mkdir();
      await store.ensureReserve();
      let bytes = 0;
      if (!prep.continuesSnapshot) {
        bytes = await durableWrite(files.journal, headLine(prep.snapshotSerial) + prep.pending.map(beginLine).join(""));
      } else if (prep.validBytes < prep.size) {
        // Appending after a torn record would glue the next record onto it: cut the torn part off.
        await fs.promises.truncate(files.journal, prep.validBytes);
      }
      await this.reopen();
      return bytes;
    })();
    this.ready.catch(() => {}); // reported by the first write
  }

  async append(text: string): Promise<number> {
    await this.ready;
    const fh = this.fh!;
    const buf = Buffer.from(text, "utf8");
    const start = this.size;
    try {
      // The write only copies into the page cache (microseconds), so it is done in place; the fsync is
      // what takes time, and runs in the background while new records queue up.
      for (let off = 0; off < buf.length; ) {
        const n = fs.writeSync(fh.fd, buf, off, buf.length - off);
        if (n <= 0) throw Object.assign(new Error(`wrote ${off} of ${buf.length} bytes`), { code: "EIO" });
        off += n;
      }
      await fh.datasync();
    } catch (e) {
      await fh.truncate(start).catch(() => {});
      throw writeError(this.name, e);
    }
    this.size += buf.length;
    return buf.length;
  }

  async replace(snapshot: SnapshotWrite, journal: string): Promise<number> {
    await this.ready;
    let bytes = await this.store.writeSnapshot(snapshot);
    bytes += await durableWrite(this.name, journal);
    const old = this.fh;
    await this.reopen();
    await old?.close().catch(() => {});
    return bytes;
  }

  releaseReserve(): Promise<boolean> {
    return this.store.releaseReserve();
  }

  async close(): Promise<void> {
    await this.ready.catch(() => 0);
    await this.fh?.close().catch(() => {});
    this.fh = undefined;
  }

  private async reopen(): Promise<void> {
    this.fh = await fs.promises.open(this.name, "a");
    this.size = (await this.fh.stat()).size;
  }
}
