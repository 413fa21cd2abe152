import type { Client, ClientBase } from "pg";
import type { LockCompromisedError, LockHolder } from "../lock-holder.js";
import type { StoreContext, StoreNames } from "../store.js";
import type { PgTarget } from "./pg-connection.js";

/** The connection a run holds the stack lock on, and how to recognise its lock row. */
export interface PgSession {
  client: Client;
  token: string;
  holder: LockHolder;
  /** The stack's row id. */
  id: number;
  /** Set once the lock is certainly lost: another run took it, or its row was removed. */
  lost: LockCompromisedError | undefined;
  /** The connection dropped: the lock must be taken again (and found still this run's) before the next statement. */
  broken: boolean;
}

/**
 * What the lock and the journal use of a PostgreSQL store (the store is one): its tables, its connection
 * discipline and the session holding the lock. Named here so that they depend on this, not on the store
 * that depends on them.
 *
 * @example async function readHolder(place: PgPlace) { return place.use((c) => c.query(`SELECT holder FROM ${place.t("locks")}`)); }
 */
export interface PgPlace {
  readonly target: PgTarget;
  readonly ctx: StoreContext;
  readonly names: StoreNames;
  /** The connection holding the stack lock, while a run holds it. */
  session: PgSession | undefined;
  /** A schema-qualified table name. */
  t(name: string): string;
  /** Runs `fn` on the run's locked connection, or on one of its own (see PgStore.use). */
  use<T>(fn: (c: ClientBase) => Promise<T>, what?: string): Promise<T>;
  /** Waits for the statements queued on the session to finish. */
  drain(): Promise<unknown>;
  /** The stack's row id, made when `create` and missing. */
  stackId(c: ClientBase, create: boolean): Promise<number | undefined>;
  /** SQL that is true while this run's lock row is still its own (`$n` is the token). */
  lockCheck(n: number): string;
  /** True when the journal's records from `at` on are exactly `lines` (a retried append that had succeeded). */
  journalHolds(c: ClientBase, id: number, at: number, lines: readonly string[]): Promise<boolean>;
  /** Stores one snapshot version. */
  insertSnapshot(c: ClientBase, id: number, serial: number, text: string, writtenAt: string | undefined, by: string, count?: number): Promise<void>;
}
