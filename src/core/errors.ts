/**
 * Thrown by a provider's `create` when the object was created but could not be finished (e.g. tagging failed).
 * The engine records the object as *tainted*, so it is not lost and the next plan replaces it.
 *
 * @example throw new IncompleteCreateError(arn, { arn }, new Error("tagging failed: not allowed"));
 */
export class IncompleteCreateError extends Error {
  constructor(
    readonly id: string,
    readonly outputs: Record<string, unknown>,
    readonly causeError: Error,
  ) {
    super(`created ${id} but could not finish: ${causeError.message}`);
    this.name = "IncompleteCreateError";
  }
}

/**
 * Thrown by a provider when an operation failed for a reason that goes away by itself (throttling, a 5xx,
 * a dropped connection): waits retry it within their budget instead of giving up.
 *
 * @example throw new TransientError("service busy, try again", { cause: e });
 */
export class TransientError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "TransientError";
  }
}

/**
 * What a family of errors (one SDK's, one service's) says about retrying, as plain data: error `name`s that
 * mean "try again later", names that no retry can fix even when the server answered 5xx, and messages that
 * name such a refusal. Registered by the layer that knows the family (the AWS provider registers the AWS
 * SDK's), so core names no service.
 *
 * @example registerErrorKinds({ transient: ["BusyNow"], permanent: ["NotAllowed"] });
 */
export interface ErrorKinds {
  readonly transient?: readonly string[];
  readonly permanent?: readonly string[];
  readonly permanentMessage?: RegExp;
}

// Cairn's own, and Node's networking: a dropped or refused connection goes away by itself.
const TRANSIENT_NAMES = new Set(["TransientError", "TimeoutError"]);
const TRANSIENT_CODES = new Set(["ECONNRESET", "ECONNREFUSED", "ETIMEDOUT", "EPIPE", "EAI_AGAIN", "ENETUNREACH", "EHOSTUNREACH", "UND_ERR_SOCKET"]);
const PERMANENT_NAMES = new Set<string>();
const PERMANENT_MESSAGES: RegExp[] = [];

/**
 * Adds a family's error names to the one classification {@link isTransientError} makes (idempotent: a name
 * registered twice is one).
 *
 * @example registerErrorKinds({ transient: ["BusyNow"], permanent: ["TokenReused"] });
 */
export function registerErrorKinds(kinds: ErrorKinds): void {
  for (const n of kinds.transient ?? []) TRANSIENT_NAMES.add(n);
  for (const n of kinds.permanent ?? []) PERMANENT_NAMES.add(n);
  const m = kinds.permanentMessage;
  if (m && !PERMANENT_MESSAGES.some((r) => r.source === m.source && r.flags === m.flags)) PERMANENT_MESSAGES.push(m);
}

/**
 * True when an error is worth retrying: a {@link TransientError}, an error whose name a registered family
 * ({@link registerErrorKinds}) calls transient, an SDK error marked retryable or answered by the server
 * (5xx, 429: the `$retryable`, `$fault`, `$metadata.httpStatusCode` fields Smithy-built SDKs set), or a
 * network failure. Anything else (access denied, validation) is permanent, and so is a 5xx whose name or
 * message a family calls a refusal (an idempotency-token conflict). The one classification every retry in
 * Cairn uses (provider calls, waits, state backends).
 *
 * @example isTransientError(Object.assign(new Error("connection reset"), { code: "ECONNRESET" })) // true
 */
export function isTransientError(e: unknown): boolean {
  if (!e || typeof e !== "object") return false;
  const err = e as { name?: string; code?: string; message?: unknown; $retryable?: unknown; $fault?: string; $metadata?: { httpStatusCode?: number }; cause?: unknown };
  if (err.name && PERMANENT_NAMES.has(err.name)) return false;
  if (typeof err.message === "string" && PERMANENT_MESSAGES.some((r) => r.test(err.message as string))) return false;
  if (err instanceof TransientError || err.$retryable) return true;
  if (err.name && TRANSIENT_NAMES.has(err.name)) return true;
  if (err.code && TRANSIENT_CODES.has(err.code)) return true;
  const status = err.$metadata?.httpStatusCode;
  if (status === 429 || (status !== undefined && status >= 500) || err.$fault === "server") return true;
  return err.cause !== undefined && err.cause !== e && isTransientError(err.cause);
}
