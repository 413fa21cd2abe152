/**
 * Thrown by a provider's `create` when the object was created but could not be finished (e.g. tagging failed).
 * The engine records the object as *tainted*, so it is not lost and the next plan replaces it.
 *
 * @example throw new IncompleteCreateError(arn, { arn }, new Error("AddTags failed: AccessDenied"));
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

// Error names and codes that mean "try again later" across the AWS SDK and Node's networking.
const TRANSIENT_NAMES = new Set([
  "TransientError", "ThrottlingException", "Throttling", "ThrottledException", "TooManyRequestsException",
  "RequestLimitExceeded", "RequestThrottled", "RequestThrottledException", "SlowDown", "PriorRequestNotComplete",
  "ProvisionedThroughputExceededException", "RequestTimeout", "RequestTimeoutException", "ServiceUnavailable",
  "ServiceUnavailableException", "InternalFailure", "InternalError", "InternalServerError", "TimeoutError",
]);
const TRANSIENT_CODES = new Set(["ECONNRESET", "ECONNREFUSED", "ETIMEDOUT", "EPIPE", "EAI_AGAIN", "ENETUNREACH", "EHOSTUNREACH", "UND_ERR_SOCKET"]);

/**
 * True when an error is worth retrying: a {@link TransientError}, an AWS SDK error marked retryable or
 * thrown by the server (5xx, 429, throttling), or a network failure. Anything else (access denied,
 * validation) is permanent: retrying cannot help.
 *
 * @example isTransientError(Object.assign(new Error("Rate exceeded"), { name: "ThrottlingException" })) // true
 */
export function isTransientError(e: unknown): boolean {
  if (!e || typeof e !== "object") return false;
  const err = e as { name?: string; code?: string; $retryable?: unknown; $fault?: string; $metadata?: { httpStatusCode?: number }; cause?: unknown };
  if (err instanceof TransientError || err.$retryable) return true;
  if (err.name && TRANSIENT_NAMES.has(err.name)) return true;
  if (err.code && TRANSIENT_CODES.has(err.code)) return true;
  const status = err.$metadata?.httpStatusCode;
  if (status === 429 || (status !== undefined && status >= 500) || err.$fault === "server") return true;
  return err.cause !== undefined && err.cause !== e && isTransientError(err.cause);
}
