import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { HistoryEntry, RawConfigValue, StackExport } from "./stored.js";
import { beginLine, headLine } from "./journal-format.js";
import { LockCompromisedError, LockHeldError, StackLockedError, forcedWarning, type LockHolder, type StackLock, type UnlockResult } from "./lock-holder.js";
import { StoreBackend, type BackendOptions } from "./store-backend.js";
import { EncryptionExistsError, snapshotText, type ConfigStorage, type EncryptionStorage, type JournalPrep, type JournalStorage, type SnapshotText, type SnapshotWrite, type StoreCatalog, type StoreContext, type StoreHistory, type StoreLocker, type StoreNames, type StoreReader, type StoreTransfer, type StoreWriter } from "./store.js";

/** One stack as a memory store keeps it. */
interface MemoryStack {
  snapshot?: string;
  journal?: string;
  config: Record<string, RawConfigValue>;
  encryption?: string;
  history: Map<number, { text: string; writtenAt: string; resources: number }>;
  lock?: { holder: LockHolder; token: string };
}

/** Stacks by `project/stack`: one named memory space. */
type Space = Map<string, MemoryStack>;

// Process-wide on purpose: `memory://<name>` is documented as the space every backend of this process opened
// with that name shares (like a file:// folder two runs point at, and locked the same way); `memory://` alone
// is private to its backend, which is what side-by-side runs and tests use.
const named = new Map<string, Space>();

/**
 * State kept in this process's memory, for tests and library users: `memory://` is a fresh private
 * space, `memory://<name>` a space shared by every backend of this process opened with that name.
 * Behaves like the other stores (lock with holder, journal, history, config), and loses everything
 * when the process ends.
 *
 * @example const backend = new MemoryBackend({ space: "team", stack: "dev", project: "web" });
 */
export class MemoryStore implements StoreReader, StoreWriter, StoreLocker, StoreHistory, ConfigStorage, EncryptionStorage, StoreCatalog, StoreTransfer {
  readonly names: StoreNames;
  private readonly space: Space;

  constructor(
    private readonly ctx: StoreContext & { space?: string | undefined },
  ) {
    const name = ctx.space ?? "";
    this.space = name ? (named.get(name) ?? named.set(name, new Map()).get(name)!) : new Map();
    const at = `${this.url}/${ctx.project}/${ctx.stack}`;
    this.names = { snapshot: `${at} snapshot`, journal: `${at} journal`, config: `${at} config`, encryption: `${at} encryption`, lock: `${at} lock` };
  }

  get url(): string {
    return `memory://${this.ctx.space ?? ""}`;
  }

  private get st(): MemoryStack {
    const key = `${this.ctx.project}/${this.ctx.stack}`;
    let s = this.space.get(key);
    if (!s) this.space.set(key, (s = { config: Object.create(null) as Record<string, RawConfigValue>, history: new Map() }));
    return s;
  }

  async readSnapshot(): Promise<SnapshotText | undefined> {
    const text = this.st.snapshot;
    return text === undefined ? undefined : { text, name: this.names.snapshot };
  }

  async readJournal(): Promise<Buffer | undefined> {
    const j = this.st.journal;
    return j === undefined ? undefined : Buffer.from(j, "utf8");
  }

  openJournal(prep: JournalPrep): JournalStorage {
    const st = this.st;
    const names = this.names;
    return {
      name: names.journal,
      snapshotName: names.snapshot,
      ready: (async () => {
        await prep.after;
        if (prep.continuesSnapshot) {
          if (prep.validBytes < prep.size) st.journal = Buffer.from(st.journal ?? "").subarray(0, prep.validBytes).toString("utf8");
          return 0;
        }
        st.journal = headLine(prep.snapshotSerial) + prep.pending.map(beginLine).join("");
        return Buffer.byteLength(st.journal);
      })(),
      async append(text: string) {
        st.journal = (st.journal ?? "") + text;
        return Buffer.byteLength(text);
      },
      async replace(snap: SnapshotWrite, journal: string) {
        const text = snapshotText(snap);
        st.history.set(snap.serial, { text, writtenAt: new Date().toISOString(), resources: snap.resources });
        st.snapshot = text;
        st.journal = journal;
        return Buffer.byteLength(text) + Buffer.byteLength(journal);
      },
      async close() {},
    };
  }

  async lock(opts: { command?: string }): Promise<StackLock> {
    const st = this.st;
    if (st.lock) throw new StackLockedError(this.ctx.stack, this.names.lock, st.lock.holder, this.ctx.programHint);
    const holder: LockHolder = { pid: process.pid, host: hostname(), since: new Date().toISOString(), command: opts.command ?? "" };
    const token = randomUUID();
    st.lock = { holder, token };
    const lost = () => (st.lock?.token === token ? undefined : new LockCompromisedError(this.ctx.stack, this.names.lock, new Error("it was removed by unlock --force")));
    return {
      holder,
      notes: [],
      get compromised() {
        return lost();
      },
      assertHeld() {
        const e = lost();
        if (e) throw e;
      },
      async release() {
        if (st.lock?.token === token) delete st.lock;
      },
    };
  }

  async unlock(opts: { force: boolean }): Promise<UnlockResult> {
    const st = this.st;
    if (!st.lock) return { removed: false };
    const holder = st.lock.holder;
    // A memory lock's holder is always this process, and alive until it releases.
    const why = "is a run in this very process";
    if (!opts.force) throw new LockHeldError(this.ctx.stack, holder, why, this.ctx.programHint);
    delete st.lock;
    return { removed: true, holder, warning: forcedWarning(this.ctx.stack, holder, why) };
  }

  async readConfig(): Promise<Record<string, RawConfigValue>> {
    return Object.assign(Object.create(null) as Record<string, RawConfigValue>, this.st.config);
  }

  async updateConfig(update: (values: Record<string, RawConfigValue>) => boolean): Promise<void> {
    // No await between reading and writing: concurrent writers of this process apply one after another.
    const values = Object.assign(Object.create(null) as Record<string, RawConfigValue>, this.st.config);
    if (update(values)) this.st.config = values;
  }

  async readEncryption(): Promise<string | undefined> {
    return this.st.encryption;
  }

  async createEncryption(text: string): Promise<void> {
    if (this.st.encryption !== undefined) throw new EncryptionExistsError(this.names.encryption);
    this.st.encryption = text;
  }

  async history(): Promise<HistoryEntry[]> {
    const current = this.st.snapshot;
    return [...this.st.history.entries()]
      .sort(([a], [b]) => a - b)
      .map(([version, h]) => ({ version, writtenAt: h.writtenAt, resources: h.resources, bytes: Buffer.byteLength(h.text), current: h.text === current }));
  }

  async readVersion(version: number): Promise<string | undefined> {
    return this.st.history.get(version)?.text;
  }

  async listAllStacks(): Promise<{ project: string; stack: string }[]> {
    return [...this.space.entries()]
      .filter(([, s]) => s.snapshot !== undefined || s.journal !== undefined)
      .map(([k]) => ({ project: k.slice(0, k.indexOf("/")), stack: k.slice(k.indexOf("/") + 1) }));
  }

  async listStacks(): Promise<string[]> {
    const prefix = `${this.ctx.project}/`;
    return [...this.space.entries()]
      .filter(([k, s]) => k.startsWith(prefix) && (s.snapshot !== undefined || s.journal !== undefined || Object.keys(s.config).length > 0))
      .map(([k]) => k.slice(prefix.length))
      .sort();
  }

  async isEmpty(): Promise<boolean> {
    const s = this.st;
    return s.snapshot === undefined && s.journal === undefined && s.encryption === undefined && Object.keys(s.config).length === 0 && s.history.size === 0;
  }

  async importRaw(data: StackExport): Promise<void> {
    const s = this.st;
    if (data.encryption !== undefined) s.encryption = data.encryption;
    s.config = Object.assign(Object.create(null) as Record<string, RawConfigValue>, data.config);
    for (const h of data.history) {
      const resources = Object.keys((JSON.parse(h.text) as { resources?: object }).resources ?? {}).length;
      s.history.set(h.version, { text: h.text, writtenAt: h.writtenAt ?? new Date().toISOString(), resources });
    }
    if (data.snapshot !== undefined) s.snapshot = data.snapshot;
    if (data.journal !== undefined) s.journal = data.journal;
  }

  async lockHolder(): Promise<LockHolder | undefined> {
    return this.st.lock?.holder;
  }

  async removeAll(): Promise<void> {
    const s = this.st;
    delete s.snapshot;
    delete s.journal;
    delete s.encryption;
    s.config = Object.create(null) as Record<string, RawConfigValue>;
    s.history.clear();
  }

  async close(): Promise<void> {}
}

/** Options of a {@link MemoryBackend}. */
export interface MemoryBackendOptions extends BackendOptions {
  /** Name of a memory space shared by backends of this process; omitted: a fresh private one. */
  space?: string;
}

/**
 * A {@link StateBackend} in memory (see `MemoryStore`); `prog.stack({ backend: "memory://" })`.
 *
 * @example
 * const backend = new MemoryBackend({ stack: "test", project: "web" });
 * const stack = prog.stack({ stack: "test", backend });
 */
export class MemoryBackend extends StoreBackend {
  constructor(opts: MemoryBackendOptions) {
    super(new MemoryStore(opts), opts);
  }
}
