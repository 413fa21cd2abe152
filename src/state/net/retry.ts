import { formatAge } from "../lock-holder.js";
import { UserError } from "../../core/diagnostic.js";

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
  if (!Number.isFinite(ms) || ms < 0) throw new UserError(`invalid retry ${JSON.stringify(retry)} ${inUrl}: give the seconds to keep retrying a request that fails for network reasons, e.g. retry=60`);
  return ms;
}

/**
 * How long a backend that has not answered yet in this process is retried when nothing answers at its
 * address (a refused connection, a name that does not resolve): a wrong host or port is far likelier than
 * an outage that began that very moment, and waiting the whole budget for a typo helps nobody.
 */
export const FIRST_CONTACT_MS = 5_000;

/** Whether a backend has answered in this process: kept with its parsed URL (one per store). */
export interface Contact {
  reached: boolean;
}

/** True when nothing answers at the address: the connection was refused, or the host name does not resolve. */
function nothingAnswers(e: unknown): boolean {
  const err = e as { code?: unknown; cause?: unknown; errors?: unknown } | undefined;
  if (err?.code === "ECONNREFUSED" || err?.code === "ENOTFOUND") return true;
  if (Array.isArray(err?.errors)) return err.errors.length > 0 && err.errors.every(nothingAnswers);
  return err?.cause !== undefined && err.cause !== e && nothingAnswers(err.cause);
}

/**
 * A backend that could not be reached for the whole retry budget: the network or the server is down (the
 * configuration was fine: it worked before, or the failure is a connection error, not a refusal).
 *
 * @example throw new BackendUnreachableError("PostgreSQL at 127.0.0.1:5432", "writing the journal", 60_000, err)
 */
export class BackendUnreachableError extends UserError {
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
 * A backend that never answered in this process, where nothing answers at its address: most likely a
 * wrong host or port in its URL, or a server that is not running. Nothing was read or written.
 *
 * @example throw new BackendNotAnsweringError("PostgreSQL at 127.0.0.1:5433", "taking the stack lock", 5_000, err)
 */
export class BackendNotAnsweringError extends UserError {
  override name = "BackendNotAnsweringError";
  constructor(where: string, what: string, triedMs: number, readonly lastError: unknown) {
    super(
      `Nothing answers at ${where} (${describeNetworkError(lastError)}; tried for ${formatAge(triedMs)} while ${what}): ` +
        `check the host and port in the backend URL, and that the server is running. Nothing was read or written`,
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
  /** Whether the backend answered before in this process (see {@link FIRST_CONTACT_MS}); set on every success. */
  contact?: Contact;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Runs `fn`, retrying transient failures with full-jitter backoff (50 ms doubling to 2 s) until the budget
 * is spent; then throws {@link BackendUnreachableError}. Anything else is thrown at once: a refusal is never retried.
 *
 * @example const rows = await withRetry(policy, "reading the journal", () => client.query(sql));
 */
export async function withRetry<T>(policy: RetryPolicy, what: string, fn: () => Promise<T>): Promise<T> {
  const started = Date.now();
  const deadline = started + policy.budgetMs;
  for (let attempt = 1; ; attempt++) {
    try {
      const r = await fn();
      if (policy.contact) policy.contact.reached = true;
      return r;
    } catch (e) {
      if (!policy.isTransient(e)) throw e;
      const delay = Math.round(Math.random() * Math.min(2000, 50 * 2 ** (attempt - 1)));
      const firstContact = policy.contact && !policy.contact.reached && nothingAnswers(e);
      if (firstContact && Date.now() + delay >= started + Math.min(FIRST_CONTACT_MS, policy.budgetMs)) {
        throw new BackendNotAnsweringError(policy.where, what, Date.now() - started, e);
      }
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
