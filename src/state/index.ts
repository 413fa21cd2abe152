/**
 * Cairn's state: what exists, as recorded after each provider call, kept by a backend (local files,
 * PostgreSQL, S3 or memory) with a write-ahead journal, a stack lock, history and encrypted secrets.
 *
 * @example
 * import { FileBackend } from "./state/index.js";
 * const backend = new FileBackend({ stateDir: ".cairn", stack: "dev", project: "hello", passphrase: process.env.CAIRN_PASSPHRASE });
 * const { state } = await backend.load();
 */
export * from "./types.js";
export type { StateBackend, StateJournal, LoadResult, HistoryEntry, RollbackResult, StackExport, RawConfigValue, StoredOutputs } from "./backend.js";
export type { StatePlace, StateReader, StateWriter, OutputReader, StateLocker, StateHistory, StateConfig, StackCatalog, StackTransfer } from "./backend.js";
export { StoreBackend, type BackendOptions } from "./store-backend.js";
export { FileBackend, listStacks, type FileBackendOptions } from "./file-backend.js";
export { DiskFullError, StateWriteError } from "./durable-file.js";
export { Journal, type BeginArgs, type JournalOptions, type SyncInfo } from "./journal.js";
export { JournalCorruptError } from "./journal-format.js";
export { SnapshotError } from "./snapshot.js";
export { lockStack, forceUnlock, readLockHolder, type LockOptions, type UnlockOptions } from "./lock.js";
export {
  StackLockedError,
  LockCompromisedError,
  LockHeldError,
  describeHolder,
  formatAge,
  type LockHolder,
  type StackLock,
  type UnlockResult,
} from "./lock-holder.js";
export {
  createCrypter,
  newSalt,
  DEFAULT_SCRYPT,
  DecryptError,
  MissingPassphraseError,
  WrongPassphraseError,
  type Crypter,
  type ScryptParams,
} from "./secrets.js";
export {
  encodeState,
  decodeState,
  encodeResource,
  decodeResource,
  encodeMutation,
  decodeMutation,
  isSecretEnvelope,
  resourceHasSecrets,
  type SecretEnvelope,
} from "./secret-encoding.js";
export { applyMutations } from "./mutations.js";
export { validateStackName } from "./stack-name.js";
export { validateConfigKey, type ConfigValue } from "./config-store.js";
