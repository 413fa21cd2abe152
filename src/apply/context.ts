import type { GraphNode } from "../program/node.js";
import type { Urn } from "../core/urn.js";
import type { Clock, OpContext, OperationRecord, Provider, ProviderInstance } from "../provider/provider.js";
import type { ProviderRecord, StackState, StateMutation, Props } from "../state/types.js";
import type { ResourceValue, ScopedResolver } from "../runtime/values.js";
import type { Action } from "../plan/actions.js";
import type { EventSink } from "./events.js";
import type { SecretRegistry } from "./secret-registry.js";
import type { JournalWriter } from "../state/journal-writer.js";
import type { WaitPoller } from "../wait/waiter.js";
import type { InFlight } from "./in-flight.js";
import type { RunSignals } from "./run-signals.js";

/** How to make the context of one provider call. */
export type OpContextFactory = (urn: Urn, opts: CallBounds) => OpContext;

/** How one provider call is bounded, by which provider instance it is made, and what it may use of the run. */
export interface CallBounds {
  /** Aborted when the call must stop; a holder of one (a call's bound) is asked only if the provider reads it. */
  signal?: AbortSignal | { readonly signal: AbortSignal };
  timeoutMs?: number;
  provider?: ProviderInstance | undefined;
  /** The journaled operation (creates, updates, deletes). */
  operation?: OperationRecord;
  /** Lends the call's slot out while the call waits on the cloud. */
  pause?: <T>(p: Promise<T>) => Promise<T>;
}

/**
 * What a provider call needs of the run (`invoke` and `inSlot`): the journal its record goes to, the
 * call slots, the signals that stop it, and how to report it started or paused. Handlers pass it on
 * (`ctx.calls`); they do not read it.
 *
 * @example const { result, op } = await invoke(ctx.calls, { action, urn, type, journal: { kind: "update", id }, op: "update", … });
 */
export interface CallContext {
  readonly journal: JournalWriter;
  /** Where a call's retries are reported (`step-retrying`). */
  readonly events: EventSink;
  /** What retries back off by. */
  readonly clock: Clock;
  /** What stops a call: before it starts (`stopStarting`), or while it runs (`abandonCalls`, `idle`). */
  readonly signals: RunSignals;
  readonly opContext: OpContextFactory;
  /** How long a provider call keeps retrying transient failures, from its first failure (`--retry-deadline`). */
  readonly retryDeadlineMs: number;
  /**
   * Provider calls abandoned by a second Ctrl-C whose answer may still come: each records its result if it
   * arrives while the run is still writing (see `execute`, which gives them a moment).
   */
  readonly lateResults: Promise<unknown>[];
  /** Provider calls in flight: `parallel` slots, abandoned together when the run is. */
  readonly inFlight: InFlight;
  /** An action's provider call got its slot and starts now: the action is reported as started (once). */
  calling(action: Action): void;
  /** An action's call waits on the cloud (`paused`) or goes on: a paused action leaves its place in `parallel` to another. */
  waiting(action: Action, paused: boolean): void;
}

/**
 * What an action handler reads of the run: the state as journaled, the secrets seen, the providers and
 * their instances, the resolver it reads program values through, and the poller waits join; `calls` is
 * handed on to `invoke` for each provider call.
 *
 * @example export const forget: Handler<ForgetAction> = async ({ step }, ctx: HandlerContext) => ({ changes: () => [{ kind: "remove", urn: step.urn }] });
 */
export interface HandlerContext {
  /** For each provider call the handler makes (see `invoke`). */
  readonly calls: CallContext;
  /** The state as journaled so far (`state`), and the handler's own records (`mutate`, `abort`). */
  readonly journal: JournalWriter;
  readonly events: EventSink;
  /** Every secret value the run has seen: handlers add the ones they meet (resolved inputs, tainted outputs). */
  readonly secrets: SecretRegistry;
  readonly poller: WaitPoller;
  /** The provider of a type: the node's definition, else a definition loaded in this process. */
  provider(type: string, urn: Urn, node?: GraphNode): Provider<Props, Props>;
  /** The instance to reach an object with: the one recorded with the object, else the node's own. */
  instance(node: GraphNode | undefined, recorded?: { type: string; provider: ProviderRecord | undefined }): ProviderInstance | undefined;
  /** The resolver an action reads values through (remembered, to report what a stalled action waits for). */
  scope(action: Action): ScopedResolver;
}

/**
 * What a handler did: the journaled operation (if it called a provider), the state changes to record
 * with it (those that depend on the state computed from it at the moment they are recorded, so concurrent
 * actions never undo each other), and the node's new value for its dependents.
 */
export interface ActionResult {
  op?: number;
  /** The changes, or how to compute them from the state when they depend on it (a replace's deposed objects). */
  changes: StateMutation[] | ((state: StackState) => StateMutation[]);
  value?: ResourceValue;
}

/**
 * Carries out one kind of action. `node` is the program's node of the action's resource (absent for
 * destroy, and for resources the program no longer declares), looked up once per action by the executor.
 */
export type Handler<A extends Action> = (action: A, ctx: HandlerContext, node: GraphNode | undefined) => Promise<ActionResult>;

/** No state change. */
export const NO_CHANGES = (): StateMutation[] => [];
