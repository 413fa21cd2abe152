import type { StateJournal } from "./journal-writer.js";
import type { ConfigValue, HistoryEntry, StackExport, StackSummary } from "./stored.js";
import type { JournalOptions } from "./group-commit.js";
import type { StackLock, UnlockResult } from "./lock-holder.js";
import type { RecoveryPlan, RecoveryResult } from "./recover.js";
import type { PendingOperation, Props, StackState } from "./types.js";

export type { StateJournal } from "./journal-writer.js";
export type { ConfigValue, HistoryEntry, RawConfigValue, StackExport, StackSummary } from "./stored.js";

/** What {@link StateReader.load} found. */
export interface LoadResult {
  /** The snapshot with the journal replayed on top of it (secrets in plain text). */
  state: StackState;
  /** Operations journaled as begun but never finished: the run doing them died during the provider call. */
  pending: PendingOperation[];
  /** Things worth telling the user (e.g. a torn last journal record was ignored). */
  notes: string[];
}

/** What {@link StateHistory.rollback} did. */
export interface RollbackResult {
  /** The version restored. */
  from: number;
  /** The new current version (a copy of `from` with the next serial). */
  version: number;
  resources: number;
}

/** How {@link StackTransfer.removeStack} decides and keeps a copy. */
export interface RemoveStackOptions {
  /** Sees the stack as stored, under the lock; throws to refuse, resolves false to leave it in place. */
  decide: (found: StackSummary) => Promise<boolean>;
  /** Receives the whole stack as stored before anything is deleted (a backup). */
  keep?: (data: StackExport) => Promise<void>;
}

/**
 * A stack's outputs as last committed (see {@link OutputReader.readOutputs}).
 *
 * @example const { exists, outputs, secretOutputs } = await backend.readOutputs();
 */
export interface StoredOutputs {
  /** False when the backend holds nothing of the stack (its outputs are then empty). */
  exists: boolean;
  /** The project the stack's state names. */
  project: string;
  outputs: Props;
  /** Which outputs are secret (their values are decrypted in `outputs`). */
  secretOutputs: string[];
}

/**
 * Which stack a backend was opened for, and where it lives; every role below has it. `close` ends the
 * backend's connections (it reconnects if used again).
 *
 * @example `${place.project}/${place.stack} in ${place.url}`
 */
export interface StatePlace {
  readonly stack: string;
  readonly project: string;
  /** Where the state lives, without credentials, e.g. `file:///home/me/app/.cairn`. */
  readonly url: string;
  /** Ends connections; the backend may be used again afterwards (it reconnects). */
  close(): Promise<void>;
}

/**
 * Reads the stack's state (Terraform's `statemgr.Reader` and `Refresher`).
 * @example const { state, pending } = await reader.load();
 */
export interface StateReader extends StatePlace {
  /** Reads the current snapshot and replays the journal on top. */
  load(): Promise<LoadResult>;
  /**
   * The current state as stored, secrets still encrypted: for what needs no secret (which stacks a stack
   * reads), so no passphrase is needed. Takes no lock. Optional: without it, `load` is used.
   */
  readStored?(): Promise<StackState>;
}

/**
 * Writes the stack's state: through a run's journal, then as the next snapshot (`statemgr.Writer` and
 * `Persister`). Call while holding the lock, after {@link StateReader.load}.
 * @example const journal = writer.openJournal(state); … await journal.compact();
 */
export interface StateWriter extends StatePlace {
  /** Opens the journal of a run, after {@link StateReader.load}, while holding the lock. */
  openJournal(state: StackState, options?: JournalOptions): StateJournal;
  /** Writes `state` as the next snapshot version (through the open journal if there is one). */
  compact(state: StackState): Promise<StackState>;
  /** Throws now if secrets will be written and the passphrase is missing or wrong. */
  requirePassphrase(): Promise<void>;
}

/**
 * Reads a stack's outputs alone, as last committed (`statemgr.OutputReader`): what another stack's
 * `stackOutputs` and `Stack.outputs()` need, without the lock and without the resources.
 * @example const { exists, outputs } = await reader.readOutputs();
 */
export interface OutputReader extends StatePlace {
  /** The stack outputs as last committed, secrets decrypted, without the lock and without reading the resources. */
  readOutputs(): Promise<StoredOutputs>;
}

/**
 * The stack lock (`statemgr.Locker`).
 * @example const lock = await locker.lock({ command: "up" }); try { … } finally { await lock.release(); }
 */
export interface StateLocker extends StatePlace {
  /** Takes the stack lock; fails at once naming the holder if another run has it. */
  lock(command?: string | { command?: string }): Promise<StackLock>;
  /**
   * Removes the stack lock if its holder is gone; refuses (throws) while it may be alive unless
   * `force`, which removes it with a warning naming the holder and its age.
   */
  forceUnlock(opts?: { force?: boolean }): Promise<UnlockResult>;
}

/**
 * The stored versions of the stack's state, and the ways back to one.
 * @example const versions = await history.history(); await history.rollback(versions[0]!.version);
 */
export interface StateHistory extends StatePlace {
  /** The stored versions of the stack, oldest first. */
  history(): Promise<HistoryEntry[]>;
  /** Makes stored version `version` current again (as a new version), under the lock; changes nothing in the cloud. */
  rollback(version: number): Promise<RollbackResult>;
  /**
   * Rebuilds the newest state from the journal and the stored versions when the snapshot is damaged or
   * behind its journal; writes it (as a new version) only if `confirm` agrees. Changes nothing in the cloud.
   */
  recover(opts?: { confirm?: (plan: RecoveryPlan) => Promise<boolean> }): Promise<RecoveryResult>;
}

/**
 * The stack's configuration.
 * @example (await config.readConfig()).region?.value
 */
export interface StateConfig extends StatePlace {
  /** The stack's configuration values, secrets decrypted. */
  readConfig(): Promise<Record<string, ConfigValue>>;
  /** Sets a configuration value; `{ secret: true }` encrypts it (needs the passphrase). */
  setConfig(key: string, value: string, opts?: { secret?: boolean }): Promise<void>;
  /** Removes a configuration value; resolves to whether it existed. */
  removeConfig(key: string): Promise<boolean>;
}

/**
 * The stacks of a backend, and this one at a glance.
 * @example for (const name of await catalog.listStacks()) …
 */
export interface StackCatalog extends StatePlace {
  /** The project's stacks in this backend, sorted. */
  listStacks(): Promise<string[]>;
  /**
   * Every stack of every project in this backend (a file backend does not record projects in its layout:
   * its stacks are listed under this backend's project; read a stack's state for its own). Optional: a
   * backend without it is searched for this project's stacks only.
   */
  listAllStacks?(): Promise<{ project: string; stack: string }[]>;
  /** The stack at a glance: resources, last update, lock holder (reads no secret). */
  summary(): Promise<StackSummary>;
}

/**
 * The stack as a whole, moved in or out of a backend (migrate, `stack rm` and `stack restore`).
 * @example await target.importStack(await source.exportStack());
 */
export interface StackTransfer extends StatePlace {
  /** The stack as stored (call while holding the lock). */
  exportStack(): Promise<StackExport>;
  /** Writes an exported stack into this backend, which must hold nothing of the stack yet (call while holding the lock). */
  importStack(data: StackExport): Promise<void>;
  /**
   * Deletes everything of the stack (state, journal, history, config, secrets salt) under its lock, after
   * `decide` agreed and `keep` got a copy; resolves to whether it was removed. Changes nothing in the cloud.
   */
  removeStack(opts: RemoveStackOptions): Promise<boolean>;
}

/**
 * Where a stack's state lives: every role above. The file, PostgreSQL, S3 and memory backends are one
 * `StoreBackend` each over their store (see `openBackend`); each method names the stack the backend was
 * opened for. Code that uses a backend asks for the roles it uses (a reader of another stack's outputs
 * takes an {@link OutputReader}), so what it may do is in its signature.
 *
 * @example
 * const backend = openBackend({ backend: "postgres://cairn@db/infra", stack: "prod", project: "web" });
 * const lock = await backend.lock({ command: "up" });
 * try {
 *   const { state } = await backend.load();
 *   const journal = backend.openJournal(state);
 *   // ... journal.begin / end ...
 *   await journal.compact();
 *   await journal.close();
 * } finally {
 *   await lock.release();
 *   await backend.close();
 * }
 */
export interface StateBackend extends StateReader, StateWriter, OutputReader, StateLocker, StateHistory, StateConfig, StackCatalog, StackTransfer {}
