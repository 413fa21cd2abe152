import type { Urn } from "../program/urn.js";
import type { OperationKind, StackState, StateMutation } from "../state/types.js";

/** What the executor needs of the state journal: durable "pending" records before provider calls, results after. */
export interface JournalWriter {
  /** Records that an operation is starting; resolves once durable, before the provider is called. */
  begin(op: { kind: OperationKind; urn: Urn; type: string; id?: string }): Promise<number>;
  /**
   * Resolves when a call whose record was made durable earlier may start now: nothing has failed since,
   * and the run still holds the stack (checked again). Rejects otherwise: a run that lost its lock makes
   * no more calls.
   */
  confirm(): Promise<void>;
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
