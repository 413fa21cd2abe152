import type { OpContext, ProviderInstance } from "../provider/provider.js";
import type { Urn } from "../core/urn.js";
import { isTransientError } from "../core/errors.js";
import { formatDuration, type Duration } from "../core/duration.js";
import { backoff, gaveUp, mayRetry } from "../core/retry-policy.js";
import { thrownMessage } from "../core/thrown.js";
import { untilAborted } from "../core/until-aborted.js";

/**
 * How long one read outside an apply may take, its retries included: a read that has not answered by then
 * is abandoned (the AWS SDK sets no time limit on a request of its own, so a stalled connection would hang
 * a refresh for good).
 */
export const DEFAULT_READ_TIMEOUT_MS = 10 * 60_000;

/**
 * Makes one provider read outside an apply, handing `read` the context to make it with: refresh, a lookup
 * or import while planning, the check of an interrupted operation, `state import`; `stop` ends it early (a
 * refresh whose other read failed). The stack makes it with {@link boundedRead}.
 *
 * @example const outputs = await reads(urn, instance, (ctx) => provider.read({ urn, id, inputs, outputs, ctx }));
 */
export type ReadRunner = <T>(urn: Urn, provider: ProviderInstance | undefined, read: (ctx: OpContext) => Promise<T>, stop?: AbortSignal) => Promise<T>;

/** How {@link boundedRead} retries. */
export interface ReadRetries {
  /** How long transient failures are retried, from the first one (`--retry-deadline`). */
  retryDeadlineMs: number;
  /** Told before each retry: the attempt that failed (1 for the first), its error, the pause. */
  retrying?: (attempt: number, error: string, delayMs: number) => void;
}

/**
 * Makes one provider read outside an apply (refresh, a lookup or import while planning, the check of an
 * interrupted operation) the way the apply makes its calls: bounded by `ctx.signal` (its time limit, a
 * second Ctrl-C; a read that ignores the signal is abandoned, not awaited), and a transient failure
 * (throttling, a 5xx, a reset connection) retried with backoff until the retry deadline, instead of failing
 * the whole command. A failure that retrying cannot fix (access denied, a bad id) throws at once.
 *
 * @example
 * const outputs = await boundedRead(ctx, { retryDeadlineMs: 300_000 }, () => provider.read({ urn, id, inputs, outputs, ctx }));
 */
export async function boundedRead<T>(ctx: OpContext, retries: ReadRetries, read: () => Promise<T>): Promise<T> {
  // Retries are paced and bounded on the context's clock (a test's fake one); the time limit is the
  // signal's, on real time.
  const started = Date.now();
  const deadline = ctx.clock.now() + (ctx.timeout ?? Number.POSITIVE_INFINITY);
  let retryUntil: number | undefined;
  for (let attempt = 1; ; attempt++) {
    try {
      return await untilAborted(read(), ctx.signal);
    } catch (raw) {
      if (ctx.signal.aborted) throw stopped(ctx, started);
      const e = raw instanceof Error ? raw : Object.assign(new Error(thrownMessage(raw, "the provider's read")), { cause: raw });
      if (!isTransientError(e)) throw e;
      const delay = backoff(attempt);
      retryUntil ??= ctx.clock.now() + retries.retryDeadlineMs;
      if (!mayRetry(attempt, delay, ctx.clock.now(), deadline, retryUntil)) throw gaveUp(e, attempt, retries.retryDeadlineMs);
      retries.retrying?.(attempt, e.message, delay);
      try {
        await ctx.clock.sleep(delay as Duration, ctx.signal);
      } catch {
        throw stopped(ctx, started);
      }
    }
  }
}

/** Why a read (begun at `started`, real time) ended before it answered: its time limit, or the run was stopped. */
function stopped(ctx: OpContext, started: number): Error {
  const reason: unknown = ctx.signal.reason;
  if (ctx.timeout !== undefined && (Date.now() - started >= ctx.timeout || (reason instanceof Error && reason.name === "TimeoutError"))) {
    return new Error(`no answer within ${formatDuration(ctx.timeout)}, retries included: the read was abandoned`);
  }
  return new Error(`the read was stopped (${thrownMessage(reason, "the run")})`, { cause: reason });
}
