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

/** The longest pause between two polling rounds. */
const MAX_PAUSE_MS = 10_000;
/** The first pause: most requests of simple types finish within a second or two. */
const FIRST_PAUSE_MS = 500;
/** Page size of ListResourceRequests (the API's maximum). */
const PAGE = 100;

interface Waiter {
  resolve: (e: ProgressEvent) => void;
  reject: (e: unknown) => void;
}

/** How many calls polling made, for the bench and tests. */
export interface PollStats {
  rounds: number;
  listCalls: number;
  statusCalls: number;
}

/**
 * The requests of one Cloud Control configuration (account and region) being waited for.
 *
 * @example const done = await pollerFor(cc, ctx.clock).wait(ctx, (await cc.create(ctx, input)));
 */
export class RequestPoller {
  private readonly waiting = new Map<string, Waiter[]>();
  /** Set when the credentials may not list requests (`cloudformation:ListResourceRequests`): each is asked directly. */
  private listDenied = false;
  private loop: Promise<void> | undefined;
  private retryAfterMs = 0;
  readonly stats: PollStats = { rounds: 0, listCalls: 0, statusCalls: 0 };

  constructor(private readonly cc: CloudControl) {}

  /**
   * Resolves with the request's final progress event (SUCCESS, FAILED or CANCEL_COMPLETE). Cancelling `ctx`
   * stops the wait, not the request: AWS goes on with it.
   */
  wait(ctx: Pick<CallContext, "signal" | "clock">, event: ProgressEvent): Promise<ProgressEvent> {
    if (isFinished(event) || !event.RequestToken) return Promise.resolve(event);
    const token = event.RequestToken;
    this.noteRetryAfter(event);
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
      const list = this.waiting.get(token);
      if (list) list.push(w);
      else this.waiting.set(token, [w]);
      this.loop ??= this.run(ctx.clock).finally(() => (this.loop = undefined));
    });
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
        this.noteRetryAfter(e);
        if (isFinished(e)) this.settle(e);
      }
      next = out.NextToken;
      if (!next) break;
    }
  }

  private drop(token: string, w: Waiter): void {
    const list = this.waiting.get(token)?.filter((x) => x !== w) ?? [];
    if (list.length) this.waiting.set(token, list);
    else this.waiting.delete(token);
  }

  private noteRetryAfter(e: ProgressEvent): void {
    if (e.RetryAfter) this.retryAfterMs = Math.max(this.retryAfterMs, e.RetryAfter.getTime() - Date.now());
  }

  private settle(e: ProgressEvent): void {
    const token = e.RequestToken!;
    const list = this.waiting.get(token);
    this.waiting.delete(token);
    for (const w of list ?? []) w.resolve(e);
  }

  /** Rounds while anything is waited for: pause (growing, or as AWS asks), then one poll for all. */
  private async run(clock: Clock): Promise<void> {
    for (let pause = FIRST_PAUSE_MS; this.waiting.size; pause = Math.min(MAX_PAUSE_MS, Math.round(pause * 1.5))) {
      const ms = Math.max(pause, this.retryAfterMs);
      this.retryAfterMs = 0;
      await clock.sleep(milliseconds(ms));
      if (!this.waiting.size) return;
      try {
        await this.poll(clock);
      } catch (e) {
        // A transient failure just costs a round; anything else ends every wait with its error.
        if (isTransientError(e)) continue;
        for (const [token, list] of [...this.waiting]) {
          this.waiting.delete(token);
          for (const w of list) w.reject(e);
        }
      }
    }
  }

  /** One round: the list of requests (as many pages as the requests waited for need), then status calls for any not listed. */
  private async poll(clock: Clock): Promise<void> {
    this.stats.rounds++;
    const ctx = { clock, signal: new AbortController().signal };
    const wanted = new Set(this.waiting.keys());
    if (!this.listDenied) await this.pollList(ctx, wanted);
    for (const token of wanted) {
      if (!this.waiting.has(token)) continue;
      this.stats.statusCalls++;
      const { ProgressEvent: e } = await this.cc.status(ctx, token);
      if (e && isFinished(e)) this.settle(e);
    }
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
