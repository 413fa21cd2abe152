import type { OpContext, ProviderInstance } from "../provider/provider.js";
import type { Urn } from "../core/urn.js";
import { isTransientError } from "../core/errors.js";
import { formatDuration, type Duration } from "../core/duration.js";
import { backoff, gaveUp, mayRetry } from "../core/retry-policy.js";
import { thrownMessage } from "../core/thrown.js";

/**
 * How long one read outside an apply may take, its retries included: a read that has not answered by then
 * is abandoned (the AWS SDK sets no time limit on a request of its own, so a stalled connection would hang
 * a refresh for good).
 */
export const DEFAULT_READ_TIMEOUT_MS = 10 * 60_000;

/**
 * Makes one provider read outside an apply, handing `read` the context to make it with: refresh, a lookup
 * or import while planning, the check of an interrupted operation, `state import`; once `stop` aborts (a
 * refresh whose other read failed) it is not retried. The stack makes it with {@link boundedRead}.
 *
 * @example const outputs = await reads(urn, instance, (ctx) => provider.read({ urn, id, inputs, outputs, ctx }));
 */
export type ReadRunner = <T>(urn: Urn, provider: ProviderInstance | undefined, read: (ctx: OpContext) => Promise<T>, stop?: AbortSignal) => Promise<T>;

/**
 * The time bound of one read, as the apply's call bounds (`Bounded`) are: one timer serves every bound
 * of a run, and a read's AbortSignal is made only if its provider asks for it: a timer and a signal per
 * read would make a large refresh slower and larger for nothing.
 */
export interface ReadBound {
  /** Settles like `p`, or rejects once the bound ends: its time is up, or the run stopped (a provider may ignore its signal). */
  race<T>(p: Promise<T>): Promise<T>;
  /** True once the read's time is up. */
  readonly timedOut: boolean;
}

/** How {@link boundedRead} retries. */
export interface ReadRetries {
  /** How long transient failures are retried, from the first one (`--retry-deadline`). */
  retryDeadlineMs: number;
  /** Told before each retry: the attempt that failed (1 for the first), its error, the pause. */
  retrying?: (attempt: number, error: string, delayMs: number) => void;
  /** Aborted when the command has failed already (another read of a refresh): no retry starts then. */
  stop?: AbortSignal;
}

/**
 * Makes one provider read outside an apply (refresh, a lookup or import while planning, the check of an
 * interrupted operation) the way the apply makes its calls: within `bound` (its time limit, a second
 * Ctrl-C; a read that ignores its signal is abandoned, not awaited), and a transient failure (throttling,
 * a 5xx, a reset connection) retried with backoff until the retry deadline, instead of failing the whole
 * command. A failure that retrying cannot fix (access denied, a bad id) throws at once.
 *
 * @example
 * const outputs = await boundedRead(ctx, bound, { retryDeadlineMs: 300_000 }, () => provider.read({ urn, id, inputs, outputs, ctx }));
 */
export async function boundedRead<T>(ctx: OpContext, bound: ReadBound, retries: ReadRetries, read: () => Promise<T>): Promise<T> {
  // Retries are paced and bounded on the context's clock (a test's fake one); the time limit is the bound's.
  const deadline = ctx.clock.now() + (ctx.timeout ?? Number.POSITIVE_INFINITY);
  let retryUntil: number | undefined;
  for (let attempt = 1; ; attempt++) {
    try {
      return await bound.race(read());
    } catch (raw) {
      if (bound.timedOut || ctx.signal.aborted) throw stopped(ctx, bound);
      const e = raw instanceof Error ? raw : Object.assign(new Error(thrownMessage(raw, "the provider's read")), { cause: raw });
      if (!isTransientError(e) || retries.stop?.aborted) throw e;
      const delay = backoff(attempt);
      retryUntil ??= ctx.clock.now() + retries.retryDeadlineMs;
      if (!mayRetry(attempt, delay, ctx.clock.now(), deadline, retryUntil)) throw gaveUp(e, attempt, retries.retryDeadlineMs);
      retries.retrying?.(attempt, e.message, delay);
      try {
        await ctx.clock.sleep(delay as Duration, retries.stop ? AbortSignal.any([ctx.signal, retries.stop]) : ctx.signal);
      } catch {
        if (retries.stop?.aborted && !ctx.signal.aborted) throw e; // the command failed meanwhile: this read's last error
        throw stopped(ctx, bound);
      }
    }
  }
}

/** Why a read ended before it answered: its time limit, or the run was stopped. */
function stopped(ctx: OpContext, bound: ReadBound): Error {
  if (bound.timedOut && ctx.timeout !== undefined) return new Error(`no answer within ${formatDuration(ctx.timeout)}, retries included: the read was abandoned`);
  const reason: unknown = ctx.signal.reason;
  return new Error(`the read was stopped (${thrownMessage(reason, "the run")})`, { cause: reason });
}
