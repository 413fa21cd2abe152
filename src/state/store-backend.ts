import type {
  HistoryEntry, LoadResult, OutputReader, RemoveStackOptions, RollbackResult, StackCatalog, StackExport, StackSummary, StackTransfer,
  StateConfig, StateHistory, StateLocker, StateReader, StateWriter, StoredOutputs,
} from "./backend.js";
import { ConfigStore, type ConfigValue } from "./config-store.js";
import { Journal, type JournalOptions } from "./journal.js";
import { beginLine, headLine } from "./journal-format.js";
import type { StackLock, UnlockResult } from "./lock-holder.js";
import { applyMutations } from "./mutations.js";
import { normalizedJournal, scanJournal, type JournalScan } from "./replay.js";
import { decodeMutation, decodeState } from "./secret-encoding.js";
import { DecryptError } from "./secrets.js";
import { parseSnapshot, parseSnapshotLines, snapshotChunks, snapshotHead, snapshotRecordCount, SnapshotError } from "./snapshot.js";
import type { RecordLines } from "./record-lines.js";
import { DamagedStateError, planRecovery, type RecoveryPlan, type RecoveryResult } from "./recover.js";
import { validateStackName } from "./stack-name.js";
import { StackSecrets } from "./stack-secrets.js";
import type { SnapshotText, StateStore } from "./store.js";
import { SpillConflictError, SpillFile, spillPath } from "./spill.js";
import { SpilledJournalStorage, type RemoteJournalStorage } from "./spilled-journal.js";
import { homedir } from "node:os";
import { join } from "node:path";
import { emptyState, type PendingOperation, type StackState } from "./types.js";
import { checkJournalOwner } from "./journal-owner.js";
import { UserError } from "../core/diagnostic.js";

/** What every backend is opened with. */
export interface BackendOptions {
  stack: string;
  project: string;
  /** Passphrase for secrets; the CLI passes `process.env.CAIRN_PASSPHRASE`. Empty counts as none. */
  passphrase?: string | undefined;
  /** How users run the program (`npx tsx infra.ts`, `node infra.ts`), for hints such as how to unlock. Default `npx tsx infra.ts`. */
  programHint?: string | undefined;
  /**
   * Use the previous version when the current snapshot is damaged (`--from-backup`). Without it a damaged
   * snapshot is refused, naming `state recover`.
   */
  fromBackup?: boolean | undefined;
  /**
   * Where a network backend keeps journal records it has not acknowledged yet. The CLI and `Stack` pass
   * `<state dir>/spill` (`.cairn/spill` beside the program); default `~/.cairn/spill`.
   */
  spillDir?: string | undefined;
}

/** The snapshot as read, still encoded, and how it was found. */
interface SnapshotFound {
  state: StackState | undefined;
  /** Where its records sit in the file it was read from (see `recordLines`). */
  lines?: RecordLines;
  /** The text it was parsed from (kept as it is by exports). */
  text?: string;
  name: string;
  fromBackup: boolean;
  notes: string[];
}

/** What load learned, reused by openJournal so nothing is read twice. */
interface Scan {
  /** The journal that was open (and might still write) when this scan was made. */
  madeWhileOpen: Journal | undefined;
  scan: JournalScan;
}

/**
 * A `StateBackend` (every role of one) on top of a {@link StateStore}: replay, group-committed journaling,
 * secrets, configuration rules, history and rollback are the same for files, PostgreSQL, S3 and memory.
 *
 * @example const backend = new StoreBackend(new MemoryStore(ctx), { stack: "dev", project: "web" });
 */
export class StoreBackend implements StateReader, StateWriter, OutputReader, StateLocker, StateHistory, StateConfig, StackCatalog, StackTransfer {
  protected readonly store: StateStore;
  private readonly opts: BackendOptions;
  private secretsP: Promise<StackSecrets> | undefined;
  private secretsLoaded: StackSecrets | undefined;
  private scanned: Scan | undefined;
  /** The lines of the snapshot the last load read, for the journal opened next to copy unchanged records from. */
  private loadedLines: RecordLines | undefined;
  private heldLock: StackLock | undefined;
  private journal: Journal | undefined;
  /** Where journal records wait until a network store acknowledges them (none for local stores). */
  private readonly spill: SpillFile | undefined;

  constructor(store: StateStore, opts: BackendOptions) {
    validateStackName(opts.stack);
    if (!opts.project) throw new Error(`a project name is required to open the state of stack ${opts.stack}`);
    this.store = store;
    this.opts = opts;
    if (store.replayAt) this.spill = new SpillFile(spillPath(opts.spillDir ?? join(homedir(), ".cairn", "spill"), store.url, opts.project, opts.stack));
  }

  /** The stack this backend was opened for. */
  get stack(): string {
    return this.opts.stack;
  }

  /** The project (program name) this backend was opened for. */
  get project(): string {
    return this.opts.project;
  }

  get url(): string {
    return this.store.url;
  }

  /**
   * Reads the snapshot (none yet: an empty state) and replays the journal on top of it. A damaged
   * snapshot is replaced by the previous version where the store keeps one, with a note.
   *
   * @example
   * const { state, pending, notes } = await backend.load();
   * for (const p of pending) console.warn(`${p.kind} of ${p.urn} was interrupted`);
   */
  async load(): Promise<LoadResult> {
    const replayed = await this.replaySpill();
    const secrets = await this.secrets();
    const crypter = secrets.crypter;
    const madeWhileOpen = this.journal && !this.journal.closed ? this.journal : undefined;
    const found = await this.findSnapshot();
    const state = found.state ? decoded(found.name, () => decodeState(found.state!, crypter)) : emptyState(this.opts.project, this.opts.stack);
    const scan = await this.scanJournalOf(found);
    state.serial = scan.baseSerial;
    for (const { line, m: recorded } of scan.replay) {
      const where = `${this.store.names.journal} line ${line}`;
      applyMutations(state, decoded(where, () => recorded.map((m) => decodeMutation(m, crypter))));
    }
    this.secretsLoaded = secrets;
    this.scanned = { madeWhileOpen, scan };
    this.loadedLines = found.lines;
    return { state, pending: [...scan.prep.pending], notes: [...replayed, ...found.notes, ...scan.notes] };
  }

  /**
   * Writes the journal records an earlier run kept locally (the backend was unreachable) into the backend,
   * before anything reads the state: only while holding the lock (else it says they wait). Returns notes.
   */
  private async replaySpill(): Promise<string[]> {
    const entries = this.spill?.read() ?? [];
    if (!entries.length || (this.journal && !this.journal.closed)) return [];
    const records = entries.reduce((n, e) => n + e.text.split("\n").filter(Boolean).length, 0);
    if (!this.heldLock) return [`${records} journal record(s) of an earlier run wait in ${this.spill!.file}: the backend was unreachable then; the next run that takes the lock (up, preview) writes them into ${this.url}`];
    try {
      for (const e of entries) await this.store.replayAt!(e.base, e.at, e.text);
    } catch (e) {
      if (!(e instanceof SpillConflictError)) throw e;
      throw new UserError(
        `${this.spill!.file} holds ${records} journal record(s) an earlier run kept because ${this.url} was unreachable, but they no longer fit there: ${e.reason}. ` +
          `Nothing was changed, and the file was left as it is. Another run changed the stack meanwhile, and the objects those records describe may be unknown to it: ` +
          `move the file aside to go on, then run refresh, and adopt any object left behind with \`state import\``,
      );
    }
    this.spill!.clear();
    return [`wrote ${records} journal record(s) kept in ${this.spill!.file} into ${this.url}: an earlier run could not reach it to record them`];
  }

  /**
   * Opens the journal for a run, continuing the one `load` read (a torn last record is cut off first;
   * an interrupted compaction's journal is replaced by a fresh one keeping its pending operations).
   * The journal's state starts as `state`; the caller's object is not modified. Call after
   * {@link StoreBackend.load}, while holding the lock.
   *
   * Opening a journal while another journal of this backend is open closes that one: the new one
   * continues its records, pending operations and op numbers, writing after the old one has finished.
   *
   * @example const journal = backend.openJournal((await backend.load()).state);
   */
  openJournal(state: StackState, options?: JournalOptions): Journal {
    const prev = this.journal;
    const scanned = this.scanned;
    const secrets = this.secretsLoaded;
    if (!secrets) throw new Error(`call load() before openJournal() for stack ${this.stack}`);
    let init: { pending: readonly PendingOperation[]; nextOp: number; baseSerial: number; storage: ReturnType<StateStore["openJournal"]> };
    if (prev && !prev.failure && (!scanned || scanned.madeWhileOpen === prev)) {
      // The previous journal may still write after any load made while it was open: continue from it,
      // once it has finished writing.
      const after = prev.close().catch(() => {});
      const prep = { snapshotSerial: prev.baseSerial, continuesSnapshot: true, validBytes: 0, size: 0, pending: prev.pending, after };
      init = { pending: prev.pending, nextOp: prev.nextOpNumber, baseSerial: prev.baseSerial, storage: this.store.openJournal(prep) };
    } else {
      if (!scanned) {
        throw new Error(`the previous journal of stack ${this.stack} failed (${prev?.failure?.message}): call load() again before openJournal()`);
      }
      const { prep, nextOp } = scanned.scan;
      init = { pending: prep.pending, nextOp, baseSerial: prep.snapshotSerial, storage: this.store.openJournal(prep) };
    }
    this.scanned = undefined; // the journal is about to change: the next open must not trust this scan
    const lines = this.loadedLines;
    this.loadedLines = undefined;
    const storage = this.spill ? new SpilledJournalStorage(init.storage as RemoteJournalStorage, this.spill) : init.storage;
    this.journal = new Journal({
      ...init,
      storage,
      state,
      secrets,
      guard: () => this.heldLock?.assertHeld(),
      verify: async () => this.heldLock?.verify?.(),
      ...(options ? { options } : {}),
      ...(lines ? { lines } : {}),
    });
    return this.journal;
  }

  /**
   * Writes `state` as the new snapshot (serial + 1) and starts a fresh journal keeping only pending
   * operations. Uses the open journal if there is one. Resolves with the state written; `load()`
   * returns exactly it afterwards.
   *
   * @example const saved = await backend.compact(journal.state);
   */
  async compact(state: StackState): Promise<StackState> {
    if (this.journal && !this.journal.closed) return this.journal.compact(state);
    if (!this.secretsLoaded) await this.load();
    const journal = this.openJournal(state, { flushDelayMs: -1 });
    try {
      return await journal.compact(state);
    } finally {
      await journal.close();
    }
  }

  /**
   * Takes the stack lock; `command` says what the run does (`"up"`). Journals of this backend refuse
   * to write if the lock is lost, and releasing it first closes the open journal (writing what it
   * still buffers).
   *
   * @example
   * const lock = await backend.lock("up");
   * try { ... } finally { await lock.release(); }
   */
  async lock(command?: string | { command?: string }): Promise<StackLock> {
    const cmd = typeof command === "string" ? command : command?.command;
    const lock = await this.store.lock(cmd !== undefined ? { command: cmd } : {});
    this.heldLock = lock;
    const release = lock.release.bind(lock);
    return Object.assign(lock, {
      release: async () => {
        try {
          // Nothing may be written once the lock is gone; a record that fails here is found as pending next run.
          if (this.journal && !this.journal.closed) await this.journal.close().catch(() => {});
        } finally {
          if (this.heldLock === lock) this.heldLock = undefined;
          await release();
        }
      },
    });
  }

  /**
   * Removes the stack lock if its holder is gone; while it may be alive, throws (naming it) unless
   * `force`, which removes it anyway and returns a warning naming the holder and its age.
   * @example const { removed, holder, warning } = await backend.forceUnlock({ force: true });
   */
  forceUnlock(opts: { force?: boolean } = {}): Promise<UnlockResult> {
    return this.store.unlock({ force: opts.force ?? false });
  }

  /**
   * Throws now, with the "set CAIRN_PASSPHRASE" message, if secrets will be written and there is no
   * passphrase, or it is not the stack's — so a run fails before it changes anything rather than half-way.
   * @example if (plan.hasSecrets) await backend.requirePassphrase();
   */
  async requirePassphrase(): Promise<void> {
    (await this.secrets()).requirePassphrase();
  }

  /**
   * The stack configuration, secrets decrypted.
   * @example (await backend.readConfig()).region?.value // "eu-west-1"
   */
  async readConfig(): Promise<Record<string, ConfigValue>> {
    return (await this.config()).read();
  }

  /**
   * Sets a configuration value; `{ secret: true }` encrypts it (needs the passphrase). Concurrent
   * writers never lose each other's keys; reserved keys (`__proto__`, ...) are refused.
   * @example await backend.setConfig("dbPassword", "hunter2", { secret: true });
   */
  async setConfig(key: string, value: string, opts: { secret?: boolean } = {}): Promise<void> {
    await (await this.config()).set(key, value, opts);
  }

  /**
   * Removes a configuration value; resolves to whether it existed.
   * @example await backend.removeConfig("dbPassword") // true
   */
  async removeConfig(key: string): Promise<boolean> {
    return (await this.config()).remove(key);
  }

  /** The project's stacks in this backend, sorted. @example await backend.listStacks() // ["dev", "prod"] */
  listStacks(): Promise<string[]> {
    return this.store.listStacks();
  }

  /** Every stack of every project in this backend. @example await backend.listAllStacks() // [{ project: "network", stack: "prod" }] */
  async listAllStacks(): Promise<{ project: string; stack: string }[]> {
    if (this.store.listAllStacks) return this.store.listAllStacks();
    return (await this.store.listStacks()).map((stack) => ({ project: this.project, stack }));
  }

  /**
   * The stack outputs as last committed (the snapshot's, then the journal's finished records), secrets
   * decrypted, read without the lock and without the resources: a snapshot as written is parsed up to its
   * resources only (see `snapshotHead`); one edited by hand or damaged is read whole, as `load` reads it.
   *
   * @example const { exists, outputs } = await backend.readOutputs();
   */
  async readOutputs(): Promise<StoredOutputs> {
    const exists = !(await this.store.isEmpty());
    const crypter = (await this.secrets()).crypter;
    const snap = await this.store.readSnapshot();
    const found = this.headOnly(snap) ?? (await this.findSnapshot({ snap }));
    const scan = await this.scanJournalOf(found);
    const state = found.state ? decoded(found.name, () => decodeState(found.state!, crypter)) : emptyState(this.opts.project, this.opts.stack);
    for (const { line, m: recorded } of scan.replay) {
      const outputs = recorded.filter((m) => m.kind === "outputs");
      if (outputs.length) applyMutations(state, decoded(`${this.store.names.journal} line ${line}`, () => outputs.map((m) => decodeMutation(m, crypter))));
    }
    return { exists, project: state.project, outputs: state.outputs, secretOutputs: state.secretOutputs ?? [] };
  }

  /** The state as stored (journal replayed, secrets still encrypted), without a lock. @example (await backend.readStored()).resources */
  async readStored(): Promise<StackState> {
    const found = await this.findSnapshot();
    const scan = await this.scanJournalOf(found);
    const state = found.state ?? emptyState(this.opts.project, this.opts.stack);
    for (const { m } of scan.replay) applyMutations(state, m);
    state.serial = scan.baseSerial;
    return state;
  }

  /** The stored versions, oldest first. @example (await backend.history()).at(-1)?.current // true */
  history(): Promise<HistoryEntry[]> {
    return this.store.history();
  }

  /**
   * Makes stored version `version` current again, as a new version (so the rollback itself can be
   * rolled back). Takes the lock (so it refuses while a run holds it) and refuses while operations of a
   * crashed run are not settled yet. Needs no passphrase: secrets are copied as stored.
   *
   * @example const { version } = await backend.rollback(12);
   */
  async rollback(version: number): Promise<RollbackResult> {
    const lock = await this.lock("state rollback");
    try {
      const found = await this.findSnapshot();
      const scan = await this.scanJournalOf(found);
      if (scan.prep.pending.length) {
        throw new UserError(
          `stack ${this.stack} has ${scan.prep.pending.length} interrupted operation(s) (e.g. ${scan.prep.pending[0]!.kind} of ${scan.prep.pending[0]!.urn}): ` +
            `run preview first so they are settled (each object read back), then roll back`,
        );
      }
      const text = await this.store.readVersion(version);
      if (text === undefined) {
        throw new UserError(`stack ${this.stack} has no stored version ${version} in ${this.url}: \`state history\` lists the versions kept`);
      }
      const old = parseSnapshot(text, `version ${version} of stack ${this.stack}`, this.opts);
      const serial = scan.serial + 1;
      const resources = Object.keys(old.resources).length;
      const storage = this.store.openJournal(scan.prep);
      try {
        await storage.ready;
        await storage.replace({ chunks: () => snapshotChunks({ ...old, serial }), serial, resources }, headLine(serial));
      } finally {
        await storage.close();
      }
      return { from: version, version: serial, resources };
    } finally {
      await lock.release();
    }
  }

  /**
   * Rebuilds the newest state the stored parts still hold when the snapshot is damaged or behind its
   * journal (the readable version the journal continues, with the journal replayed on it), under the lock. `confirm` sees what would be written first; nothing
   * is written unless it agrees. The damaged file is kept aside (files), never deleted. Needs no passphrase.
   *
   * @example const r = await backend.recover({ confirm: async (plan) => (show(plan), ask()) });
   */
  async recover(opts: { confirm?: (plan: RecoveryPlan) => Promise<boolean> } = {}): Promise<RecoveryResult> {
    const lock = await this.lock("state recover");
    try {
      const plan = await planRecovery(this.store, this.opts);
      if (!plan) return { needed: false, applied: false };
      if (opts.confirm && !(await opts.confirm(plan))) return { needed: true, applied: false, plan };
      lock.assertHeld();
      await this.writeRecovered(plan);
      this.scanned = undefined;
      return { needed: true, applied: true, plan };
    } finally {
      await lock.release();
    }
  }

  /** Installs a recovered state as a new version, with a fresh journal holding its unfinished operations. */
  private async writeRecovered(plan: RecoveryPlan): Promise<void> {
    const snap = await this.store.readSnapshot(); // S3: the ETag the write is conditional on
    if (snap && plan.damaged.some((d) => d.startsWith(snap.name))) snap.damaged?.();
    if (plan.damaged.some((d) => d.startsWith(this.store.names.journal))) await this.store.keepDamagedJournal?.();
    const prep = { snapshotSerial: plan.journalSerial ?? plan.serial - 1, continuesSnapshot: true, validBytes: 0, size: 0, pending: plan.pending };
    const storage = this.store.openJournal(prep);
    try {
      await storage.ready;
      const resources = plan.resources.length;
      await storage.replace({ chunks: () => snapshotChunks(plan.state), serial: plan.serial, resources }, headLine(plan.serial) + plan.pending.map(beginLine).join(""));
    } finally {
      await storage.close();
    }
  }

  /**
   * The stack as stored, secrets still encrypted (call while holding the lock).
   * @example const data = await source.exportStack(); await target.importStack(data);
   */
  async exportStack(): Promise<StackExport> {
    const found = await this.findSnapshot();
    const bytes = await this.store.readJournal();
    const scan = await this.scanJournalOf(found, bytes);
    const out: StackExport = { project: this.project, stack: this.stack, config: { ...(await this.store.readConfig()) }, history: [] };
    if (found.text !== undefined) out.snapshot = found.text;
    const journal = normalizedJournal(bytes, scan.prep);
    if (journal !== undefined) out.journal = journal;
    const encryption = await this.store.readEncryption();
    if (encryption !== undefined) out.encryption = encryption;
    for (const h of await this.store.history()) {
      if (found.state && h.version > found.state.serial) continue; // left by a write that never became current
      const text = await this.store.readVersion(h.version);
      if (text !== undefined) out.history.push({ version: h.version, text, ...(h.writtenAt ? { writtenAt: h.writtenAt } : {}) });
    }
    return out;
  }

  /**
   * Writes an exported stack into this backend (call while holding the lock); refuses if the backend
   * already holds anything of the stack.
   * @example await target.importStack(await source.exportStack());
   */
  async importStack(data: StackExport): Promise<void> {
    if (data.project !== this.project || data.stack !== this.stack) {
      throw new UserError(`cannot import stack ${data.project}/${data.stack} as ${this.project}/${this.stack}: the names must match`);
    }
    if (!(await this.store.isEmpty())) {
      throw new UserError(`${this.url} already holds state for stack ${this.stack} of project ${this.project}: nothing was copied. Remove it there first, or migrate to another place`);
    }
    await this.store.importRaw(data);
    this.secretsP = undefined; // the stack's salt may just have arrived
  }

  /**
   * The stack at a glance, from the stored (still encrypted) snapshot and journal: needs no passphrase.
   * @example const { resources, lockHolder } = await backend.summary();
   */
  async summary(): Promise<StackSummary> {
    const { resources, pending } = await this.counted();
    const history = await this.store.history();
    const lastUpdate = (history.find((h) => h.current) ?? history.at(-1))?.writtenAt;
    const lockHolder = await this.store.lockHolder();
    return {
      stack: this.stack,
      exists: !(await this.store.isEmpty()),
      resources,
      pending,
      ...(lastUpdate ? { lastUpdate } : {}),
      ...(lockHolder ? { lockHolder } : {}),
    };
  }

  /**
   * How many resources the stack holds, and operations it has pending. A snapshot as written whose journal
   * changed no resource since is counted by its lines (see `snapshotRecordCount`), so `stack ls` need not
   * read and parse every stack whole.
   */
  private async counted(): Promise<{ resources: number; pending: number }> {
    const snap = await this.store.readSnapshot();
    const head = this.headOnly(snap);
    if (head) {
      const scan = await this.scanJournalOf(head);
      if (scan.replay.every(({ m }) => m.every((x) => x.kind === "outputs"))) return { resources: snapshotRecordCount(snap!.text), pending: scan.prep.pending.length };
    }
    const found = await this.findSnapshot({ snap });
    const scan = await this.scanJournalOf(found);
    const state = found.state ?? emptyState(this.opts.project, this.opts.stack);
    // Only the set of URNs matters here, so the records are replayed as stored (secrets stay encrypted).
    for (const { m } of scan.replay) applyMutations(state, m);
    return { resources: Object.keys(state.resources).length, pending: scan.prep.pending.length };
  }

  /**
   * Deletes the whole stack under its lock, once `decide` agreed and `keep` received a copy of it.
   * @example await backend.removeStack({ decide: async (s) => s.resources === 0, keep: (data) => writeFile("dev.json", JSON.stringify(data)) });
   */
  async removeStack(opts: RemoveStackOptions): Promise<boolean> {
    const lock = await this.lock("stack rm");
    let empty = false;
    try {
      const { lockHolder: _self, ...found } = await this.summary();
      empty = !found.exists;
      if (!(await opts.decide(found))) return false;
      await opts.keep?.(await this.exportStack());
      lock.assertHeld();
      await lock.verify?.();
      await this.store.removeAll();
      empty = true;
      this.secretsP = undefined;
      this.secretsLoaded = undefined;
      this.scanned = undefined;
      return true;
    } finally {
      await lock.release();
      // Taking the lock of a stack that did not exist (or no longer does) left a folder to tidy.
      if (empty) await this.store.removeLeftovers?.();
    }
  }

  /** Ends the store's connections (it reconnects if used again). @example await backend.close(); */
  close(): Promise<void> {
    return this.store.close();
  }

  /** The snapshot, parsed whole (`read`: the text already read from the store, so it is not read twice). */
  private async findSnapshot(read?: { snap: SnapshotText | undefined }): Promise<SnapshotFound> {
    const snap = read ? read.snap : await this.store.readSnapshot();
    if (!snap) return { state: undefined, name: this.store.names.snapshot, fromBackup: false, notes: [] };
    try {
      const { state, lines } = parseSnapshotLines(snap.text, snap.name, this.opts, snap.file);
      return { state, ...(lines ? { lines } : {}), text: snap.text, name: snap.name, fromBackup: false, notes: [] };
    } catch (e) {
      if (!(e instanceof SnapshotError) || !e.damaged) throw e;
      // Never guess: the previous version is used only when the user asked for it.
      if (!this.opts.fromBackup) throw new DamagedStateError(e.file, e.problem, this.opts);
      const bak = await this.previousVersion(snap);
      if (!bak) throw new SnapshotError(snap.name, `${e.problem}, and there is no readable previous version to use instead: run \`state recover\``, true);
      snap.damaged?.();
      const note = `${snap.name} is unreadable (${e.problem.split(":")[0]}): loaded the previous version (serial ${bak.state.serial}) from ${bak.name} instead, as --from-backup asked; the damaged file is kept aside when the next version is written`;
      return { state: bak.state, text: bak.text, name: bak.name, fromBackup: true, notes: [note] };
    }
  }

  /** The version before a damaged snapshot: the store's backup (`state.json.bak`), else the newest readable stored version. */
  private async previousVersion(snap: SnapshotText): Promise<{ state: StackState; text: string; name: string } | undefined> {
    const bak = await snap.backup?.();
    if (bak) return { ...bak, state: parseSnapshot(bak.text, bak.name, this.opts) };
    for (const h of (await this.store.history()).reverse()) {
      const text = await this.store.readVersion(h.version);
      if (text === undefined) continue;
      try {
        return { text, name: `version ${h.version}`, state: parseSnapshot(text, `version ${h.version}`, this.opts) };
      } catch (e) {
        if (!(e instanceof SnapshotError) || !e.damaged) throw e;
      }
    }
    return undefined;
  }

  /** A snapshot as written, found with its head alone (no resources; see `snapshotHead`); else undefined. */
  private headOnly(snap: SnapshotText | undefined): SnapshotFound | undefined {
    const head = snap && snapshotHead(snap.text, this.opts);
    return head ? { state: { ...head, resources: {} }, name: snap!.name, fromBackup: false, notes: [] } : undefined;
  }

  private async scanJournalOf(found: SnapshotFound, read?: Buffer): Promise<JournalScan> {
    const bytes = read ?? (await this.store.readJournal());
    try {
      const scan = scanJournal(bytes, this.store.names.journal, found.state?.serial ?? 0, { name: found.name, existed: !!found.state, fromBackup: found.fromBackup });
      checkJournalOwner(scan.prep.pending, this.store.names.journal, this.opts);
      return scan;
    } catch (e) {
      if (e instanceof SnapshotError && e.damaged) throw new DamagedStateError(e.file, e.problem, this.opts);
      throw e;
    }
  }

  private async config(): Promise<ConfigStore> {
    return new ConfigStore(this.store, this.store.names.config, await this.secrets());
  }

  // Opened once per backend, so the slow key derivation happens at most once per stack load.
  private secrets(): Promise<StackSecrets> {
    this.secretsP ??= StackSecrets.open({ stack: this.stack, where: this.store.names.encryption, storage: this.store, passphrase: this.opts.passphrase });
    return this.secretsP;
  }
}

/** Runs a decode, naming where a stored secret turned out damaged. */
function decoded<T>(where: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof DecryptError) throw new DecryptError(`${where}: ${e.message}`);
    throw e;
  }
}
