import type { Urn } from "../program/urn.js";
import type { OpContext, OperationRecord, ProviderInstance } from "../provider/provider.js";
import { isTransientError } from "../provider/errors.js";
import { formatDuration } from "../program/duration.js";
import type { OperationKind, StackState, StateMutation } from "../state/types.js";
import type { ApplyContext } from "./context.js";
import type { Action } from "./actions.js";
import { Cancelled } from "./scheduler.js";
import { thrownMessage } from "../provider/thrown.js";

/** How long a provider call may take when neither `customTimeouts` nor state say: a safety net against hangs. */
export const DEFAULT_OPERATION_TIMEOUT_MS = 30 * 60_000;

/** How many recent call ends {@link InFlight.callsPerSecond} measures over. */
const RATE_SAMPLES = 64;

/** Transient failures are retried at most this many times (within the call's time budget). */
export const MAX_RETRIES = 8;

/**
 * How long a provider call keeps retrying transient failures, from its first failure, unless the user says (`--retry-deadline`).
 * @example prog.stack({ retryDeadline: milliseconds(DEFAULT_RETRY_DEADLINE_MS / 5) })
 */
export const DEFAULT_RETRY_DEADLINE_MS = 5 * 60_000;

/** One provider call of an action, described as data plus the call itself. */
export interface ProviderCall<T> {
  /** The action making the call: reported as started once the call gets its slot; its kind names events. */
  action: Action;
  urn: Urn;
  type: string;
  /** Resource name, for messages. */
  name: string;
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

/** Full-jitter exponential backoff: up to 1 s, 2 s, 4 s … capped at 30 s. */
function backoff(attempt: number): number {
  return Math.round(Math.random() * Math.min(30_000, 1000 * 2 ** (attempt - 1)));
}

/**
 * Makes one provider call the way every action must: journaled as pending first (durably), bounded by its
 * time budget (the call's signal aborts, and a call that ignores it is abandoned), transient errors retried
 * with backoff while the budget lasts (each retry an event), the result checked before it is recorded.
 * A call that times out, is abandoned or returns nonsense keeps its pending record: the next run reads
 * the object back instead of guessing.
 */
export async function invoke<T>(ctx: ApplyContext, c: ProviderCall<T>): Promise<{ result: T; op: number }> {
  const op = await ctx.journal.begin({ kind: c.journal.kind, urn: c.urn, type: c.type, ...(c.journal.id !== undefined ? { id: c.journal.id } : {}) });
  // The record is durable before the call waits for a slot, so records are written while other calls run
  // (see InFlight). Should the run stop, or lose its lock, meanwhile, the call never starts.
  return inSlot(ctx, c.action, `${c.op} of "${c.name}"`, (pause) => attempt(ctx, c, op, pause), () => closeUnstarted(ctx, op));
}

/** Closes the record of a call that never started, if the journal can still write (else the next run checks it). */
function closeUnstarted(ctx: ApplyContext, op: number): void {
  try {
    ctx.journal.abort(op, []);
  } catch {
    // A journal that lost its lock or failed writes nothing more: the record stays pending, and is checked.
  }
}

/**
 * Runs an action's provider call (`what`, for messages) in one of the `parallel` slots once it is its
 * turn, reporting the action as started then. It starts only if the run is still on and still holds its
 * lock (its journal confirms): otherwise `notStarted` undoes what was prepared, and the action ends as
 * cancelled, or failed naming why.
 *
 * @example const found = await inSlot(ctx, action, `read of "zone"`, () => provider.read(args));
 */
export async function inSlot<T>(ctx: ApplyContext, action: Action, what: string, call: (pause: SlotPause) => Promise<T>, notStarted: () => void = () => {}): Promise<T> {
  let leave = await ctx.inFlight.enter();
  // While the call waits on the cloud (not calling it), its slot serves another call.
  const pause: SlotPause = async (p) => {
    leave();
    ctx.waiting(action, true);
    try {
      return await p;
    } finally {
      ctx.waiting(action, false);
      leave = await ctx.inFlight.enter();
    }
  };
  try {
    const stopped =
      ctx.inFlight.stopReason(ctx.cancel) ??
      (await ctx.journal.confirm().then(
        () => undefined,
        (e: unknown) => new Error(`${what} was not started: ${thrownMessage(e, "the journal")}`),
      ));
    if (stopped) {
      notStarted();
      throw stopped;
    }
    ctx.calling(action);
    return await call(pause);
  } finally {
    leave();
  }
}

/** Gives a call's slot back while it awaits `p`, and takes one again before it goes on (see `OpContext.pause`). */
export type SlotPause = <T>(p: Promise<T>) => Promise<T>;

/** The call itself, retried while its budget lasts: every way it can end, as {@link invoke} describes. */
async function attempt<T>(ctx: ApplyContext, c: ProviderCall<T>, op: number, pause: SlotPause): Promise<{ result: T; op: number }> {
  const budget = c.timeoutMs ?? DEFAULT_OPERATION_TIMEOUT_MS;
  const deadline = Date.now() + budget;
  let retryUntil: number | undefined; // set at the first transient failure: retries end then, whatever the budget
  for (let attempt = 1; ; attempt++) {
    const bound = ctx.inFlight.open(deadline - Date.now());
    let call: Promise<T> | undefined;
    try {
      const opCtx = ctx.opContext(c.urn, { signal: () => bound.signal, timeoutMs: budget, ...(c.instance ? { provider: c.instance } : {}) });
      opCtx.operation = operationRecord(ctx, op);
      opCtx.pause = pause;
      call = c.call(opCtx);
      const result = await bound.race(call);
      const bad = c.check?.(result);
      if (bad) throw new UncertainCall(`the provider of ${c.type} ${bad}. Nothing was recorded for this ${c.op}; if it made an object, the next run ${c.journal.id ? "checks it" : "cannot find it: delete it by hand or adopt it with state import"}.`);
      return { result, op };
    } catch (raw) {
      if (raw instanceof UncertainCall) throw raw;
      // Something that is not an Error (a string, null, a plain object) keeps what it said, and its fields for the classification.
      const e = raw instanceof Error ? raw : Object.assign(new Error(thrownMessage(raw, `the provider of ${c.type}`)), { cause: raw });
      if (bound.timedOut) throw new UncertainCall(`${c.op} of "${c.name}" did not finish within ${formatDuration(budget)} (${c.timeoutMs ? `customTimeouts.${c.op}` : "the default time limit"}): the call was abandoned and recorded as uncertain; the next run checks the object.`);
      if (ctx.stuck?.aborted) throw new UncertainCall(`${c.op} of "${c.name}": its provider call never settled and nothing else was left to run; it was abandoned and recorded as uncertain.`);
      if (ctx.abort?.aborted) {
        if (call) recordLate(ctx, c, op, call);
        throw new UncertainCall(`${c.op} of "${c.name}" was interrupted (cancelled twice); it is recorded as uncertain and checked by the next run.`);
      }
      const delay = backoff(attempt);
      const transient = isTransientError(e); // classified once, here: every later decision uses this answer
      retryUntil ??= Date.now() + ctx.retryDeadlineMs;
      if (transient && attempt <= MAX_RETRIES && Date.now() + delay < Math.min(deadline, retryUntil)) {
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
function operationRecord(ctx: ApplyContext, op: number): OperationRecord {
  let id: string | undefined;
  return {
    get id() {
      return (id ??= ctx.journal.operationId(op));
    },
    note: (d) => ctx.journal.note(op, d),
  };
}

/** Records the result of an abandoned call if it arrives while the journal still writes (and can be recorded). */
function recordLate<T>(ctx: ApplyContext, c: ProviderCall<T>, op: number, call: Promise<T>): void {
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

/** A transient failure that outlasted its retries: the last error, with how long it was retried. */
function gaveUp(err: Error, attempts: number, deadlineMs: number): Error {
  err.message = `${err.message} (a transient failure, tried ${attempts} time(s): retries stop ${formatDuration(deadlineMs as never)} after the first failure, or at the call's time limit; --retry-deadline sets it)`;
  return err;
}

/**
 * The provider calls in flight: at most `parallel` at once (each {@link InFlight.enter} takes a slot), and one
 * listener on the run's abandon/stuck signals to stop them all, so 10,000 calls do not add 10,000 listeners
 * (or leave 10,000 timers behind).
 *
 * The slots are here, not in the scheduler, so an action can make its pending record durable *before* it
 * waits for a slot: the scheduler runs a few more actions than there are slots, and their records are
 * written while earlier calls run. With one durable write per slot round, 10,000 fast calls at 10 at a time
 * spent two thirds of their time waiting on the journal; staged ahead, one write covers many rounds.
 */
export class InFlight {
  private readonly calls = new Set<Bounded>();
  private reason: unknown;
  private free: number;
  private readonly queue: (() => void)[] = [];
  private head = 0;
  // One timer for every call in flight, set for the earliest deadline: a timer per call was 100,000 timers
  // to make and clear at 100,000 calls.
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Number.POSITIVE_INFINITY;
  /** When the last calls ended (a ring of {@link RATE_SAMPLES}), for {@link InFlight.callsPerSecond}. */
  private readonly ended: number[] = [];
  private endedAt = 0;

  constructor(
    signals: readonly (AbortSignal | undefined)[],
    /** Calls at once (`parallel`). */
    readonly slots: number = Number.POSITIVE_INFINITY,
  ) {
    this.free = slots;
    for (const s of signals) {
      if (!s) continue;
      if (s.aborted) this.reason = s.reason;
      else s.addEventListener("abort", () => this.abortAll(s.reason), { once: true });
    }
  }

  private abortAll(reason: unknown): void {
    this.reason = reason;
    for (const c of this.calls) c.abort(reason);
  }

  /**
   * Waits for a free slot (first come, first served); resolves with the function that gives it back.
   * @example const leave = await inFlight.enter(); try { await call(); } finally { leave(); }
   */
  enter(): Promise<() => void> {
    let left = false;
    const leave = () => {
      if (left) return;
      left = true;
      this.ended[this.endedAt++ % RATE_SAMPLES] = performance.now();
      this.release();
    };
    if (this.free > 0) {
      this.free--;
      return Promise.resolve(leave);
    }
    return new Promise((resolve) => this.queue.push(() => resolve(leave)));
  }

  private release(): void {
    const next = this.queue[this.head];
    if (next === undefined) {
      this.free++;
      return;
    }
    this.queue[this.head++] = undefined as never;
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
    next(); // the slot passes straight to the next caller
  }

  /**
   * How many calls ended per second lately (over the last 64), or 0 until 64 have ended: how fast the
   * provider answers, which decides how far ahead records are worth writing.
   * @example inFlight.callsPerSecond() // 9,800 for an in-memory provider; 10 for ten 1-second calls at once
   */
  callsPerSecond(): number {
    if (this.endedAt < RATE_SAMPLES) return 0;
    const newest = this.ended[(this.endedAt - 1) % RATE_SAMPLES]!;
    const oldest = this.ended[this.endedAt % RATE_SAMPLES]!;
    return ((RATE_SAMPLES - 1) * 1000) / Math.max(newest - oldest, 0.001);
  }

  /**
   * Why a call that just got its slot must not start: the run was cancelled (it counts as skipped) or
   * abandoned (it fails, naming why); undefined when it may start.
   */
  stopReason(cancel: AbortSignal | undefined): Error | undefined {
    if (cancel?.aborted) return new Cancelled();
    if (this.reason !== undefined) return new Error(`not started: the run was stopped before this call's turn (${this.reason instanceof Error ? this.reason.message : String(this.reason)})`);
    return undefined;
  }

  /** A bound for one call, ended when its time is up or the run is abandoned; `dispose` when it ends. */
  open(ms: number): Bounded {
    const b = new Bounded(Date.now() + Math.max(1, ms), this.calls, this.reason);
    if (b.deadline < this.timerAt) this.arm();
    return b;
  }

  /** Sets the one timer for the earliest deadline of the calls in flight (at most `parallel`: a short scan). */
  private arm(): void {
    let next = Number.POSITIVE_INFINITY;
    for (const c of this.calls) next = Math.min(next, c.deadline);
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = next;
    if (next === Number.POSITIVE_INFINITY) return;
    this.timer = setTimeout(() => this.expireDue(), Math.max(1, next - Date.now()));
    this.timer.unref();
  }

  private expireDue(): void {
    this.timer = undefined;
    const now = Date.now();
    for (const c of [...this.calls]) if (c.deadline <= now) c.expire();
    this.arm();
  }
}

/**
 * One call's time bound, ended by {@link InFlight} at its deadline. Its AbortSignal is made only when the
 * provider asks for it (most never do, and 10,000 controllers cost more than the calls of a fast provider);
 * {@link Bounded.race} ends the wait for a call that ignores it.
 */
export class Bounded {
  timedOut = false;
  private ctl: AbortController | undefined;
  private reason: unknown;
  private ended: boolean;
  private readonly stops = new Set<(reason: unknown) => void>();

  constructor(
    /** When the call's time is up (ms since the epoch): {@link InFlight} then ends it. */
    readonly deadline: number,
    private readonly calls: Set<Bounded>,
    abandoned: unknown,
  ) {
    this.ended = abandoned !== undefined;
    if (this.ended) this.reason = abandoned;
    else calls.add(this);
  }

  /** The signal handed to the provider: aborted when the bound ends. */
  get signal(): AbortSignal {
    if (!this.ctl) {
      this.ctl = new AbortController();
      if (this.ended) this.ctl.abort(this.reason);
    }
    return this.ctl.signal;
  }

  /** Settles like `p`, or rejects with the reason as soon as the bound ends (a provider may ignore its signal). */
  race<T>(p: Promise<T>): Promise<T> {
    if (this.ended) return Promise.reject(this.reason);
    return new Promise<T>((resolve, reject) => {
      this.stops.add(reject);
      p.then(
        (v) => {
          this.stops.delete(reject);
          resolve(v);
        },
        (e: unknown) => {
          this.stops.delete(reject);
          reject(e);
        },
      );
    });
  }

  /** Ends the bound: the signal aborts and every race rejects with `reason`. */
  abort(reason: unknown): void {
    if (this.ended) return;
    this.ended = true;
    this.reason = reason;
    this.ctl?.abort(reason);
    for (const stop of this.stops) stop(reason);
    this.stops.clear();
  }

  /** Ends the bound because its time is up. */
  expire(): void {
    this.timedOut = true;
    this.abort(new Error("timed out"));
  }

  dispose(): void {
    this.calls.delete(this);
  }
}

/** A create's result must name the object and describe it. */
export function checkCreated(r: { id?: unknown; outputs?: unknown } | undefined): string | undefined {
  if (!r || typeof r !== "object") return `returned ${String(r)} from create instead of { id, outputs }`;
  if (typeof r.id !== "string" || r.id.length === 0) return `returned no id from create (got ${JSON.stringify(r.id) ?? "undefined"})`;
  return undefined;
}
