import { formatDuration, type Duration } from "./duration.js";

// How every provider call Cairn makes retries a transient failure (see `isTransientError`): writes in an
// apply, and reads outside one (refresh, lookups, imports, the check of an interrupted operation). One
// policy, so a throttled cloud is met the same way whatever the call.

/** Transient failures are retried at most this many times (within the call's time budget). */
export const MAX_RETRIES = 8;

/**
 * How long a provider call keeps retrying transient failures, from its first failure, unless the user says (`--retry-deadline`).
 * @example prog.stack({ retryDeadline: milliseconds(DEFAULT_RETRY_DEADLINE_MS / 5) })
 */
export const DEFAULT_RETRY_DEADLINE_MS = 5 * 60_000;

/**
 * The pause before retry `attempt` (1 for the first): full-jitter exponential backoff, up to 1 s, 2 s, 4 s …
 * capped at 30 s.
 *
 * @example await clock.sleep(milliseconds(backoff(1))) // somewhere in 0–1 s
 */
export function backoff(attempt: number): number {
  return Math.round(Math.random() * Math.min(30_000, 1000 * 2 ** (attempt - 1)));
}

/**
 * Whether a call that failed transiently on `attempt` may try again after `delayMs`: attempts are left and
 * the pause ends before both the call's own deadline and the retry deadline (ms since the epoch).
 *
 * @example if (mayRetry(attempt, delay, now, deadline, retryUntil)) await sleep(delay);
 */
export function mayRetry(attempt: number, delayMs: number, now: number, deadline: number, retryUntil: number): boolean {
  return attempt <= MAX_RETRIES && now + delayMs < Math.min(deadline, retryUntil);
}

/**
 * A transient failure that outlasted its retries: the last error, its message saying how long it was retried.
 *
 * @example throw gaveUp(e, 9, DEFAULT_RETRY_DEADLINE_MS) // "Rate exceeded (a transient failure, tried 9 time(s): …)"
 */
export function gaveUp(err: Error, attempts: number, deadlineMs: number): Error {
  err.message = `${err.message} (a transient failure, tried ${attempts} time(s): retries stop ${formatDuration(deadlineMs as Duration)} after the first failure, or at the call's time limit; --retry-deadline sets it)`;
  return err;
}
