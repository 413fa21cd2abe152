/**
 * Cairn's state: what exists, as recorded after each provider call, kept in local files with a
 * write-ahead journal, a stack lock and encrypted secrets.
 *
 * @example
 * import { FileBackend } from "./state/index.js";
 * const backend = new FileBackend({ stateDir: ".cairn", stack: "dev", project: "hello", passphrase: process.env.CAIRN_PASSPHRASE });
 * const { state } = await backend.load();
 */
export * from "./types.js";
export { FileBackend, listStacks, type FileBackendOptions, type LoadResult } from "./file-backend.js";
export { Journal, type BeginArgs, type JournalOptions, type SyncInfo } from "./journal.js";
export { JournalCorruptError } from "./journal-format.js";
export { SnapshotError } from "./snapshot.js";
export {
  lockStack,
  forceUnlock,
  readLockHolder,
  StackLockedError,
  LockCompromisedError,
  type LockHolder,
  type LockOptions,
  type StackLock,
} from "./lock.js";
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
export type { ConfigValue } from "./config-store.js";
