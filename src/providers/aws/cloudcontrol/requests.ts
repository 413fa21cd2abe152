/**
 * Cloud Control requests in flight, polled together: every round makes one `ListResourceRequests` call (more
 * pages only when more than a page of requests is in flight) for all of them, instead of one status call
 * each. A request the list does not show is asked about directly.
 */
import type { ProgressEvent } from "@aws-sdk/client-cloudcontrol";
import type { Clock } from "../../../provider/provider.js";
import { milliseconds } from "../../../core/duration.js";
import { isTransientError } from "../../../core/errors.js";
import { isAccessDenied } from "../call.js";
import type { CallContext, CloudControl } from "./client.js";

/** Statuses after which a request changes no more. */
const TERMINAL = new Set(["SUCCESS", "FAILED", "CANCEL_COMPLETE"]);

/** True when a request has finished, one way or another. @example isFinished({ OperationStatus: "SUCCESS" }) // true */
export function isFinished(e: ProgressEvent): boolean {
  return TERMINAL.has(e.OperationStatus ?? "");
}

/**
 * Each request's own schedule: first checked soon after it starts (most requests of simple types finish
 * within a second or two), then with pauses growing with its age (a tenth of it), so a request is never
 * noticed much later than it finished, relative to how long it took, yet a long one (a database, minutes)
 * costs few checks.
 */
const FIRST_CHECK_MS = 250;
const PAUSE_OF_AGE = 0.1;
const MIN_PAUSE_MS = 250;
const MAX_PAUSE_MS = 10_000;
/** Rounds are at least this far apart, however many requests fall due in between: one round serves them all. */
const MIN_ROUND_GAP_MS = 250;
/** Page size of ListResourceRequests (the API's maximum). */
const PAGE = 100;

interface Waiter {
  resolve: (e: ProgressEvent) => void;
  reject: (e: unknown) => void;
}

/** A request waited for: who waits, when it started and when it is next due to be checked. */
interface Tracked {
  waiters: Waiter[];
  since: number;
  due: number;
  /** Not to be asked about before this time (the request's `RetryAfter`). */
  notBefore: number;
}

/** How many calls polling made, for the bench and tests. */
export interface PollStats {
  rounds: number;
  listCalls: number;
  statusCalls: number;
}

/** The pause before a request that is `ageMs` old is checked again. */
const pauseFor = (ageMs: number): number => Math.min(MAX_PAUSE_MS, Math.max(MIN_PAUSE_MS, Math.round(ageMs * PAUSE_OF_AGE)));

/**
 * The requests of one Cloud Control configuration (account and region) being waited for. Every request has
 * its own schedule; a round runs when the first of them is due, and its one `ListResourceRequests` call
 * reports on all of them, so a request started just now is never stuck behind an old one's long pause.
 *
 * @example const done = await pollerFor(cc, ctx.clock).wait(ctx, (await cc.create(ctx, input)));
 */
export class RequestPoller {
  private readonly waiting = new Map<string, Tracked>();
  /** Set when the credentials may not list requests (`cloudformation:ListResourceRequests`): each is asked directly. */
  private listDenied = false;
  private loop: Promise<void> | undefined;
  /** Ends the loop's pause early, when a request is due before it ends. */
  private wake: { at: number; controller: AbortController } | undefined;
  private lastRound = -Infinity;
  readonly stats: PollStats = { rounds: 0, listCalls: 0, statusCalls: 0 };

  constructor(private readonly cc: CloudControl) {}

  /**
   * Resolves with the request's final progress event (SUCCESS, FAILED or CANCEL_COMPLETE). Cancelling `ctx`
   * stops the wait, not the request: AWS goes on with it.
   */
  wait(ctx: Pick<CallContext, "signal" | "clock">, event: ProgressEvent): Promise<ProgressEvent> {
    if (isFinished(event) || !event.RequestToken) return Promise.resolve(event);
    const token = event.RequestToken;
    return new Promise<ProgressEvent>((resolve, reject) => {
      if (ctx.signal.aborted) return reject(ctx.signal.reason);
      const w: Waiter = {
        resolve: (e) => {
          ctx.signal.removeEventListener("abort", onAbort);
          resolve(e);
        },
        reject: (e) => {
          ctx.signal.removeEventListener("abort", onAbort);
          reject(e);
        },
      };
      const onAbort = () => {
        this.drop(token, w);
        reject(ctx.signal.reason);
      };
      ctx.signal.addEventListener("abort", onAbort, { once: true });
      this.track(token, w, event, ctx.clock.now());
      if (this.loop) this.wakeBy(this.waiting.get(token)!.due);
      else this.loop = this.run(ctx.clock).finally(() => (this.loop = undefined));
    });
  }

  /** Adds a waiter, and the request's schedule when it is new. */
  private track(token: string, w: Waiter, event: ProgressEvent, now: number): void {
    let t = this.waiting.get(token);
    if (!t) this.waiting.set(token, (t = { waiters: [], since: now, due: now + FIRST_CHECK_MS, notBefore: 0 }));
    t.waiters.push(w);
    this.noteRetryAfter(t, event, now);
  }

  /** Ends the loop's pause if it would last beyond `due`. */
  private wakeBy(due: number): void {
    if (this.wake && due < this.wake.at) this.wake.controller.abort();
  }

  /** Pages through the requests, settling those waited for that finished; `wanted` keeps those not listed. */
  private async pollList(ctx: Pick<CallContext, "clock" | "signal">, wanted: Set<string>): Promise<void> {
    const maxPages = Math.ceil(wanted.size / PAGE) + 1;
    let next: string | undefined;
    for (let page = 0; page < maxPages && wanted.size; page++) {
      this.stats.listCalls++;
      let out;
      try {
        out = await this.cc.listRequests(ctx, { MaxResults: PAGE, ...(next ? { NextToken: next } : {}) });
      } catch (e) {
        if (!isAccessDenied(e)) throw e;
        // A policy that allows the operations but not listing: slower (a call per request), never stuck.
        this.listDenied = true;
        return;
      }
      for (const e of out.ResourceRequestStatusSummaries ?? []) {
        if (!e.RequestToken || !wanted.delete(e.RequestToken)) continue;
        this.observed(e, ctx.clock.now());
      }
      next = out.NextToken;
      if (!next) break;
    }
  }

  /** What a round learnt of one request: its end, or when AWS asks to be asked again. */
  private observed(e: ProgressEvent, now: number): void {
    if (isFinished(e)) return this.settle(e);
    const t = this.waiting.get(e.RequestToken!);
    if (t) this.noteRetryAfter(t, e, now);
  }

  private drop(token: string, w: Waiter): void {
    const t = this.waiting.get(token);
    if (!t) return;
    t.waiters = t.waiters.filter((x) => x !== w);
    if (!t.waiters.length) this.waiting.delete(token);
  }

  /** `RetryAfter` is a wall-clock time: it becomes a time on the run's clock by its distance from now. */
  private noteRetryAfter(t: Tracked, e: ProgressEvent, now: number): void {
    if (e.RetryAfter) t.notBefore = Math.max(t.notBefore, now + (e.RetryAfter.getTime() - Date.now()));
  }

  private settle(e: ProgressEvent): void {
    const token = e.RequestToken!;
    const t = this.waiting.get(token);
    this.waiting.delete(token);
    for (const w of t?.waiters ?? []) w.resolve(e);
  }

  /** When the next round runs: when the first request is due, but not sooner than the gap after the last. */
  private nextRound(): number {
    let first = Infinity;
    for (const t of this.waiting.values()) first = Math.min(first, Math.max(t.due, t.notBefore));
    return Math.max(first, this.lastRound + MIN_ROUND_GAP_MS);
  }

  /** Pauses until `at`, or until a request that is due sooner arrives. */
  private async pauseUntil(clock: Clock, at: number): Promise<void> {
    const controller = new AbortController();
    this.wake = { at, controller };
    try {
      await clock.sleep(milliseconds(at - clock.now()), controller.signal);
    } catch (e) {
      if (!controller.signal.aborted) throw e;
    } finally {
      this.wake = undefined;
    }
  }

  /** Rounds while anything is waited for: each when the first request is due, one poll for all. */
  private async run(clock: Clock): Promise<void> {
    while (this.waiting.size) {
      const at = this.nextRound();
      if (at > clock.now()) {
        await this.pauseUntil(clock, at);
        continue;
      }
      this.lastRound = clock.now();
      let polled = [...this.waiting.keys()];
      try {
        const skipped = await this.poll(clock);
        if (skipped.size) polled = polled.filter((t) => !skipped.has(t));
      } catch (e) {
        // A transient failure just costs a round; anything else ends every wait with its error.
        if (!isTransientError(e)) {
          for (const [token, t] of [...this.waiting]) {
            this.waiting.delete(token);
            for (const w of t.waiters) w.reject(e);
          }
        }
      }
      this.reschedule(polled, clock.now());
    }
  }

  /** Every request a round reported on is next due after its own pause, from now. */
  private reschedule(polled: string[], now: number): void {
    for (const token of polled) {
      const t = this.waiting.get(token);
      if (t) t.due = now + pauseFor(now - t.since);
    }
  }

  /**
   * One round: the list of requests (as many pages as the requests waited for need), then a status call for
   * each one not listed that is due. Resolves with those not reported on (not listed, and not yet due).
   */
  private async poll(clock: Clock): Promise<Set<string>> {
    this.stats.rounds++;
    const ctx = { clock, signal: new AbortController().signal };
    const now = clock.now();
    const wanted = new Set(this.waiting.keys());
    if (!this.listDenied) await this.pollList(ctx, wanted);
    const skipped = new Set<string>();
    for (const token of wanted) {
      const t = this.waiting.get(token);
      if (!t) continue;
      // Asked one by one, a request costs a call each time: only when it is due.
      if (Math.max(t.due, t.notBefore) > now) {
        skipped.add(token);
        continue;
      }
      this.stats.statusCalls++;
      const { ProgressEvent: e } = await this.cc.status(ctx, token);
      if (e) this.observed(e, clock.now());
    }
    return skipped;
  }
}

/**
 * Pollers by configuration (the API object: one per client, and a client per region, endpoint, profile and
 * credentials) and by clock. A request token is only visible to the account that made it, and a poller
 * sleeps on the clock of the run that started it: keyed by less (the region alone, as before), a run with
 * other credentials had its requests listed with the first run's, or one test's waits driven by another's
 * fake clock. Weak keys: a run's clock goes with the run.
 */
const pollers = new WeakMap<CloudControl, WeakMap<Clock, RequestPoller>>();

/**
 * The poller shared by every request of one configuration and clock in this process: the requests of one
 * run (and of runs sharing their credentials and clock) are listed together, one call per round.
 *
 * @example const final = await pollerFor(cc, ctx.clock).wait(ctx, event);
 */
export function pollerFor(cc: CloudControl, clock: Clock): RequestPoller {
  let byClock = pollers.get(cc);
  if (!byClock) pollers.set(cc, (byClock = new WeakMap()));
  let p = byClock.get(clock);
  if (!p) byClock.set(clock, (p = new RequestPoller(cc)));
  return p;
}
