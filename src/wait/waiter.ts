import type { Urn } from "../core/urn.js";
import type { Clock, OpContext, Provider, ProviderInstance } from "../provider/provider.js";
import { isTransientError } from "../core/errors.js";
import type { Props } from "../state/types.js";
import { evaluate, formatPredicate, observe, type Predicate } from "../core/predicate.js";
import type { Observation, WaitOutcome } from "./outcome.js";
import { thrownMessage } from "../core/thrown.js";

/** The object a wait reads: the arguments of its provider's `read`. */
export interface WaitTarget {
  urn: Urn;
  id: string;
  inputs: Props;
  outputs: Props;
}

/** One wait to run: its target, its conditions and its budget. */
export interface WaitRun {
  /** The wait's identity. */
  urn: Urn;
  /** The target's name in predicate texts (`cert`). */
  subject: string;
  target: WaitTarget;
  /** Waits whose targets share a provider (and provider instance) are read together, one `readMany` per round. */
  provider: Provider<Props, Props>;
  /** The target's configured provider instance (region, credentials); absent for the default. */
  instance?: ProviderInstance;
  until: Predicate;
  failWhen?: Predicate;
  /** An attribute holding the provider's reason for a failure (e.g. ACM's `failureReason`). */
  reasonAttribute?: string;
  timeoutMs: number;
  /** The longest pause between two reads. */
  intervalMs: number;
  /** Top-level attributes whose values are secret: observed as `[secret]`. */
  secret: ReadonlySet<string>;
  /** Called after every read with what the predicates read. */
  onPoll?: (poll: WaitPoll) => void;
}

/** What one read of a wait's target showed. */
export interface WaitPoll {
  reads: number;
  elapsedMs: number;
  /** The values the predicates read; absent when the read failed or found nothing. */
  observed?: Observation[];
  /** Set when the read failed (transient, retried) or found nothing (within the grace). */
  note?: string;
}

/** What one read of a round gave a wait: the target's attributes, an error, or nothing in time. */
interface ReadResult {
  value?: Props;
  error?: unknown;
  /** The read was aborted by the waits' own deadline. */
  outOfTime?: boolean;
}

/** What a satisfied wait hands on: the snapshot from the read that satisfied `until`. */
export type WaitResult = { outcome: WaitOutcome; snapshot?: Props };

/** Timing of the polling: fixed values that suit real clouds. */
const POLL = {
  /** First pause after the immediate first read. */
  minDelayMs: 500,
  /** Each pause is this much longer than the previous one, up to the wait's interval. */
  growth: 1.5,
  /** Pauses are shortened by up to this fraction at random, so many waits do not read in lock-step. */
  jitter: 0.2,
  /** A target must be missing for this long (and on two reads in a row) before the wait says "not found". */
  notFoundGraceMs: 5000,
  /**
   * Before a round with first reads in it, waits that start within this time join it: waits released
   * together (their dependencies finishing a few ms apart) share their first `readMany`. While waits keep
   * joining, the window slides on, up to `maxGatherMs` in all.
   */
  gatherMs: 50,
  /** The longest a first read is held back for others to join (no later than a second read would come). */
  maxGatherMs: 500,
  /**
   * The least time a read is given, even at the deadline (at most half the wait's timeout): the last read is
   * made at the deadline so that a timeout reports what the target showed then, and it needs time to answer
   * (a read left 1 ms was aborted before it could).
   */
  lastReadMs: 2000,
} as const;

interface Entry {
  run: WaitRun;
  start: number;
  deadline: number;
  nextAt: number;
  delay: number;
  reads: number;
  goneSince?: number;
  gone: number;
  lastObserved?: Observation[];
  done: (r: WaitResult) => void;
}

/** Waits sharing a provider: polled in rounds by one loop. */
interface Group {
  key: string;
  provider: Provider<Props, Props>;
  instance?: ProviderInstance;
  entries: Set<Entry>;
  /** When the last wait joined: the gather window ends `gatherMs` after it. */
  lastJoinAt: number;
  running: boolean;
  /** Interrupts the loop's sleep when a wait joins that is due sooner. */
  wake?: AbortController;
}

/** Counters for the benchmark and tests. */
export interface PollStats {
  /** Poll rounds: each reads every wait of one provider that is due. */
  rounds: number;
  /** Provider calls made (`readMany` counts once; `read` once per target). */
  calls: number;
}

/**
 * Polls the targets of waits until their predicates hold, batching: all waits whose targets share a
 * provider are read in rounds, one `readMany` call per round for every wait that is due or nearly
 * (providers without `readMany` get one `read` per target). The first read comes once waits released
 * together have gathered (50 ms, longer while more keep joining); then the pauses grow from
 * `minDelayMs` by `growth` up to the wait's interval, with jitter.
 *
 * @example
 * const poller = new WaitPoller({ clock, opContext });
 * const { outcome, snapshot } = await poller.wait({ urn, subject: "cert", target, provider, until, timeoutMs, intervalMs, secret: new Set() });
 */
export class WaitPoller {
  readonly stats: PollStats = { rounds: 0, calls: 0 };
  private readonly groups = new Map<string, Group>();
  private readonly providerIds = new WeakMap<Provider<Props, Props>, number>();
  private nextProviderId = 0;
  private readonly random: () => number;

  constructor(
    private readonly opts: {
      clock: Clock;
      /** The context of one round's provider call; `timeoutMs` is what remains of the waits' budget. */
      opContext: (urn: Urn, timeoutMs: number, provider?: ProviderInstance) => OpContext;
      /** Cancels every wait (they end `cancelled` within a moment). */
      signal?: AbortSignal;
      /** Source of jitter (tests fix it). */
      random?: () => number;
    },
  ) {
    this.random = opts.random ?? Math.random;
  }

  /** Runs one wait to its end. Never rejects: every end is an outcome. */
  wait(run: WaitRun): Promise<WaitResult> {
    const { clock, signal } = this.opts;
    if (signal?.aborted) return Promise.resolve({ outcome: { kind: "cancelled", reads: 0, elapsedMs: 0, observed: undefined } });
    return new Promise<WaitResult>((resolve) => {
      const now = clock.now();
      const entry: Entry = { run, start: now, deadline: now + run.timeoutMs, nextAt: now, delay: 0, reads: 0, gone: 0, done: resolve };
      // One batch per provider *and* instance: a readMany cannot span regions or credentials.
      let pid = this.providerIds.get(run.provider);
      if (pid === undefined) this.providerIds.set(run.provider, (pid = this.nextProviderId++));
      const key = `${pid}|${run.instance ? JSON.stringify([run.instance.name, run.instance.settings]) : ""}`;
      let group = this.groups.get(key);
      if (!group) {
        group = { key, provider: run.provider, entries: new Set(), lastJoinAt: now, running: false, ...(run.instance ? { instance: run.instance } : {}) };
        this.groups.set(key, group);
      }
      group.entries.add(entry);
      group.lastJoinAt = now;
      if (group.running) group.wake?.abort();
      else void this.loop(group).catch(() => {});
    });
  }

  private finish(group: Group, e: Entry, outcome: WaitOutcome, snapshot?: Props): void {
    if (!group.entries.delete(e)) return;
    e.done(snapshot ? { outcome, snapshot } : { outcome });
  }

  private cancelAll(group: Group): void {
    const now = this.opts.clock.now();
    for (const e of [...group.entries]) this.finish(group, e, { kind: "cancelled", reads: e.reads, elapsedMs: now - e.start, observed: e.lastObserved });
  }

  private async loop(group: Group): Promise<void> {
    const { clock, signal } = this.opts;
    group.running = true;
    try {
      while (group.entries.size) {
        if (signal?.aborted) return this.cancelAll(group);
        // Let waits that start in this same turn join the round.
        await new Promise<void>((r) => setImmediate(r));
        const first = Math.min(...[...group.entries].map((e) => e.nextAt));
        const pause = first - clock.now();
        if (pause > 0) {
          group.wake = new AbortController();
          const stop = signal ? AbortSignal.any([signal, group.wake.signal]) : group.wake.signal;
          try {
            await clock.sleep(pause as never, stop);
          } catch {
            continue; // woken early: a wait joined, or everything was cancelled (checked above)
          }
        }
        if (POLL.gatherMs > 0 && [...group.entries].some((e) => e.reads === 0 && e.nextAt <= clock.now())) {
          try {
            await this.gather(group);
          } catch {
            continue; // cancelled: handled at the top
          }
        }
        const now = clock.now();
        const due = [...group.entries].filter((e) => e.nextAt <= now + rideAlong(group, e));
        if (due.length) {
          try {
            await this.round(group, due);
          } catch (err) {
            // A bug or a broken context must end these waits with its message, never leave them pending.
            for (const e of due) this.finish(group, e, { kind: "read-error", reads: e.reads, elapsedMs: now - e.start, error: errorText(err), transient: false });
          }
        }
      }
    } finally {
      group.running = false;
      if (group.entries.size) void this.loop(group).catch(() => {}); // a wait joined while the loop was ending
      else this.groups.delete(group.key);
    }
  }

  /** Sleeps until no wait has joined for `gatherMs`, or `maxGatherMs` have passed. Rejects when cancelled. */
  private async gather(group: Group): Promise<void> {
    const { clock, signal } = this.opts;
    const until = clock.now() + POLL.maxGatherMs;
    let end: number;
    while ((end = Math.min(group.lastJoinAt + POLL.gatherMs, until)) > clock.now()) await clock.sleep((end - clock.now()) as never, signal);
  }

  private async round(group: Group, due: Entry[]): Promise<void> {
    const { clock, opContext, signal } = this.opts;
    this.stats.rounds++;
    // A read that never returns must not outlive the waits' budget (nor hold up the other waits of this provider).
    const grace = Math.max(1, Math.min(POLL.lastReadMs, ...due.map((e) => e.run.timeoutMs / 2)));
    const budget = Math.ceil(Math.max(grace, Math.max(...due.map((e) => e.deadline)) - clock.now()));
    const ctx = opContext(due[0]!.run.urn, budget, group.instance);
    const results = new Map<Entry, ReadResult>();
    const { provider } = group;
    if (provider.readMany && due.length > 1) {
      this.stats.calls++;
      try {
        const got = await untilAborted(provider.readMany({ targets: due.map((e) => e.run.target), ctx }), ctx.signal);
        for (const e of due) results.set(e, { value: got.get(e.run.target.id) });
      } catch (error) {
        for (const e of due) results.set(e, { error });
      }
    } else {
      await Promise.all(
        due.map(async (e) => {
          this.stats.calls++;
          try {
            results.set(e, { value: await untilAborted(provider.read({ ...e.run.target, ctx }), ctx.signal) });
          } catch (error) {
            results.set(e, { error });
          }
        }),
      );
    }
    if (signal?.aborted) return this.cancelAll(group);
    const now = clock.now();
    // Reads cut short by the waits' own budget are no failures of the service: those waits ran out of time.
    const outOfTime = ctx.signal.aborted && isTimeoutReason(ctx.signal.reason);
    for (const [e, r] of results) this.settle(group, e, outOfTime && r.error !== undefined ? { outOfTime } : r, now);
  }

  private settle(group: Group, e: Entry, r: ReadResult, now: number): void {
    const { run } = e;
    e.reads++;
    const elapsedMs = now - e.start;
    const base = { reads: e.reads, elapsedMs };
    const timeUp = now >= e.deadline;
    if (r.outOfTime) {
      run.onPoll?.({ ...base, note: "read cut short: the wait's time is up" });
      return this.finish(group, e, { kind: "timed-out", ...base, observed: e.lastObserved });
    }
    if (r.error !== undefined) {
      const error = errorText(r.error);
      const transient = isTransientError(r.error);
      run.onPoll?.({ ...base, note: `read failed: ${error}${transient ? " (retrying)" : ""}` });
      if (!transient) return this.finish(group, e, { kind: "read-error", ...base, error, transient });
      if (!timeUp) return this.schedule(e, now);
      // Time is up with the last read failing for a moment: a timeout when earlier reads saw the target,
      // a failing service when none did.
      if (e.lastObserved) return this.finish(group, e, { kind: "timed-out", ...base, observed: e.lastObserved });
      return this.finish(group, e, { kind: "read-error", ...base, error, transient });
    }
    if (r.value === undefined) {
      e.gone++;
      e.goneSince ??= now;
      run.onPoll?.({ ...base, note: "target not found" });
      if ((e.gone >= 2 && now - e.goneSince >= POLL.notFoundGraceMs) || timeUp) {
        return this.finish(group, e, { kind: "not-found", ...base, id: run.target.id });
      }
      // Re-check soon: a target that just appeared may still be propagating.
      return this.schedule(e, now, POLL.notFoundGraceMs / 2);
    }
    e.gone = 0;
    e.goneSince = undefined;
    const value: Props = { id: run.target.id, ...r.value };
    const observed = observeAll(run, value);
    e.lastObserved = observed;
    run.onPoll?.({ ...base, observed });
    if (evaluate(run.until, value)) return this.finish(group, e, { kind: "satisfied", ...base, observed }, r.value);
    if (run.failWhen && evaluate(run.failWhen, value)) {
      const reason = run.reasonAttribute ? value[run.reasonAttribute] : undefined;
      const outcome: WaitOutcome = { kind: "failed", ...base, observed, condition: formatPredicate(run.failWhen, run.subject) };
      if (reason !== undefined && reason !== null && reason !== "") outcome.reason = run.secret.has(run.reasonAttribute!) ? "[secret]" : String(reason);
      return this.finish(group, e, outcome);
    }
    if (timeUp) return this.finish(group, e, { kind: "timed-out", ...base, observed });
    this.schedule(e, now);
  }

  /** Picks the next read time: growing pauses up to the interval, jittered, never past the deadline. */
  private schedule(e: Entry, now: number, cap = Infinity): void {
    const { minDelayMs, growth, jitter } = POLL;
    const interval = Math.max(1, e.run.intervalMs);
    e.delay = Math.min(interval, cap, e.delay === 0 ? minDelayMs : e.delay * growth);
    const pause = e.delay * (1 - jitter * this.random());
    // The last read happens at the deadline itself, so a timeout always reports a fresh observation.
    e.nextAt = Math.min(now + pause, e.deadline);
  }
}

/**
 * How much earlier than due a wait may read to join a round. Where one `readMany` reads every target, up to
 * half its pause: an early read costs no extra call, and waits that started at different times then fall
 * into one cadence within an interval (two phases up to half an interval apart merge into the earlier round,
 * further apart into the later one), so a round is one call. Not every wait of the group: a provider's
 * `readMany` may still read some targets one by one (ACM describes each certificate not yet issued), and
 * a wait read long before it is due would cost those reads for nothing. Where each target costs a `read`,
 * a little.
 */
function rideAlong(group: Group, e: Entry): number {
  return group.provider.readMany ? e.delay * 0.5 : Math.min(1000, e.delay * 0.25);
}

/** The values both predicates read (until first), masked where secret. */
function observeAll(run: WaitRun, value: Props): Observation[] {
  const obs = observe(run.until, value, run.secret);
  if (!run.failWhen) return obs;
  const seen = new Set(obs.map((o) => o.path));
  for (const o of observe(run.failWhen, value, run.secret)) if (!seen.has(o.path)) obs.push(o);
  return obs;
}

/** Settles with `p`, or rejects as soon as `signal` aborts (a provider may ignore its signal). */
function untilAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}

/** Whether an abort's reason is a time limit (`AbortSignal.timeout`), not a cancellation. */
function isTimeoutReason(reason: unknown): boolean {
  return reason instanceof Error && reason.name === "TimeoutError";
}

function errorText(e: unknown): string {
  if (e instanceof Error) return e.name && e.name !== "Error" && !e.message.startsWith(e.name) ? `${e.name}: ${e.message}` : e.message;
  return thrownMessage(e, "the provider's read");
}
