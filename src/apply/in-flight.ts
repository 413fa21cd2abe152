import { Cancelled } from "./scheduler.js";

/** How many recent call ends {@link InFlight.callsPerSecond} measures over. */
const RATE_SAMPLES = 64;

/**
 * The provider calls in flight: at most `parallel` at once (each {@link InFlight.enter} takes a slot), and one
 * listener on the run's `abandonCalls` and `idle` signals to stop them all, so a call adds no listener (nor
 * leaves a timer behind).
 *
 * The slots are here, not in the scheduler, so an action can make its pending record durable *before* it
 * waits for a slot: the scheduler runs a few more actions than there are slots, and their records are
 * written while earlier calls run. With one durable write per slot round, fast calls would mostly wait on
 * the journal; staged ahead, one write covers many rounds.
 */
export class InFlight {
  private readonly calls = new OpenBounds();
  private reason: unknown;
  private free: number;
  private readonly queue: (() => void)[] = [];
  private head = 0;
  // One timer for every call in flight, set for the earliest deadline: a timer per call would be one more to
  // make and clear for every call.
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Number.POSITIVE_INFINITY;
  /** When the last calls ended (a ring of {@link RATE_SAMPLES}), for {@link InFlight.callsPerSecond}. */
  private readonly ended: number[] = [];
  private endedAt = 0;
  private readonly unlisten: (() => void)[] = [];

  constructor(
    signals: readonly (AbortSignal | undefined)[],
    /** Calls at once (`parallel`). */
    readonly slots: number = Number.POSITIVE_INFINITY,
  ) {
    this.free = slots;
    for (const s of signals) {
      if (!s) continue;
      if (s.aborted) this.reason = s.reason;
      else {
        const onAbort = () => this.abortAll(s.reason);
        s.addEventListener("abort", onAbort, { once: true });
        this.unlisten.push(() => s.removeEventListener("abort", onAbort));
      }
    }
  }

  /**
   * Stops listening to the signals it was given and drops its timer, for one made for a while on a signal
   * that outlives it (a run's reads on the stack's abort signal, which a program may reuse for many runs).
   * @example const reads = new InFlight([signal]); try { … } finally { reads.close(); }
   */
  close(): void {
    for (const f of this.unlisten.splice(0)) f();
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
  }

  private abortAll(reason: unknown): void {
    this.reason = reason;
    for (const c of this.calls.list()) c.abort(reason);
  }

  /**
   * Waits for a free slot (first come, first served); resolves with the function that gives it back.
   * @example const leave = await inFlight.enter(); try { await call(); } finally { leave(); }
   */
  enter(): Promise<() => void> {
    const leave = this.tryEnter();
    if (leave) return Promise.resolve(leave);
    return new Promise((resolve) => this.queue.push(() => resolve(this.leaver())));
  }

  /**
   * Takes a free slot at once, if there is one and nobody is queued for it: the function that gives it
   * back, else undefined (then {@link InFlight.enter} queues). Most calls of a fast provider find a slot
   * free, and go on without an event-loop turn.
   * @example const leave = inFlight.tryEnter() ?? (await inFlight.enter());
   */
  tryEnter(): (() => void) | undefined {
    if (this.free <= 0) return undefined;
    this.free--;
    return this.leaver();
  }

  /** Gives a slot back once, however often it is called. */
  private leaver(): () => void {
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.ended[this.endedAt++ % RATE_SAMPLES] = performance.now();
      this.release();
    };
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
   * Why a call that just got its slot must not start: the run stops starting work (`stopStarting`: it counts
   * as skipped) or abandoned its calls (it fails, naming why); undefined when it may start.
   */
  stopReason(stopStarting: AbortSignal | undefined): Error | undefined {
    if (stopStarting?.aborted) return new Cancelled();
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
    for (const c of this.calls.list()) next = Math.min(next, c.deadline);
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
    for (const c of [...this.calls.list()]) if (c.deadline <= now) c.expire();
    this.arm();
  }
}

/**
 * The bounds of the calls in flight, in a list each knows its place in: added and removed once per call,
 * which in a `Set` rehashed every few hundred calls (each new table outliving the young generation).
 */
class OpenBounds {
  private readonly items: Bounded[] = [];

  /** The calls in flight (a live view: copy it before ending any). */
  list(): readonly Bounded[] {
    return this.items;
  }

  add(b: Bounded): void {
    b.listedAt = this.items.length;
    this.items.push(b);
  }

  /** Removes `b` (if it is in), moving the last call into its place. */
  delete(b: Bounded): void {
    const i = b.listedAt;
    if (i < 0 || this.items[i] !== b) return;
    const last = this.items.pop()!;
    if (last !== b) {
      this.items[i] = last;
      last.listedAt = i;
    }
    b.listedAt = -1;
  }
}

/**
 * One call's time bound, ended by {@link InFlight} at its deadline. Its AbortSignal is made only when the
 * provider asks for it (most never do, and a controller per call costs more than a fast provider's call);
 * {@link Bounded.race} ends the wait for a call that ignores it.
 */
export class Bounded {
  timedOut = false;
  /** @internal Its place in the calls in flight, -1 when it is not among them. */
  listedAt = -1;
  private ctl: AbortController | undefined;
  private reason: unknown;
  private ended: boolean;
  /** Rejects the race in progress (a call is raced once at a time): a set per call cost more than the call. */
  private stop: ((reason: unknown) => void) | undefined;

  constructor(
    /** When the call's time is up (ms since the epoch): {@link InFlight} then ends it. */
    readonly deadline: number,
    private readonly calls: OpenBounds,
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
    if (this.stop) throw new Error("Bounded.race: a call is already being raced");
    return new Promise<T>((resolve, reject) => {
      this.stop = reject;
      p.then(
        (v) => {
          this.stop = undefined;
          resolve(v);
        },
        (e: unknown) => {
          this.stop = undefined;
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
    const stop = this.stop;
    this.stop = undefined;
    stop?.(reason);
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
