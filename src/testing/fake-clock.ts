import type { Clock } from "../provider/provider.js";
import type { Duration } from "../core/duration.js";

interface Timer {
  at: number;
  seq: number;
  resolve: () => void;
}

/** Lets callbacks of the current turn (and the I/O they start) run before time moves on. */
const nextTurn = () => new Promise<void>((r) => setImmediate(r));

/**
 * A clock for tests: time stands still until the test moves it, so a 75-minute timeout is tested in
 * milliseconds. Give it to a stack (`program.stack({ clock })`) or to a provider's `ctx.clock`.
 *
 * In `auto` mode, whenever something sleeps, the clock jumps straight to the earliest pending timer; after
 * each one it lets the woken code run until it sleeps again (up to 20 event-loop turns) — the program runs
 * as if time flew, each timer firing in the order real time would fire it, provided woken code that does
 * real I/O sleeps again within those turns.
 *
 * @example
 * const clock = new FakeClock();
 * const done = clock.sleep(minutes(5));
 * await clock.advance(minutes(5)); // `done` resolves
 *
 * const auto = new FakeClock({ auto: true });
 * await auto.sleep(hours(2)); // returns at once; auto.now() moved 2 h
 */
export class FakeClock implements Clock {
  private t: number;
  private seq = 0;
  private timers: Timer[] = [];
  private readonly auto: boolean;
  private draining = false;

  constructor(opts: { start?: number; auto?: boolean } = {}) {
    this.t = opts.start ?? Date.UTC(2026, 0, 1);
    this.auto = opts.auto ?? false;
  }

  /** The fake time, in ms since the epoch. */
  now(): number {
    return this.t;
  }

  /** Timers not yet fired. */
  get pending(): number {
    return this.timers.length;
  }

  /**
   * Resolves once the fake time has moved `d` on (by {@link advance}, or at once in `auto` mode); rejects when
   * `signal` aborts first.
   *
   * @example await clock.sleep(seconds(30));
   */
  sleep(d: Duration | number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer: Timer = { at: this.t + Math.max(0, d), seq: this.seq++, resolve: () => {} };
      const onAbort = () => {
        this.timers = this.timers.filter((x) => x !== timer);
        reject(signal!.reason);
      };
      timer.resolve = () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.timers.push(timer);
      if (this.auto) void this.drain();
    });
  }

  /**
   * Moves time forward by `ms`, firing every timer that falls due on the way, in order; each fired timer's
   * continuation runs until it sleeps again (up to 20 event-loop turns) before the next one fires, so a
   * polling loop makes every poll that falls in the span.
   *
   * @example await clock.advance(seconds(30));
   */
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    // Work already under way (a run that is about to sleep) gets to schedule its timer before time moves.
    await this.settle();
    for (;;) {
      const next = this.earliest();
      if (!next || next.at > end) break;
      this.fire(next);
      await this.settle();
    }
    this.t = end;
    await nextTurn();
  }

  private earliest(): Timer | undefined {
    let best: Timer | undefined;
    for (const x of this.timers) if (!best || x.at < best.at || (x.at === best.at && x.seq < best.seq)) best = x;
    return best;
  }

  private fire(x: Timer): void {
    this.timers = this.timers.filter((y) => y !== x);
    this.t = Math.max(this.t, x.at);
    x.resolve();
  }

  /**
   * After a timer fires, lets what it woke run until it schedules its next timer (or up to 20 turns pass),
   * so another pending timer does not fire first just because the woken code took a few turns.
   */
  private async settle(): Promise<void> {
    const before = this.seq;
    for (let i = 0; i < 20 && this.seq === before; i++) await nextTurn();
    await nextTurn();
  }

  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      // Two turns: the sleeper's caller and whatever it kicked off get to schedule their own timers first,
      // so the earliest timer really is the earliest.
      await nextTurn();
      await nextTurn();
      for (let next = this.earliest(); next; next = this.earliest()) {
        this.fire(next);
        await this.settle();
      }
    } finally {
      this.draining = false;
    }
  }
}
