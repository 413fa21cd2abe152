import fs from "node:fs";
import { join } from "node:path";
import { fileBackendUrl } from "./backend-url.js";
import { properLockfile } from "./lockfile.js";
import type { HistoryEntry, RawConfigValue, StackExport } from "./stored.js";
import { parseConfigText, serializeConfig } from "./config-store.js";
import { DiskFullError, durableCopy, durableCreate, durableWrite, fsyncDir, makeDirs, readIfExists, readStart, readWithIdentity, writeError, writeTemp } from "./durable-file.js";
import { serialAtHead } from "./snapshot.js";
import { StateReadError } from "./fs-errors.js";
import { FileJournalStorage } from "./file-journal.js";
import { forceUnlock, lockStack, readLiveLockHolder } from "./lock.js";
import type { LockHolder, StackLock, UnlockResult } from "./lock-holder.js";
import { stackFiles, type StackFiles } from "./stack-files.js";
import { EncryptionExistsError, type ConfigStorage, type EncryptionStorage, type JournalPrep, type JournalStorage, type SnapshotText, type SnapshotWrite, type StoreCatalog, type StoreHistory, type StoreLocker, type StoreNames, type StoreReader, type StoreTransfer, type StoreWriter } from "./store.js";

/** Snapshot versions a file backend keeps in `history/` (older ones are removed as new ones are written). */
export const FILE_HISTORY_KEEP = 100;

/** Bytes kept free in `disk-reserve`, released when the disk fills up so results can still be journaled. */
export const DISK_RESERVE_BYTES = 256 * 1024;

/** Bytes read from the start of `state.json` for its serial (its project and stack names come before it). */
const HEAD_BYTES = 4096;

const versionFile = (files: StackFiles, v: number) => join(files.history, `${String(v).padStart(12, "0")}.json`);

/**
 * The file store: one directory per stack (see {@link stackFiles}). Every write is temp file → fsync →
 * rename → fsync of the directory, with the byte count checked; `state.json.bak` keeps the previous
 * snapshot and `history/` the last {@link FILE_HISTORY_KEEP} versions: independent copies (clones where the
 * file system can), so damage done to `state.json` in place never reaches its history.
 *
 * @example const store = new FileStore(stackFiles(".cairn", "dev"), { stack: "dev", stateDir: ".cairn" });
 */
export class FileStore implements StoreReader, StoreWriter, StoreLocker, StoreHistory, ConfigStorage, EncryptionStorage, StoreCatalog, StoreTransfer {
  readonly names: StoreNames;
  private damagedSnapshot = false;

  constructor(
    readonly files: StackFiles,
    private readonly ctx: { stack: string; stateDir: string; programHint?: string | undefined },
  ) {
    this.names = { snapshot: files.snapshot, journal: files.journal, config: files.config, encryption: files.encryption, lock: join(files.dir, "lock") };
  }

  get url(): string {
    return fileBackendUrl(this.ctx.stateDir);
  }

  async readSnapshot(): Promise<SnapshotText | undefined> {
    const read = await readWithIdentity(this.files.snapshot);
    if (read === undefined) return undefined;
    return {
      text: read.text,
      file: read.file,
      name: this.files.snapshot,
      backup: async () => {
        const bak = await readIfExists(this.files.backup);
        return bak === undefined ? undefined : { text: bak, name: this.files.backup };
      },
      damaged: () => void (this.damagedSnapshot = true),
    };
  }

  async readJournal(): Promise<Buffer | undefined> {
    return fs.promises.readFile(this.files.journal).catch((e: NodeJS.ErrnoException) => {
      if (e.code === "ENOENT") return undefined;
      throw new StateReadError(this.files.journal, e);
    });
  }

  openJournal(prep: JournalPrep): JournalStorage {
    return new FileJournalStorage(this, prep);
  }

  lock(opts: { command?: string }): Promise<StackLock> {
    return lockStack(this.files.dir, { stack: this.ctx.stack, ...opts, ...(this.ctx.programHint !== undefined ? { programHint: this.ctx.programHint } : {}) });
  }

  unlock(opts: { force: boolean }): Promise<UnlockResult> {
    return forceUnlock(this.files.dir, { ...opts, stack: this.ctx.stack, ...(this.ctx.programHint !== undefined ? { programHint: this.ctx.programHint } : {}) });
  }

  async readConfig(): Promise<Record<string, RawConfigValue>> {
    const text = await readIfExists(this.files.config);
    return text === undefined ? (Object.create(null) as Record<string, RawConfigValue>) : parseConfigText(text, this.files.config);
  }

  async updateConfig(update: (values: Record<string, RawConfigValue>) => boolean): Promise<void> {
    await this.mkdir();
    // A short lock of its own, so `config set` waits for another `config set` instead of losing its key,
    // and does not fail while a long `up` holds the stack lock.
    const lockPath = `${this.files.config}.lock`;
    const lockfile = await properLockfile();
    const release = await lockfile.lock(this.files.config, {
      realpath: false,
      lockfilePath: lockPath,
      stale: 10_000,
      retries: { retries: 100, factor: 1.2, minTimeout: 10, maxTimeout: 250 },
      onCompromised: () => {},
    }).catch((e: unknown) => {
      throw writeError(lockPath, e);
    });
    try {
      const values = await this.readConfig();
      if (update(values)) await durableWrite(this.files.config, serializeConfig(values));
    } finally {
      await release().catch(() => {});
    }
  }

  readEncryption(): Promise<string | undefined> {
    return readIfExists(this.files.encryption);
  }

  async createEncryption(text: string): Promise<void> {
    await this.mkdir();
    try {
      await durableCreate(this.files.encryption, text, 0o600);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "EEXIST") throw new EncryptionExistsError(this.files.encryption);
      throw e;
    }
  }

  async history(): Promise<HistoryEntry[]> {
    const names = await fs.promises.readdir(this.files.history).catch(() => [] as string[]);
    const current = await fs.promises.stat(this.files.snapshot).catch(() => undefined);
    const serial = current ? await this.currentSerial() : undefined;
    const out: HistoryEntry[] = [];
    for (const name of names) {
      const m = /^(\d+)\.json$/.exec(name);
      if (!m) continue;
      const st = await fs.promises.stat(join(this.files.history, name)).catch(() => undefined);
      if (!st) continue;
      out.push({ version: Number(m[1]), writtenAt: st.mtime.toISOString(), bytes: st.size, current: Number(m[1]) === serial });
    }
    out.sort((a, b) => a.version - b.version);
    if (current && serial !== undefined && !out.some((h) => h.current)) {
      // A snapshot written before history was kept.
      out.push({ version: serial, writtenAt: current.mtime.toISOString(), bytes: current.size, current: true });
    }
    return out;
  }

  async readVersion(version: number): Promise<string | undefined> {
    const text = await readIfExists(versionFile(this.files, version));
    if (text !== undefined) return text;
    return (await this.currentSerial()) === version ? readIfExists(this.files.snapshot) : undefined;
  }

  listStacks(): Promise<string[]> {
    return listStackDirs(this.ctx.stateDir);
  }

  /**
   * Every stack directory with the project its snapshot names (the layout has no project level): read from
   * the snapshot's head, which holds `project` before any resource. A stack without a snapshot is skipped.
   */
  async listAllStacks(): Promise<{ project: string; stack: string }[]> {
    const out: { project: string; stack: string }[] = [];
    for (const stack of await listStackDirs(this.ctx.stateDir)) {
      const head = await fs.promises.open(stackFiles(this.ctx.stateDir, stack).snapshot).then(
        async (f) => {
          try {
            const buf = Buffer.alloc(4096);
            const { bytesRead } = await f.read(buf, 0, buf.length, 0);
            return buf.subarray(0, bytesRead).toString("utf8");
          } finally {
            await f.close();
          }
        },
        () => "",
      );
      const project = /"project":\s*("(?:[^"\\]|\\.)*")/.exec(head)?.[1];
      if (project) out.push({ project: JSON.parse(project) as string, stack });
    }
    return out;
  }

  async isEmpty(): Promise<boolean> {
    const f = this.files;
    for (const p of [f.snapshot, f.journal, f.config, f.encryption, f.history]) {
      if (await fs.promises.stat(p).then(() => true, () => false)) return false;
    }
    return true;
  }

  async importRaw(data: StackExport): Promise<void> {
    await this.mkdir();
    if (data.encryption !== undefined) await this.createEncryption(data.encryption);
    if (Object.keys(data.config).length) await durableWrite(this.files.config, serializeConfig(data.config));
    if (data.history.length) await makeDirs(this.files.history);
    for (const h of data.history) await durableWrite(versionFile(this.files, h.version), h.text);
    if (data.snapshot !== undefined) await durableWrite(this.files.snapshot, data.snapshot);
    if (data.journal !== undefined) await durableWrite(this.files.journal, data.journal);
  }

  lockHolder(): Promise<LockHolder | undefined> {
    return readLiveLockHolder(this.files.dir);
  }

  async removeAll(): Promise<void> {
    const f = this.files;
    const keep = new Set(["lock", "lock.json", "lock.guard"]);
    // The snapshot and journal first: should this stop half-way, the stack already reads as empty.
    for (const p of [f.snapshot, f.journal]) await fs.promises.rm(p, { force: true });
    const names = await fs.promises.readdir(f.dir).catch(() => [] as string[]);
    for (const name of names) if (!keep.has(name)) await fs.promises.rm(join(f.dir, name), { recursive: true, force: true });
    await fsyncDir(f.snapshot);
  }

  async keepDamagedJournal(): Promise<void> {
    if (!(await fs.promises.stat(this.files.journal).then(() => true, () => false))) return;
    await durableCopy(this.files.journal, `${this.files.journal}.damaged-${new Date().toISOString().replace(/[:.]/g, "-")}`);
  }

  async removeLeftovers(): Promise<void> {
    await fs.promises.rmdir(this.files.dir).catch(() => {}); // not empty: another run locked it meanwhile
  }

  async close(): Promise<void> {}

  /** @internal Creates the stack directory. */
  async mkdir(): Promise<void> {
    await makeDirs(this.files.dir);
  }

  /**
   * @internal Installs a new snapshot version: the temp file becomes `state.json` and is copied to
   * `history/<serial>.json`, the previous `state.json` stays as `state.json.bak` (or, if it was
   * unreadable, is kept aside as `state.json.damaged-<time>`). Returns the bytes written.
   */
  async writeSnapshot(snap: SnapshotWrite): Promise<number> {
    const f = this.files;
    const { path: tmp, bytes } = await writeTemp(f.snapshot, snap.chunks());
    try {
      await this.keepVersion(tmp, snap.serial);
      if (this.damagedSnapshot) {
        await fs.promises.rename(f.snapshot, `${f.snapshot}.damaged-${new Date().toISOString().replace(/[:.]/g, "-")}`);
        this.damagedSnapshot = false;
      } else if (await fs.promises.stat(f.snapshot).then(() => true, () => false)) {
        await linkOver(f.snapshot, f.backup);
      }
      await fs.promises.rename(tmp, f.snapshot);
    } catch (e) {
      await fs.promises.unlink(tmp).catch(() => {});
      throw writeError(f.snapshot, e);
    }
    await fsyncDir(f.snapshot);
    await this.pruneHistory();
    return bytes;
  }

  /** @internal Makes sure the disk reserve exists (creating it is the first write of a run). */
  async ensureReserve(): Promise<void> {
    const size = await fs.promises.stat(this.files.reserve).then((s) => s.size, () => -1);
    if (size === DISK_RESERVE_BYTES) return;
    try {
      await durableWrite(this.files.reserve, Buffer.alloc(DISK_RESERVE_BYTES));
    } catch (e) {
      if (e instanceof DiskFullError) {
        throw new DiskFullError(this.files.reserve, e.code as "ENOSPC");
      }
      throw e;
    }
  }

  /** @internal Frees the disk reserve; false if there was none. */
  async releaseReserve(): Promise<boolean> {
    return fs.promises.unlink(this.files.reserve).then(() => true, () => false);
  }

  private async keepVersion(tmp: string, serial: number): Promise<void> {
    try {
      await makeDirs(this.files.history);
      await durableCopy(tmp, versionFile(this.files, serial));
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      // History is a convenience: only a full disk (which the snapshot would hit too) stops the write.
      if (code === "ENOSPC" || code === "EDQUOT") throw e;
    }
  }

  private async pruneHistory(): Promise<void> {
    const names = await fs.promises.readdir(this.files.history).catch(() => [] as string[]);
    const versions = names.flatMap((n) => /^(\d+)\.json$/.exec(n)?.[1] ?? []).map(Number).sort((a, b) => a - b);
    for (const v of versions.slice(0, Math.max(0, versions.length - FILE_HISTORY_KEEP))) {
      await fs.promises.unlink(versionFile(this.files, v)).catch(() => {});
    }
  }

  /** The serial of `state.json`: from its first lines when they are as written, else from the whole file. */
  private async currentSerial(): Promise<number | undefined> {
    const head = await readStart(this.files.snapshot, HEAD_BYTES);
    if (head === undefined) return undefined;
    const atHead = serialAtHead(head);
    if (atHead !== undefined) return atHead;
    const text = await readIfExists(this.files.snapshot);
    if (text === undefined) return undefined;
    try {
      const serial = (JSON.parse(text) as { serial?: unknown }).serial;
      return typeof serial === "number" ? serial : undefined;
    } catch {
      return undefined;
    }
  }
}

/** Points `to` at `from`'s file (a hard link), replacing `to` atomically; copies where links are not supported. */
async function linkOver(from: string, to: string): Promise<void> {
  const tmp = `${to}.${process.pid}.link`;
  await fs.promises.unlink(tmp).catch(() => {});
  try {
    await fs.promises.link(from, tmp);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EXDEV" && code !== "EOPNOTSUPP") throw e;
    await fs.promises.copyFile(from, tmp);
  }
  await fs.promises.rename(tmp, to);
}

/**
 * The stacks that have a directory under `<stateDir>/stacks`, sorted.
 * @example await listStackDirs(".cairn") // ["dev", "prod"]
 */
export async function listStackDirs(stateDir: string): Promise<string[]> {
  const entries = await fs.promises.readdir(join(stateDir, "stacks"), { withFileTypes: true }).catch((e: NodeJS.ErrnoException) => {
    if (e.code === "ENOENT") return [];
    throw new StateReadError(join(stateDir, "stacks"), e);
  });
  return entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
}
