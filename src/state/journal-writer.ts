import type { Urn } from "../core/urn.js";
import type { OperationKind, PendingOperation, StackState, StateMutation } from "./types.js";

/** What the executor needs of the state journal: durable "pending" records before provider calls, results after. */
export interface JournalWriter {
  /** Records that an operation is starting; resolves once durable, before the provider is called. */
  begin(op: { kind: OperationKind; urn: Urn; type: string; id?: string }): Promise<number>;
  /**
   * Resolves when a call whose record was made durable earlier may start now: nothing has failed since,
   * and the run still holds the stack (checked again). Throws or rejects otherwise: a run that lost its
   * lock makes no more calls. Returns nothing when it can tell at once (no check of the lock was due).
   */
  confirm(): Promise<void> | void;
  /** The identity of a pending operation, the same in every run that reads its record. */
  operationId(op: number): string;
  /** Adds provider data (request tokens) to an operation's pending record; resolves once durable. */
  note(op: number, d: Readonly<Record<string, string>>): Promise<void>;
  /** Records an operation's success and the state changes it made. */
  end(op: number, mutations: StateMutation[]): void;
  /** Records an operation's failure and any state changes it still made (a tainted partial create). */
  abort(op: number, mutations: StateMutation[]): void;
  /** Records state changes that need no provider call (moves, forgets). */
  mutate(mutations: StateMutation[]): void;
  /** The state with every recorded mutation applied. */
  readonly state: StackState;
}

/**
 * The journal of one run, as every backend gives it: durable *pending* records before provider calls
 * ({@link JournalWriter.begin} resolves once the record is durable), results after, then one compaction.
 */
export interface StateJournal extends JournalWriter {
  /** Operations begun and not yet ended, including those a crashed run left open. */
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
