import { formatAge } from "../lock-holder.js";

/**
 * How long a backend keeps retrying a request that fails for network reasons, unless its URL says (`retry=<seconds>`).
 * @example parsePgUrl("postgres://db/x").retryMs === DEFAULT_BACKEND_RETRY_MS // true
 */
export const DEFAULT_BACKEND_RETRY_MS = 60_000;

/**
 * A backend URL's `retry=<seconds>` as milliseconds ({@link DEFAULT_BACKEND_RETRY_MS} when absent); an empty or
 * non-numeric value is refused, naming the URL (`inUrl`, e.g. `in S3 URL s3://…`) and what to write.
 *
 * @example retryParam(new URL("s3://b/p?retry=30"), "in S3 URL s3://b/p") // 30000
 */
export function retryParam(u: URL, inUrl: string): number {
  const retry = u.searchParams.get("retry");
  if (retry === null) return DEFAULT_BACKEND_RETRY_MS;
  const ms = retry.trim() === "" ? Number.NaN : Number(retry) * 1000;
  if (!Number.isFinite(ms) || ms < 0) throw new Error(`invalid retry ${JSON.stringify(retry)} ${inUrl}: give the seconds to keep retrying a request that fails for network reasons, e.g. retry=60`);
  return ms;
}

/**
 * A backend that could not be reached for the whole retry budget: the network or the server is down (the
 * configuration was fine: it worked before, or the failure is a connection error, not a refusal).
 *
 * @example throw new BackendUnreachableError("PostgreSQL at 127.0.0.1:5432", "writing the journal", 60_000, err)
 */
export class BackendUnreachableError extends Error {
  override name = "BackendUnreachableError";
  constructor(
    /** What could not be reached, e.g. `PostgreSQL at db.internal:5432`. */
    readonly where: string,
    what: string,
    readonly budgetMs: number,
    readonly lastError: unknown,
  ) {
    super(
      `${where} could not be reached while ${what} (${describeNetworkError(lastError)}; retried for ${formatAge(budgetMs)}): ` +
        `the network or the server is down. Check the connection to it, then run again`,
    );
  }
}

/**
 * The network failure in a few words: its code and message.
 * @example describeNetworkError(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" })) // "ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:5432"
 */
function describeNetworkError(e: unknown): string {
  const err = e as { code?: unknown; name?: string; message?: string };
  const message = err?.message ?? String(e);
  const code = typeof err?.code === "string" && !message.includes(err.code) ? `${err.code}: ` : "";
  return `${code}${message}`.replace(/\s+/g, " ").trim() || err?.name || "unknown error";
}

/**
 * How a backend retries.
 * @example const policy: RetryPolicy = { where: "PostgreSQL at db:5432", budgetMs: 60_000, isTransient: isPgTransient };
 */
export interface RetryPolicy {
  /** What is being reached, for messages (`PostgreSQL at host:port`). */
  where: string;
  /** Time to keep trying a request that fails transiently. */
  budgetMs: number;
  /** True for failures worth another attempt (a reset, a timeout, a 5xx). */
  isTransient: (e: unknown) => boolean;
  /** Called between attempts (e.g. to reconnect). */
  beforeRetry?: (e: unknown) => Promise<void> | void;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Runs `fn`, retrying transient failures with full-jitter backoff (50 ms doubling to 2 s) until the budget
 * is spent; then throws {@link BackendUnreachableError}. Anything else is thrown at once: a refusal is never retried.
 *
 * @example const rows = await withRetry(policy, "reading the journal", () => client.query(sql));
 */
export async function withRetry<T>(policy: RetryPolicy, what: string, fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + policy.budgetMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      if (!policy.isTransient(e)) throw e;
      const delay = Math.round(Math.random() * Math.min(2000, 50 * 2 ** (attempt - 1)));
      if (Date.now() + delay >= deadline) throw new BackendUnreachableError(policy.where, what, policy.budgetMs, e);
      await sleep(delay);
      try {
        await policy.beforeRetry?.(e);
      } catch (again) {
        if (!policy.isTransient(again)) throw again;
      }
    }
  }
}
