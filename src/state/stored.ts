// A stack as it is stored: the data shapes every backend reads and writes besides the state itself.
import type { LockHolder } from "./lock-holder.js";

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

/** A stack at a glance (`stack ls`), read without decrypting anything: needs no passphrase. */
export interface StackSummary {
  stack: string;
  /** False when the backend holds nothing of the stack (never used, or removed). */
  exists: boolean;
  resources: number;
  /** Operations of a crashed run not settled yet (the next run reads them back). */
  pending: number;
  /** When the current version was written (ISO time), where the backend knows. */
  lastUpdate?: string;
  /** Who holds the stack lock now, if anyone. */
  lockHolder?: LockHolder;
}

/** A configuration value as stored: plain text, or an encrypted secret. */
export type RawConfigValue = string | { $secret: string };

/**
 * One configuration value as the program sees it (secrets decrypted).
 * @example const v: ConfigValue = { value: "web", secret: false };
 */
export interface ConfigValue {
  value: string;
  secret: boolean;
}

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
