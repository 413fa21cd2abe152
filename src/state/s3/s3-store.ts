import type { HistoryEntry, RawConfigValue, StackExport } from "../stored.js";
import { parseConfigText, serializeConfig } from "../config-store.js";
import { headLine } from "../journal-format.js";
import { recordLines } from "../remote-journal.js";
import type { LockHolder, StackLock, UnlockResult } from "../lock-holder.js";
import { EncryptionExistsError, type ConfigStorage, type EncryptionStorage, type JournalPrep, type JournalStorage, type SnapshotText, type StoreCatalog, type StoreContext, type StoreHistory, type StoreLocker, type StoreNames, type StoreReader, type StoreTransfer, type StoreWriter } from "../store.js";
import { S3JournalStorage, batchKey, parseBatchKey } from "./s3-journal.js";
import { SpillConflictError } from "../spill.js";
import { lockS3Stack, readS3LockHolder, unlockS3Stack } from "./s3-lock.js";
import { versionKey, type S3Lease, type S3Place } from "./s3-place.js";

import { S3Objects } from "./s3-objects.js";
import { isPreconditionFailed, s3Error, type S3Target } from "./s3-target.js";
import { UserError } from "../../core/diagnostic.js";



/**
 * State in S3 (or an S3-compatible store), under `<prefix>/<project>/<stack>/`:
 *
 * ```text
 * state.json                      current snapshot: replaced only with If-Match (created with If-None-Match: *)
 * history/<serial>.json           every version written (numbered snapshots)
 * journal/<serial>/<seq>.ndjson   the journal: one object per group commit, created with If-None-Match: *
 * lock.json                       the lock: created with If-None-Match: *, holder + lease, renewed with If-Match
 * config.json                     configuration, compare-and-swap on its ETag
 * encryption.json                 salt and check value of the passphrase (never the key)
 * ```
 *
 * Two writers can never overwrite each other: every write is conditional on what the writer read.
 *
 * @example const store = new S3Store(parseS3Url("s3://acme-state/cairn?region=eu-west-1"), { stack: "prod", project: "web" });
 */
export class S3Store implements StoreReader, StoreWriter, StoreLocker, StoreHistory, ConfigStorage, EncryptionStorage, StoreCatalog, StoreTransfer, S3Place {
  readonly names: StoreNames;
  readonly objects: S3Objects;
  /** The lease while this store holds the stack lock. */
  lease: S3Lease | undefined;
  /** ETag of `state.json` as last read or written, for the next conditional write; null: it did not exist. */
  stateEtag: string | null | undefined;

  constructor(
    readonly target: S3Target,
    readonly ctx: StoreContext,
  ) {
    this.objects = new S3Objects(target);
    const at = (rel: string) => `s3://${target.bucket}/${this.objects.key(this.rel(rel))}`;
    this.names = { snapshot: at("state.json"), journal: at("journal/"), config: at("config.json"), encryption: at("encryption.json"), lock: at("lock.json") };
  }

  get url(): string {
    return this.target.display;
  }

  /** @internal A key relative to the prefix, inside this stack's folder. */
  rel(name: string): string {
    return `${this.ctx.project}/${this.ctx.stack}/${name}`;
  }

  async readSnapshot(): Promise<SnapshotText | undefined> {
    const o = await this.objects.get(this.rel("state.json"));
    this.stateEtag = o ? o.etag : null;
    return o ? { text: o.text, name: this.names.snapshot } : undefined;
  }

  /** @internal The serial of the current snapshot (from its metadata), or undefined for a new stack. */
  async currentSerial(): Promise<number | undefined> {
    const h = await this.objects.head(this.rel("state.json"));
    if (!h) return undefined;
    const fromMeta = Number(h.metadata.serial);
    if (Number.isInteger(fromMeta)) return fromMeta;
    const o = await this.objects.get(this.rel("state.json")); // written by hand, without metadata
    return o ? (JSON.parse(o.text) as { serial: number }).serial : undefined;
  }

  async readJournal(): Promise<Buffer | undefined> {
    const serial = await this.currentSerial();
    const batches = (await this.objects.list(this.rel("journal/"))).map((o) => ({ ...o, ...parseBatchKey(o.key) })).filter((b) => b.serial === (serial ?? 0));
    if (serial === undefined && !batches.length) return undefined;
    let text = headLine(serial ?? 0);
    for (const b of batches) text += (await this.objects.get(b.key))?.text ?? "";
    return Buffer.from(text, "utf8");
  }

  openJournal(prep: JournalPrep): JournalStorage {
    return new S3JournalStorage(this, prep);
  }

  lock(opts: { command?: string }): Promise<StackLock> {
    return lockS3Stack(this, opts.command ?? "");
  }

  unlock(opts: { force: boolean }): Promise<UnlockResult> {
    return unlockS3Stack(this, opts.force);
  }

  async readConfig(): Promise<Record<string, RawConfigValue>> {
    const o = await this.objects.get(this.rel("config.json"));
    return o ? parseConfigText(o.text, this.names.config) : (Object.create(null) as Record<string, RawConfigValue>);
  }

  async updateConfig(update: (values: Record<string, RawConfigValue>) => boolean): Promise<void> {
    // Compare-and-swap on the ETag: a writer that lost the race reads again and reapplies its change.
    for (let attempt = 0; attempt < 20; attempt++) {
      const o = await this.objects.get(this.rel("config.json"));
      const values = o ? parseConfigText(o.text, this.names.config) : (Object.create(null) as Record<string, RawConfigValue>);
      if (!update(values)) return;
      try {
        await this.objects.put(this.rel("config.json"), serializeConfig(values), o ? { ifMatch: o.etag } : { ifNoneMatch: "*" });
        return;
      } catch (e) {
        if (!isPreconditionFailed(e)) throw s3Error(e, "writing", this.objects.key(this.rel("config.json")), this.target);
        await new Promise((r) => setTimeout(r, 20 + Math.random() * 80 * (attempt + 1)));
      }
    }
    throw new UserError(`${this.names.config} kept changing while this run tried to update it (20 attempts): run again`);
  }

  async readEncryption(): Promise<string | undefined> {
    return (await this.objects.get(this.rel("encryption.json")))?.text;
  }

  async createEncryption(text: string): Promise<void> {
    try {
      await this.objects.put(this.rel("encryption.json"), text, { ifNoneMatch: "*" });
    } catch (e) {
      if (isPreconditionFailed(e)) throw new EncryptionExistsError(this.names.encryption);
      throw s3Error(e, "writing", this.objects.key(this.rel("encryption.json")), this.target);
    }
  }

  async history(): Promise<HistoryEntry[]> {
    const current = await this.currentSerial();
    return (await this.objects.list(this.rel("history/")))
      .flatMap((o) => {
        const m = /history\/(\d+)\.json$/.exec(o.key);
        return m ? [{ version: Number(m[1]), writtenAt: o.lastModified.toISOString(), bytes: o.size, current: Number(m[1]) === current }] : [];
      })
      .sort((a, b) => a.version - b.version);
  }

  async readVersion(version: number): Promise<string | undefined> {
    return (await this.objects.get(this.rel(versionKey(version))))?.text;
  }

  async listAllStacks(): Promise<{ project: string; stack: string }[]> {
    const out: { project: string; stack: string }[] = [];
    for (const project of await this.objects.folders("")) for (const stack of await this.objects.folders(`${project}/`)) out.push({ project, stack });
    return out;
  }

  async listStacks(): Promise<string[]> {
    return this.objects.folders(`${this.ctx.project}/`);
  }

  async isEmpty(): Promise<boolean> {
    const all = await this.objects.list(this.rel(""));
    return all.every((o) => o.key.endsWith("/lock.json"));
  }

  async importRaw(data: StackExport): Promise<void> {
    const put = (name: string, body: string, meta?: Record<string, string>) => this.objects.put(this.rel(name), body, { ifNoneMatch: "*" }, meta);
    if (data.encryption !== undefined) await put("encryption.json", data.encryption);
    if (Object.keys(data.config).length) await put("config.json", serializeConfig(data.config));
    for (const h of data.history) await put(versionKey(h.version), h.text, { serial: String(h.version), ...(h.writtenAt ? { "written-at": h.writtenAt } : {}) });
    const lines = recordLines(data.journal ?? "");
    if (lines.length > 1) {
      const base = (JSON.parse(lines[0]!) as { serial: number }).serial;
      await put(batchKey(base, 1), lines.slice(1).join("\n") + "\n");
    }
    if (data.snapshot !== undefined) {
      const serial = (JSON.parse(data.snapshot) as { serial: number }).serial;
      this.stateEtag = await put("state.json", data.snapshot, { serial: String(serial) });
    }
  }

  lockHolder(): Promise<LockHolder | undefined> {
    return readS3LockHolder(this);
  }

  async replayAt(base: number, at: number, text: string): Promise<void> {
    const current = (await this.currentSerial()) ?? 0;
    if (current !== base) throw new SpillConflictError(`the stack is at version ${current} now, and the records continue version ${base}`);
    const rel = this.rel(batchKey(base, at));
    try {
      await this.objects.put(rel, text, { ifNoneMatch: "*" });
    } catch (e) {
      if (!isPreconditionFailed(e)) throw s3Error(e, "writing", this.objects.key(rel), this.target);
      if ((await this.objects.get(rel))?.text !== text) throw new SpillConflictError(`journal batch ${at} holds other records now`);
    }
  }

  async removeAll(): Promise<void> {
    const all = (await this.objects.list(this.rel(""))).map((o) => o.key).filter((k) => !k.endsWith("/lock.json"));
    // The snapshot first: should this stop half-way, the stack already reads as empty.
    const snapshot = this.rel("state.json");
    if (all.includes(snapshot)) await this.objects.deleteMany([snapshot]);
    await this.objects.deleteMany(all.filter((k) => k !== snapshot));
    this.stateEtag = null;
  }

  async close(): Promise<void> {}
}
