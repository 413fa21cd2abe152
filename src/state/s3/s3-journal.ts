import { beginLine } from "../journal-format.js";
import { carriedRecords, RemoteJournal } from "../remote-journal.js";
import { snapshotText, type JournalPrep, type SnapshotWrite } from "../store.js";
import { isPreconditionFailed, s3Error } from "./s3-target.js";
import { versionKey, type S3Place } from "./s3-place.js";

/** The key of journal batch `seq` continuing snapshot `serial`. @example batchKey(7, 3) // "journal/000000000007/0000000003.ndjson" */
export function batchKey(serial: number, seq: number): string {
  return `journal/${String(serial).padStart(12, "0")}/${String(seq).padStart(10, "0")}.ndjson`;
}

/** Reads a batch key back. @example parseBatchKey("web/dev/journal/000000000007/0000000003.ndjson") // { serial: 7, seq: 3 } */
export function parseBatchKey(key: string): { serial: number; seq: number } {
  const m = /journal\/(\d+)\/(\d+)\.ndjson$/.exec(key);
  return m ? { serial: Number(m[1]), seq: Number(m[2]) } : { serial: -1, seq: -1 };
}

/**
 * A journal as numbered S3 objects: each group commit is one object `journal/<serial>/<seq>.ndjson`
 * created with `If-None-Match: *` (two writers can never both write record batch N). Compaction
 * writes the carried pending operations as the next serial's first batch, then replaces `state.json`
 * with `If-Match` on the ETag it loaded (the commit point), then keeps the version in `history/` and
 * deletes the compacted batches. Batches of other serials (left by an interrupted compaction) are
 * ignored by loads and removed by the next run.
 *
 * @example const storage = new S3JournalStorage(store, scan.prep); await storage.append(lines);
 */
export class S3JournalStorage extends RemoteJournal {
  constructor(
    private readonly store: S3Place,
    prep: JournalPrep,
  ) {
    super(store.names, prep);
  }

  protected async open(prep: JournalPrep): Promise<number> {
    const { store } = this;
    const batches = (await store.objects.list(store.rel("journal/"))).map((o) => ({ key: o.key, ...parseBatchKey(o.key) }));
    const stale = batches.filter((b) => b.serial !== this.base);
    if (stale.length) await store.objects.deleteMany(stale.map((b) => b.key));
    const mine = batches.filter((b) => b.serial === this.base);
    this.nextSeq = mine.reduce((n, b) => Math.max(n, b.seq + 1), 1);
    if (!prep.continuesSnapshot && prep.pending.length) return this.putBatch(prep.pending.map(beginLine).join(""));
    return 0;
  }

  after(at: number): number {
    return at + 1; // one object per batch
  }

  async append(text: string): Promise<number> {
    await this.ready;
    return this.putBatch(text);
  }

  private async putBatch(text: string): Promise<number> {
    const key = batchKey(this.base, this.nextSeq);
    try {
      await this.store.objects.put(this.store.rel(key), text, { ifNoneMatch: "*" });
    } catch (e) {
      if (isPreconditionFailed(e)) {
        throw new Error(`another run wrote journal batch ${this.nextSeq} of stack ${this.store.ctx.stack} meanwhile (${this.name}): this run must stop`);
      }
      throw s3Error(e, "writing", this.store.objects.key(this.store.rel(key)), this.store.target);
    }
    this.nextSeq++;
    return Buffer.byteLength(text);
  }

  async replace(snapshot: SnapshotWrite, journal: string): Promise<number> {
    await this.ready;
    const { store } = this;
    const old = { base: this.base, upTo: this.nextSeq };
    const carried = carriedRecords(journal);
    // 1. The pending operations first: once state.json moves on, they must already be in its journal.
    if (carried.length) await store.objects.put(store.rel(batchKey(snapshot.serial, 1)), carried.join("\n") + "\n", { ifNoneMatch: "*" }).catch((e: unknown) => {
      throw s3Error(e, "writing", store.objects.key(store.rel(batchKey(snapshot.serial, 1))), store.target);
    });
    // 2. The commit point: replace exactly the snapshot this run loaded, or fail.
    const etag = store.stateEtag === undefined ? ((await store.objects.head(store.rel("state.json")))?.etag ?? null) : store.stateEtag;
    const meta = { serial: String(snapshot.serial), resources: String(snapshot.resources) };
    const text = snapshotText(snapshot);
    try {
      store.stateEtag = await store.objects.put(store.rel("state.json"), text, etag === null ? { ifNoneMatch: "*" } : { ifMatch: etag }, meta);
    } catch (e) {
      if (isPreconditionFailed(e)) {
        throw new Error(
          `${store.names.snapshot} was replaced by another writer since this run loaded it (its ETag changed): nothing was overwritten; ` +
            `this run's changes are kept in its journal. Make sure only one run uses the stack (the lock may have been forced), then run again`,
        );
      }
      throw s3Error(e, "writing", store.objects.key(store.rel("state.json")), store.target);
    }
    this.base = snapshot.serial;
    this.nextSeq = carried.length ? 2 : 1;
    // 3. History and clean-up: a failure here loses nothing.
    await store.objects.put(store.rel(versionKey(snapshot.serial)), text, undefined, meta).catch(() => {});
    const done = Array.from({ length: old.upTo - 1 }, (_, i) => store.rel(batchKey(old.base, i + 1)));
    await store.objects.deleteMany(done).catch(() => {});
    return Buffer.byteLength(text) + Buffer.byteLength(journal);
  }
}
