import type { JournalWriter } from "../apply/journal.js";
import type { ConfigValue } from "./config-store.js";
import type { JournalOptions } from "./journal.js";
import type { LockHolder, StackLock, UnlockResult } from "./lock-holder.js";
import type { RecoveryPlan, RecoveryResult } from "./recover.js";
import type { PendingOperation, StackState } from "./types.js";

/** What {@link StateBackend.load} found. */
export interface LoadResult {
  /** The snapshot with the journal replayed on top of it (secrets in plain text). */
  state: StackState;
  /** Operations journaled as begun but never finished: the run doing them died during the provider call. */
  pending: PendingOperation[];
  /** Things worth telling the user (e.g. a torn last journal record was ignored). */
  notes: string[];
}

/**
 * The journal of one run, as every backend gives it: durable *pending* records before provider calls
 * ({@link JournalWriter.begin} resolves once the record is durable), results after, then one compaction.
 */
export interface StateJournal extends JournalWriter {
  /** Operations begun and not yet ended, including those recovered from a crashed run. */
  readonly pending: PendingOperation[];
  /** Bytes written so far (journal records and snapshots). */
  readonly bytesWritten: number;
  /** True once {@link StateJournal.close} was called. */
  readonly closed: boolean;
  /** Resolves once everything recorded so far is durable. */
  flush(): Promise<void>;
  /** Writes the state as the next snapshot version and starts a fresh journal; resolves with what was written. */
  compact(state?: StackState): Promise<StackState>;
  /** Writes what is buffered and closes; rejects if not everything recorded became durable. */
  close(): Promise<void>;
}

/** One stored version of a stack's state. */
export interface HistoryEntry {
  /** The snapshot's serial: `state rollback <version>` restores it. */
  version: number;
  /** When it was written (ISO time), where the backend knows. */
  writtenAt?: string;
  /** Who wrote it (`<command> by pid <pid> on <host>`), where the backend knows. */
  writtenBy?: string;
  /** Number of resources, where the backend knows it without reading the snapshot. */
  resources?: number;
  bytes: number;
  /** True for the version `load` starts from. */
  current: boolean;
}

/** What {@link StateBackend.rollback} did. */
export interface RollbackResult {
  /** The version restored. */
  from: number;
  /** The new current version (a copy of `from` with the next serial). */
  version: number;
  resources: number;
}

/** A stack at a glance (`stack ls`), read without decrypting anything: needs no passphrase. */
export interface StackSummary {
  stack: string;
  /** False when the backend holds nothing of the stack (never used, or removed). */
  exists: boolean;
  resources: number;
  /** Operations of a crashed run not reconciled yet (the next run reads them back). */
  pending: number;
  /** When the current version was written (ISO time), where the backend knows. */
  lastUpdate?: string;
  /** Who holds the stack lock now, if anyone. */
  lockHolder?: LockHolder;
}

/** How {@link StateBackend.removeStack} decides and keeps a copy. */
export interface RemoveStackOptions {
  /** Sees the stack as stored, under the lock; throws to refuse, resolves false to leave it in place. */
  decide: (found: StackSummary) => Promise<boolean>;
  /** Receives the whole stack as stored before anything is deleted (a backup). */
  keep?: (data: StackExport) => Promise<void>;
}

/** A configuration value as stored: plain text, or an encrypted secret. */
export type RawConfigValue = string | { $secret: string };

/**
 * A stack as stored, secrets still encrypted: what `state migrate` copies between backends.
 * Plain data; `journal` is NDJSON continuing `snapshot`.
 */
export interface StackExport {
  project: string;
  stack: string;
  snapshot?: string;
  journal?: string;
  config: Record<string, RawConfigValue>;
  /** The `encryption.json` document (salt and check value of the passphrase; never the key). */
  encryption?: string;
  history: { version: number; text: string; writtenAt?: string }[];
}

/**
 * Where a stack's state lives. The engine uses only this; the file, PostgreSQL, S3 and memory
 * backends implement it (see `openBackend`). Each method names the stack the backend was opened for.
 *
 * @example
 * const backend = openBackend({ url: "postgres://cairn@db/infra", stack: "prod", project: "web" });
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
export interface StateBackend {
  readonly stack: string;
  readonly project: string;
  /** Where the state lives, without credentials, e.g. `file:///home/me/app/.cairn`. */
  readonly url: string;
  /** Takes the stack lock; fails at once naming the holder if another run has it. */
  lock(command?: string | { command?: string }): Promise<StackLock>;
  /** Reads the current snapshot and replays the journal on top. */
  load(): Promise<LoadResult>;
  /** Opens the journal of a run, after {@link StateBackend.load}, while holding the lock. */
  openJournal(state: StackState, options?: JournalOptions): StateJournal;
  /** Writes `state` as the next snapshot version (through the open journal if there is one). */
  compact(state: StackState): Promise<StackState>;
  /**
   * Removes the stack lock if its holder is gone; refuses (throws) while it may be alive unless
   * `force`, which removes it with a warning naming the holder and its age.
   */
  forceUnlock(opts?: { force?: boolean }): Promise<UnlockResult>;
  /** Throws now if secrets will be written and the passphrase is missing or wrong. */
  requirePassphrase(): Promise<void>;
  /** The stack's configuration values, secrets decrypted. */
  readConfig(): Promise<Record<string, ConfigValue>>;
  /** Sets a configuration value; `{ secret: true }` encrypts it (needs the passphrase). */
  setConfig(key: string, value: string, opts?: { secret?: boolean }): Promise<void>;
  /** Removes a configuration value; resolves to whether it existed. */
  removeConfig(key: string): Promise<boolean>;
  /** The project's stacks in this backend, sorted. */
  listStacks(): Promise<string[]>;
  /**
   * Every stack of every project in this backend (a file backend does not record projects in its layout:
   * its stacks are listed under this backend's project; read a stack's state for its own). Optional: a
   * backend without it is searched for this project's stacks only.
   */
  listAllStacks?(): Promise<{ project: string; stack: string }[]>;
  /**
   * The current state as stored, secrets still encrypted: for what needs no secret (which stacks a stack
   * reads), so no passphrase is needed. Takes no lock. Optional: without it, `load` is used.
   */
  readStored?(): Promise<StackState>;
  /** The stored versions of the stack, oldest first. */
  history(): Promise<HistoryEntry[]>;
  /** Makes stored version `version` current again (as a new version), under the lock; changes nothing in the cloud. */
  rollback(version: number): Promise<RollbackResult>;
  /**
   * Rebuilds the newest state from the journal and the stored versions when the snapshot is damaged or
   * behind its journal; writes it (as a new version) only if `confirm` agrees. Changes nothing in the cloud.
   */
  recover(opts?: { confirm?: (plan: RecoveryPlan) => Promise<boolean> }): Promise<RecoveryResult>;
  /** The stack as stored (call while holding the lock). */
  exportStack(): Promise<StackExport>;
  /** Writes an exported stack into this backend, which must hold nothing of the stack yet (call while holding the lock). */
  importStack(data: StackExport): Promise<void>;
  /** The stack at a glance: resources, last update, lock holder (reads no secret). */
  summary(): Promise<StackSummary>;
  /**
   * Deletes everything of the stack (state, journal, history, config, secrets salt) under its lock, after
   * `decide` agreed and `keep` got a copy; resolves to whether it was removed. Changes nothing in the cloud.
   */
  removeStack(opts: RemoveStackOptions): Promise<boolean>;
  /** Ends connections; the backend may be used again afterwards (it reconnects). */
  close(): Promise<void>;
}
