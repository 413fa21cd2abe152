import { nameOf, type Urn } from "../core/urn.js";
import type { OpContext, OperationRecord, ProviderInstance } from "../provider/provider.js";
import { isTransientError } from "../core/errors.js";
import { formatDuration } from "../core/duration.js";
import type { OperationKind, StackState, StateMutation } from "../state/types.js";
import type { CallContext } from "./context.js";
import type { Action } from "../plan/actions.js";
import { thrownMessage } from "../core/thrown.js";
import { backoff, gaveUp, mayRetry } from "../core/retry-policy.js";

/** How long a provider call may take when neither `customTimeouts` nor state say: a safety net against hangs. */
export const DEFAULT_OPERATION_TIMEOUT_MS = 30 * 60_000;

/** One provider call of an action, described as data plus the call itself. */
export interface ProviderCall<T> {
  /** The action making the call: reported as started once the call gets its slot; its kind names events. */
  action: Action;
  urn: Urn;
  type: string;
  journal: { kind: OperationKind; id?: string };
  /** The operation, for messages and its time budget. */
  op: "create" | "update" | "delete";
  timeoutMs: number | undefined;
  instance: ProviderInstance | undefined;
  call: (ctx: OpContext) => Promise<T>;
  /** Why a result cannot be recorded (the call then counts as uncertain), or undefined when it is fine. */
  check?: (result: T) => string | undefined;
  /** State changes a failure still makes (a partly created object, kept tainted). */
  onError?: (error: unknown, state: StackState) => StateMutation[];
  /**
   * The state changes of a result that arrives after the call was abandoned (a second Ctrl-C): given, such a
   * result is recorded while the run can still write, instead of being left for the next run to guess.
   */
  lateChanges?: (result: T, state: StackState) => StateMutation[];
  /** Masks secret values in retry messages. */
  redact: (text: string) => string;
}

/** A provider call whose outcome is not known: its pending journal record stays, for the next run to check. */
export class UncertainCall extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UncertainCall";
  }
}

/**
 * Makes one provider call the way every action must: journaled as pending first (durably), bounded by its
 * time budget (the call's signal aborts, and a call that ignores it is abandoned), transient errors retried
 * with backoff while the budget lasts (each retry an event), the result checked before it is recorded.
 * A call that times out, is abandoned or returns nonsense keeps its pending record: the next run reads
 * the object back instead of guessing.
 */
export async function invoke<T>(ctx: CallContext, c: ProviderCall<T>): Promise<{ result: T; op: number }> {
  const op = await ctx.journal.begin(c.journal.id !== undefined ? { kind: c.journal.kind, urn: c.urn, type: c.type, id: c.journal.id } : { kind: c.journal.kind, urn: c.urn, type: c.type });
  // The record is durable before the call waits for a slot, so records are written while other calls run
  // (see InFlight). Should the run stop, or lose its lock, meanwhile, the call never starts.
  const taking = slotFor(ctx, c.action, c, op);
  const slot = taking instanceof CallSlot ? taking : await taking;
  try {
    return { result: await attempt(ctx, c, op, slot.pause), op };
  } finally {
    slot.release();
  }
}

/** Closes the record of a call that never started, if the journal can still write (else the next run checks it). */
function closeUnstarted(ctx: CallContext, op: number): void {
  try {
    ctx.journal.abort(op, []);
  } catch {
    // A journal that lost its lock or failed writes nothing more: the record stays pending, and is checked.
  }
}

/**
 * What a call is, for messages: `create of "web"`. The name is the URN's unless given (read only when a
 * message is made: most calls never need it).
 */
export interface CallName {
  op: string;
  urn: Urn;
  name?: string;
}

/** `create of "web"`: a call as messages name it. */
function called(what: CallName): string {
  return `${what.op} of "${what.name ?? nameOf(what.urn)}"`;
}

/**
 * Runs an action's provider call that is not journaled (a lookup's read; `what` it is, for messages) in
 * one of the `parallel` slots once it is its turn, reporting the action as started then. It starts only if
 * the run is still on and still holds its lock (its journal confirms): otherwise the action ends as
 * cancelled, or failed naming why. A free slot and a journal that needs no check cost no turn of the event
 * loop: a fast provider's calls go straight through. ({@link invoke} takes its slot the same way.)
 *
 * @example const found = await inSlot(ctx, action, { op: "read", urn, name: "zone" }, () => provider.read(args));
 */
export async function inSlot<T>(ctx: CallContext, action: Action, what: CallName, call: (pause: SlotPause) => Promise<T>): Promise<T> {
  const taking = slotFor(ctx, action, what, undefined);
  const slot = taking instanceof CallSlot ? taking : await taking;
  try {
    return await call(slot.pause);
  } finally {
    slot.release();
  }
}

/**
 * A slot for an action's call, taken once the call may start (see {@link mayStart}): at once (no promise)
 * when one is free and no check of the lock is due, as for nearly every call of a fast provider. A call
 * refused its start gives its slot back and throws, closing the journaled operation `op` (if any).
 */
function slotFor(ctx: CallContext, action: Action, what: CallName, op: number | undefined): CallSlot | Promise<CallSlot> {
  const free = CallSlot.free(ctx, action);
  return free ? started(ctx, free, action, what, op) : CallSlot.next(ctx, action).then((slot) => started(ctx, slot, action, what, op));
}

/** `slot`, once {@link mayStart} lets its call start; given back if it does not. */
function started(ctx: CallContext, slot: CallSlot, action: Action, what: CallName, op: number | undefined): CallSlot | Promise<CallSlot> {
  let checking: Promise<void> | void;
  try {
    checking = mayStart(ctx, action, what, op);
  } catch (e) {
    slot.release();
    throw e;
  }
  if (!checking) return slot;
  return checking.then(
    () => slot,
    (e: unknown) => {
      slot.release();
      throw e;
    },
  );
}

/**
 * Settles at once (returns nothing) when a call that has its slot may start and no check of the lock is
 * due; else waits for the check. Reports the action started; throws (closing the journaled operation `op`)
 * when the run stopped or the journal refuses.
 */
function mayStart(ctx: CallContext, action: Action, what: CallName, op: number | undefined): void | Promise<void> {
  const stopped = ctx.inFlight.stopReason(ctx.signals.stopStarting);
  if (stopped) return refuse(ctx, op, stopped);
  let check: Promise<void> | void;
  try {
    check = ctx.journal.confirm();
  } catch (e) {
    return refuse(ctx, op, notStarted(what, e));
  }
  if (!check) return ctx.calling(action);
  return check.then(
    () => ctx.calling(action),
    (e: unknown) => refuse(ctx, op, notStarted(what, e)),
  );
}

/** Ends a call that must not start: its journaled operation (if any) is closed, and `stopped` thrown. */
function refuse(ctx: CallContext, op: number | undefined, stopped: unknown): never {
  if (op !== undefined) closeUnstarted(ctx, op);
  throw stopped;
}

/** Why the journal did not let a call start (it failed, or the run lost its lock). */
function notStarted(what: CallName, e: unknown): Error {
  return new Error(`${called(what)} was not started: ${thrownMessage(e, "the journal")}`);
}

/** Gives a call's slot back while it awaits `p`, and takes one again before it goes on (see `OpContext.pause`). */
export type SlotPause = <T>(p: Promise<T>) => Promise<T>;

/**
 * One of the `parallel` slots, held by an action's call: given back once by {@link CallSlot.release}, or
 * lent to other calls while the call only waits on the cloud ({@link CallSlot.pause}).
 */
class CallSlot {
  private constructor(
    private readonly ctx: CallContext,
    private readonly action: Action,
    private leave: () => void,
  ) {}

  /** The slot, if one is free now (most calls of a fast provider find one, and go on without a turn). */
  static free(ctx: CallContext, action: Action): CallSlot | undefined {
    const leave = ctx.inFlight.tryEnter();
    return leave && new CallSlot(ctx, action, leave);
  }

  /** The next slot given up, first come first served. */
  static async next(ctx: CallContext, action: Action): Promise<CallSlot> {
    return new CallSlot(ctx, action, await ctx.inFlight.enter());
  }

  /** Gives the slot back (once: the leave function ignores a second call). */
  release(): void {
    this.leave();
  }

  /** Waits for `p` with the slot lent out to another call; takes a slot again before going on. */
  readonly pause: SlotPause = async (p) => {
    this.leave();
    this.ctx.waiting(this.action, true);
    try {
      return await p;
    } finally {
      this.ctx.waiting(this.action, false);
      this.leave = await this.ctx.inFlight.enter();
    }
  };
}

/** The call itself, retried while its budget lasts: every way it can end, as {@link invoke} describes. */
async function attempt<T>(ctx: CallContext, c: ProviderCall<T>, op: number, pause: SlotPause): Promise<T> {
  const budget = c.timeoutMs ?? DEFAULT_OPERATION_TIMEOUT_MS;
  const deadline = Date.now() + budget;
  let retryUntil: number | undefined; // set at the first transient failure: retries end then, whatever the budget
  for (let attempt = 1; ; attempt++) {
    const bound = ctx.inFlight.open(deadline - Date.now());
    let call: Promise<T> | undefined;
    try {
      call = c.call(ctx.opContext(c.urn, { signal: bound, timeoutMs: budget, provider: c.instance, operation: new JournaledOperation(ctx, op), pause }));
      const result = await bound.race(call);
      const bad = c.check?.(result);
      if (bad) throw new UncertainCall(`the provider of ${c.type} ${bad}. Nothing was recorded for this ${c.op}; if it made an object, the next run ${c.journal.id ? "checks it" : "cannot find it: delete it by hand or adopt it with state import"}.`);
      return result;
    } catch (raw) {
      if (raw instanceof UncertainCall) throw raw;
      // Something that is not an Error (a string, null, a plain object) keeps what it said, and its fields for the classification.
      const e = raw instanceof Error ? raw : Object.assign(new Error(thrownMessage(raw, `the provider of ${c.type}`)), { cause: raw });
      if (bound.timedOut) throw new UncertainCall(`${called(c)} did not finish within ${formatDuration(budget)} (${c.timeoutMs ? `customTimeouts.${c.op}` : "the default time limit"}): the call was abandoned and recorded as uncertain; the next run checks the object.`);
      if (ctx.signals.idle?.aborted) throw new UncertainCall(`${called(c)}: its provider call never settled and nothing else was left to run; it was abandoned and recorded as uncertain.`);
      if (ctx.signals.abandonCalls?.aborted) {
        if (call) recordLate(ctx, c, op, call);
        throw new UncertainCall(`${called(c)} was interrupted (cancelled twice); it is recorded as uncertain and checked by the next run.`);
      }
      const delay = backoff(attempt);
      const transient = isTransientError(e); // classified once, here: every later decision uses this answer
      retryUntil ??= Date.now() + ctx.retryDeadlineMs;
      if (transient && mayRetry(attempt, delay, Date.now(), deadline, retryUntil)) {
        ctx.events.next({ type: "step-retrying", urn: c.urn, kind: c.action.kind, attempt, error: c.redact(e.message), delayMs: delay });
        await ctx.clock.sleep(delay as never);
        continue;
      }
      ctx.journal.abort(op, c.onError?.(e, ctx.journal.state) ?? []);
      if (transient) throw gaveUp(e, attempt, ctx.retryDeadlineMs);
      throw e;
    } finally {
      bound.dispose();
    }
  }
}

/** The journaled operation as a provider sees it; its id (a hash) is made only if the provider reads it. */
class JournaledOperation implements OperationRecord {
  private hash: string | undefined;

  constructor(
    private readonly ctx: CallContext,
    private readonly op: number,
  ) {}

  get id(): string {
    return (this.hash ??= this.ctx.journal.operationId(this.op));
  }

  note(d: Readonly<Record<string, string>>): Promise<void> {
    return this.ctx.journal.note(this.op, d);
  }
}

/** Records the result of an abandoned call if it arrives while the journal still writes (and can be recorded). */
function recordLate<T>(ctx: CallContext, c: ProviderCall<T>, op: number, call: Promise<T>): void {
  if (!c.lateChanges) return;
  const changes = c.lateChanges;
  ctx.lateResults.push(
    call.then(
      (result) => {
        if (c.check?.(result)) return; // not recordable: the pending record stays, and the next run checks it
        try {
          ctx.journal.end(op, changes(result, ctx.journal.state));
        } catch {
          // The journal closed first: the record stays pending for the next run.
        }
      },
      () => {},
    ),
  );
}

/** A create's result must name the object and describe it. */
export function checkCreated(r: { id?: unknown; outputs?: unknown } | undefined): string | undefined {
  if (!r || typeof r !== "object") return `returned ${String(r)} from create instead of { id, outputs }`;
  if (typeof r.id !== "string" || r.id.length === 0) return `returned no id from create (got ${JSON.stringify(r.id) ?? "undefined"})`;
  return undefined;
}
