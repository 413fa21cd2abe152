import type { HistoryEntry, RawConfigValue, StackExport } from "./stored.js";
import type { LockHolder, StackLock, UnlockResult } from "./lock-holder.js";
import type { PendingOperation } from "./types.js";
import type { SnapshotFile } from "./record-lines.js";
import { UserError } from "../core/diagnostic.js";

/**
 * Where a store's stack lives, and how its parts are named; every store role below has it.
 * @example `${store.names.snapshot} in ${store.url}`
 */
export interface StorePlace {
  /** Where the state lives, without credentials. */
  readonly url: string;
  /** How the stored parts are named in messages. */
  readonly names: StoreNames;
  close(): Promise<void>;
}

/**
 * Reads the stored snapshot and journal as they are (parsing and replay are the backend's).
 * @example const snap = await store.readSnapshot(); const journal = await store.readJournal();
 */
export interface StoreReader extends StorePlace {
  /** The current snapshot's text, or undefined for a new stack. */
  readSnapshot(): Promise<SnapshotText | undefined>;
  /** The journal as NDJSON bytes (head line first), or undefined when there is none. */
  readJournal(): Promise<Buffer | undefined>;
  /** True when the store holds nothing of this stack. */
  isEmpty(): Promise<boolean>;
}

/**
 * Writes the journal and, through it, the next snapshot.
 * @example const storage = store.openJournal(prep); await storage.append(line);
 */
export interface StoreWriter extends StorePlace {
  /** Opens the journal for writing after a load; `prep` says what the load found. */
  openJournal(prep: JournalPrep): JournalStorage;
  /**
   * Network stores (PostgreSQL, S3): writes a batch of journal records that a run kept locally (see
   * `SpillFile`) at its place in the journal continuing snapshot `base`: idempotently (resolves if exactly
   * those records are there already), and refusing if that place holds other records or the journal has
   * moved past `base`.
   */
  replayAt?(base: number, at: number, text: string): Promise<void>;
}

/**
 * The stack lock as the store keeps it.
 * @example const lock = await store.lock({ command: "up" });
 */
export interface StoreLocker extends StorePlace {
  lock(opts: { command?: string }): Promise<StackLock>;
  unlock(opts: { force: boolean }): Promise<UnlockResult>;
  /** Who holds the stack lock now; undefined when nobody does (or its holder is certainly gone). */
  lockHolder(): Promise<LockHolder | undefined>;
}

/**
 * The stored versions of the snapshot.
 * @example for (const h of await store.history()) await store.readVersion(h.version);
 */
export interface StoreHistory extends StorePlace {
  history(): Promise<HistoryEntry[]>;
  /** A stored version's snapshot text. */
  readVersion(version: number): Promise<string | undefined>;
  /** Keeps a copy of a damaged journal before `state recover` replaces it (where the store can: files). */
  keepDamagedJournal?(): Promise<void>;
}

/**
 * The configuration as stored (secrets encrypted): what `ConfigStore` builds its rules on.
 * @example await storage.updateConfig((values) => ((values.region = "eu-west-1"), true));
 */
export interface ConfigStorage {
  /** The configuration as stored (secrets encrypted). */
  readConfig(): Promise<Record<string, RawConfigValue>>;
  /**
   * Read-modify-write of the configuration, atomic against concurrent writers (a lock or a
   * compare-and-swap retried); `update` changes `values` in place and returns whether it changed
   * anything, and may be called more than once.
   */
  updateConfig(update: (values: Record<string, RawConfigValue>) => boolean): Promise<void>;
}

/**
 * Where a stack's `encryption.json` document (the secrets' salt and check value) is kept, a file, a row or
 * an object: what `StackSecrets` reads and stores.
 * @example await storage.createEncryption(text); // throws EncryptionExistsError if another run stored one first
 */
export interface EncryptionStorage {
  /** The `encryption.json` document, if the stack has stored a secret. */
  readEncryption(): Promise<string | undefined>;
  /** Stores the document; throws {@link EncryptionExistsError} if one exists already (two runs must never both install a salt). */
  createEncryption(text: string): Promise<void>;
}

/**
 * The stacks a store holds.
 * @example await store.listStacks() // ["dev", "prod"]
 */
export interface StoreCatalog extends StorePlace {
  listStacks(): Promise<string[]>;
  /** Every stack of every project, where the store records projects (see `StackCatalog.listAllStacks`). */
  listAllStacks?(): Promise<{ project: string; stack: string }[]>;
}

/**
 * The stack as a whole, written in or deleted (the caller holds the lock).
 * @example if (await store.isEmpty()) await store.importRaw(data);
 */
export interface StoreTransfer extends StorePlace {
  /** Writes an exported stack (the caller checked the store is empty and holds the lock). */
  importRaw(data: StackExport): Promise<void>;
  /** Deletes everything of the stack but its lock (the caller holds the lock; releasing it removes the rest). */
  removeAll(): Promise<void>;
  /** After a removal, once the lock is released: tidies what the lock left (the file store's empty folder). */
  removeLeftovers?(): Promise<void>;
}

/**
 * The storage side of a backend, every role above: where snapshot, journal, config, secrets salt, lock and
 * history live. {@link StoreBackend} builds everything else (replay, journaling, secrets, config rules,
 * history and rollback) on top, identically for every store.
 *
 * @example class MemoryStore implements StoreReader, StoreWriter, StoreLocker, StoreHistory, ConfigStorage, EncryptionStorage, StoreCatalog, StoreTransfer { … }
 */
export interface StateStore extends StoreReader, StoreWriter, StoreLocker, StoreHistory, ConfigStorage, EncryptionStorage, StoreCatalog, StoreTransfer {}

/**
 * The names and options a stored stack's store is opened with (PostgreSQL, S3, memory).
 * @example { stack: "dev", project: "site", programHint: "npx tsx infra.ts" }
 */
export interface StoreContext {
  stack: string;
  project: string;
  /** How the program is run, for messages that say what to run next. */
  programHint?: string | undefined;
}

/** How a store names its parts in messages (paths, object keys, table names). */
export interface StoreNames {
  snapshot: string;
  journal: string;
  config: string;
  encryption: string;
  lock: string;
}

/** A snapshot as read; `backup` gives the previous one when the store keeps it (files: `state.json.bak`). */
export interface SnapshotText {
  text: string;
  name: string;
  /** The file the text was read from, as it was then (file stores): a later snapshot may copy its bytes. */
  file?: SnapshotFile;
  backup?: () => Promise<{ text: string; name: string } | undefined>;
  /** Called when `text` was unreadable and the backup was used: the next snapshot write must keep the damaged one. */
  damaged?: () => void;
}

/** What a load found, so the journal can continue (or restart) from it. */
export interface JournalPrep {
  snapshotSerial: number;
  /** The journal's head names the current snapshot (else it predates it: an interrupted compaction). */
  continuesSnapshot: boolean;
  /** Bytes of the journal's valid part, and its whole size (a torn last record is cut off). */
  validBytes: number;
  size: number;
  pending: readonly PendingOperation[];
  /** Resolves when an earlier journal of the same backend has finished writing: prepare only after it. */
  after?: Promise<unknown>;
}

/** One new snapshot version as written by a compaction. */
export interface SnapshotWrite {
  /** The text in pieces, to write one after another (`snapshotChunks`); each call starts over. */
  chunks: () => Iterable<string>;
  serial: number;
  /** How many resources it holds (counted when read: only some stores keep it). */
  readonly resources: number;
}

/**
 * The whole text of a snapshot write, for stores that keep it as one value (a row, an object).
 * @example await put("state.json", snapshotText(snapshot));
 */
export function snapshotText(w: SnapshotWrite): string {
  return [...w.chunks()].join("");
}

/**
 * Where a journal's records go. Appends are durable when they resolve (fsync, commit, PUT); a failed
 * append leaves nothing of its records behind.
 */
export interface JournalStorage {
  readonly name: string;
  readonly snapshotName: string;
  /** Resolves with the bytes written preparing the journal (e.g. cutting a torn record); rejects if that failed. */
  readonly ready: Promise<number>;
  /** Appends complete NDJSON records durably; resolves with the bytes written. */
  append(text: string): Promise<number>;
  /** Installs `snapshot` as the current version and replaces the journal with `journal`; resolves with bytes written. */
  replace(snapshot: SnapshotWrite, journal: string): Promise<number>;
  /** Frees space kept in reserve for a full disk; resolves false if there was none. */
  releaseReserve?(): Promise<boolean>;
  /**
   * A network store's local safety net: keeps records that could not be sent (the store unreachable, the run
   * stopped) durably on this machine, synchronously, and returns true; the next run writes them into the
   * store before planning.
   */
  keep?(text: string): boolean;
  /** Where {@link JournalStorage.keep} keeps records (for messages). */
  readonly keptIn?: string;
  close(): Promise<void>;
}

/**
 * Thrown by {@link StateStore.createEncryption} when another run stored the stack's salt first.
 * @example throw new EncryptionExistsError("s3://b/p/web/dev/encryption.json")
 */
export class EncryptionExistsError extends UserError {
  override name = "EncryptionExistsError";
  constructor(where: string) {
    super(`another run created ${where} while this one was storing its first secret; nothing was written with the new key: run again`);
  }
}
