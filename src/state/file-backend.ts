import { mkdir, open, readFile, readdir, truncate } from "node:fs/promises";
import { join } from "node:path";
import { ConfigStore, type ConfigValue } from "./config-store.js";
import { readIfExists } from "./fs-util.js";
import { Journal, type JournalOptions } from "./journal.js";
import { beginLine, headLine, parseJournal } from "./journal-format.js";
import { forceUnlock, lockStack, type LockHolder, type StackLock } from "./lock.js";
import { applyMutations, workingCopy } from "./mutations.js";
import { decodeMutation, decodeState } from "./secret-encoding.js";
import { DecryptError, type Crypter } from "./secrets.js";
import { parseSnapshot } from "./snapshot.js";
import { replaceFile, stackFiles, type StackFiles } from "./stack-files.js";
import { validateStackName } from "./stack-name.js";
import { StackSecrets } from "./stack-secrets.js";
import { emptyState, type PendingOperation, type StackState, type StateMutation } from "./types.js";

/** Options of a {@link FileBackend}. */
export interface FileBackendOptions {
  /** Root of all state, e.g. `.cairn`; the stack lives in `<stateDir>/stacks/<stack>/`. */
  stateDir: string;
  stack: string;
  project: string;
  /** Passphrase for secrets; the CLI passes `process.env.CAIRN_PASSPHRASE`. Empty counts as none. */
  passphrase?: string | undefined;
  /** The program file named in hints such as how to unlock. Default `infra.ts`. */
  programHint?: string | undefined;
}

/** What {@link FileBackend.load} found. */
export interface LoadResult {
  /** The snapshot with the journal replayed on top (secrets in plain text). */
  state: StackState;
  /** Operations journaled as begun but never finished: the run doing them died during the provider call. */
  pending: PendingOperation[];
  /** Things worth telling the user (e.g. a torn last journal record was ignored). */
  notes: string[];
}

/** What load learned about the files, reused by openJournal so they are not read twice. */
interface Scan {
  /** The journal that was open (and might still write) when this scan was made. */
  madeWhileOpen: Journal | undefined;
  snapshotSerial: number;
  journal: { size: number; validBytes: number; continuesSnapshot: boolean };
  pending: PendingOperation[];
  nextOp: number;
}

/**
 * State of one stack in local files:
 *
 * ```text
 * <stateDir>/stacks/<stack>/state.json       snapshot (written atomically by compaction)
 *                           journal.ndjson   changes since the snapshot (group-committed)
 *                           lock, lock.json  the stack lock and its holder
 *                           lock.guard       held for milliseconds while the lock changes hands
 *                           encryption.json  salt and check value of the secrets
 *                           config.json      stack configuration
 * ```
 *
 * A file that cannot be read safely (damaged, or from a newer Cairn) makes `load` throw an error
 * naming it, and is never overwritten or deleted.
 *
 * @example
 * const backend = new FileBackend({ stateDir: ".cairn", stack: "dev", project: "hello", passphrase: process.env.CAIRN_PASSPHRASE });
 * const lock = await backend.lock("up");
 * try {
 *   const { state, pending, notes } = await backend.load();
 *   const journal = backend.openJournal(state);
 *   // ... journal.begin / end ...
 *   await journal.compact();
 *   await journal.close();
 * } finally {
 *   await lock.release();
 * }
 */
export class FileBackend {
  /** Paths of this stack's files. */
  readonly files: StackFiles;
  private readonly opts: FileBackendOptions;
  private secretsP: Promise<StackSecrets> | undefined;
  private secretsLoaded: StackSecrets | undefined;
  private scan: Scan | undefined;
  private heldLock: StackLock | undefined;
  private journal: Journal | undefined;

  constructor(opts: FileBackendOptions) {
    validateStackName(opts.stack);
    if (!opts.project) throw new Error(`a project name is required to open the state of stack ${opts.stack}`);
    this.opts = opts;
    this.files = stackFiles(opts.stateDir, opts.stack);
  }

  /** The stack name. */
  get stack(): string {
    return this.opts.stack;
  }

  /**
   * Reads the snapshot (none yet: an empty state) and replays the journal on top of it.
   *
   * @example
   * const { state, pending, notes } = await backend.load();
   * for (const p of pending) console.warn(`${p.kind} of ${p.urn} was interrupted`);
   */
  async load(): Promise<LoadResult> {
    const { snapshot: snapFile, journal: journalFile } = this.files;
    const secrets = await this.secrets();
    const crypter = secrets.crypter;
    const madeWhileOpen = this.journal && !this.journal.closed ? this.journal : undefined;
    const notes: string[] = [];

    const snapText = await readIfExists(snapFile);
    const state =
      snapText === undefined
        ? emptyState(this.opts.project, this.opts.stack)
        : decoded(snapFile, () => decodeState(parseSnapshot(snapText, snapFile, this.opts), crypter));
    const snapshotSerial = state.serial;

    const bytes = await readFile(journalFile).catch((e: NodeJS.ErrnoException) => {
      if (e.code === "ENOENT") return undefined;
      throw e;
    });
    const open = new Map<number, PendingOperation>();
    let maxOp = 0;
    let continuesSnapshot = false;
    let validBytes = 0;
    if (bytes) {
      const j = parseJournal(bytes, journalFile);
      validBytes = j.validBytes;
      if (j.tornNote) notes.push(j.tornNote);
      if (j.head) {
        if (j.head.serial > snapshotSerial) {
          throw new Error(
            `${journalFile} continues snapshot serial ${j.head.serial}, but ${snapText === undefined ? `${snapFile} is missing` : `${snapFile} has serial ${snapshotSerial}`}: ` +
              `the snapshot was deleted or replaced by an older copy. Both files were left untouched: put back the matching state.json, ` +
              `or move journal.ndjson aside to continue from this snapshot (the journal's changes will be forgotten).`,
          );
        }
        continuesSnapshot = j.head.serial === snapshotSerial;
        // An older journal is one whose compaction was interrupted after the snapshot was written:
        // its changes are in the snapshot already, but its pending operations are still unresolved.
        if (!continuesSnapshot) notes.push(`${journalFile} predates ${snapFile} (an interrupted compaction): only its pending operations were used`);
        let line = 1;
        for (const rec of j.records) {
          line++;
          if (rec.t === "begin") {
            const p: PendingOperation = { op: rec.op, kind: rec.kind, urn: rec.urn, type: rec.type, since: rec.since };
            if (rec.id !== undefined) p.id = rec.id;
            open.set(rec.op, p);
          } else if (rec.t === "end" || rec.t === "abort") {
            open.delete(rec.op);
          }
          if (rec.t !== "mutate") maxOp = Math.max(maxOp, rec.op);
          if (continuesSnapshot && rec.t !== "begin" && rec.m?.length) {
            applyMutations(state, decodedMutations(`${journalFile} line ${line}`, rec.m, crypter));
          }
        }
      }
    }
    const pending = [...open.values()];
    this.secretsLoaded = secrets;
    this.scan = { madeWhileOpen, snapshotSerial, journal: { size: bytes?.length ?? 0, validBytes, continuesSnapshot }, pending, nextOp: maxOp + 1 };
    return { state, pending: [...pending], notes };
  }

  /**
   * Opens the journal for a run, continuing the file `load` read (a torn last record is cut off
   * first; an interrupted compaction's journal is replaced by a fresh one keeping its pending
   * operations). The journal's state starts as `state`; the caller's object is not modified.
   * Call after {@link FileBackend.load}, while holding the lock.
   *
   * Opening a journal while another journal of this backend is open closes that one: the new one
   * continues its file, pending operations and op numbers, writing after the old one has finished.
   *
   * @example const journal = backend.openJournal((await backend.load()).state);
   */
  openJournal(state: StackState, options?: JournalOptions): Journal {
    const prev = this.journal;
    const scan = this.scan;
    const secrets = this.secretsLoaded;
    if (!secrets) throw new Error(`call load() before openJournal() for stack ${this.stack}`);
    let pending: readonly PendingOperation[];
    let nextOp: number;
    let prepare: () => Promise<number>;
    if (prev && !prev.failure && (!scan || scan.madeWhileOpen === prev)) {
      // The previous journal may still write after any load made while it was open: continue from it.
      pending = prev.pending;
      nextOp = prev.nextOpNumber;
      const closed = prev.close();
      prepare = async () => {
        await closed;
        return 0;
      };
    } else {
      if (!scan) {
        throw new Error(`the previous journal of stack ${this.stack} failed (${prev?.failure?.message}): call load() again before openJournal()`);
      }
      pending = scan.pending;
      nextOp = scan.nextOp;
      prepare = async () => {
        await mkdir(this.files.dir, { recursive: true });
        if (!scan.journal.continuesSnapshot) {
          return replaceFile(this.files.journal, headLine(scan.snapshotSerial) + scan.pending.map(beginLine).join(""));
        }
        // Appending after a torn record would glue the next record onto it: cut the torn part off.
        if (scan.journal.validBytes < scan.journal.size) await truncate(this.files.journal, scan.journal.validBytes);
        return 0;
      };
    }
    this.scan = undefined; // the journal is about to change: the next open must not trust this scan
    const ready = prepare().then(async (bytes) => ({ fh: await open(this.files.journal, "a"), bytes }));
    this.journal = new Journal({
      files: this.files,
      ready,
      state: workingCopy(state),
      pending,
      nextOp,
      secrets,
      guard: () => this.heldLock?.assertHeld(),
      ...(options ? { options } : {}),
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
   * Takes the stack lock (see {@link lockStack}); `command` says what the run does (`"up"`).
   * Journals of this backend refuse to write if the lock is lost, and releasing it first closes the
   * open journal (writing what it still buffers).
   *
   * @example
   * const lock = await backend.lock("up");
   * if (lock.note) console.warn(lock.note);
   * try { ... } finally { await lock.release(); }
   */
  async lock(command?: string | { command?: string }): Promise<StackLock> {
    const cmd = typeof command === "string" ? command : command?.command;
    const lock = await lockStack(this.files.dir, {
      stack: this.stack,
      ...(cmd !== undefined ? { command: cmd } : {}),
      ...(this.opts.programHint !== undefined ? { programHint: this.opts.programHint } : {}),
    });
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
   * Removes the stack lock whoever holds it (the `unlock` command).
   * @example const { removed, holder } = await backend.forceUnlock();
   */
  forceUnlock(): Promise<{ removed: boolean; holder?: LockHolder }> {
    return forceUnlock(this.files.dir);
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
   * Sets a configuration value; `{ secret: true }` encrypts it (needs the passphrase).
   * @example await backend.setConfig("dbPassword", "hunter2", { secret: true });
   */
  async setConfig(key: string, value: string, opts: { secret?: boolean } = {}): Promise<void> {
    await mkdir(this.files.dir, { recursive: true });
    await (await this.config()).set(key, value, opts);
  }

  /**
   * Removes a configuration value; resolves to whether it existed.
   * @example await backend.removeConfig("dbPassword") // true
   */
  async removeConfig(key: string): Promise<boolean> {
    return (await this.config()).remove(key);
  }

  private async config(): Promise<ConfigStore> {
    return new ConfigStore(this.files.config, await this.secrets());
  }

  // Opened once per backend, so the slow key derivation happens at most once per stack load.
  private secrets(): Promise<StackSecrets> {
    this.secretsP ??= StackSecrets.open({ stackDir: this.files.dir, stack: this.stack, passphrase: this.opts.passphrase });
    return this.secretsP;
  }
}

/** Runs a decode, naming the file if a stored secret turns out damaged. */
function decoded<T>(where: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof DecryptError) throw new DecryptError(`${where}: ${e.message}`);
    throw e;
  }
}

function decodedMutations(where: string, m: StateMutation[], crypter: Crypter): StateMutation[] {
  return decoded(where, () => m.map((x) => decodeMutation(x, crypter)));
}

/**
 * The stacks that have a directory under `<stateDir>/stacks`, sorted.
 * @example await listStacks(".cairn") // ["dev", "prod"]
 */
export async function listStacks(stateDir: string): Promise<string[]> {
  const entries = await readdir(join(stateDir, "stacks"), { withFileTypes: true }).catch((e: NodeJS.ErrnoException) => {
    if (e.code === "ENOENT") return [];
    throw e;
  });
  return entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
}
