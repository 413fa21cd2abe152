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

// Errors that no retry can fix even when the server answers 5xx: the same idempotency token was used for
// another request, or the credentials are refused. Retrying them only repeats the refusal.
const PERMANENT_NAMES = new Set([
  "IdempotentParameterMismatch", "IdempotentParameterMismatchException", "IdempotencyException", "ClientTokenConflictException",
  "InvalidClientTokenId", "UnrecognizedClientException", "AccessDenied", "AccessDeniedException", "ExpiredToken", "ExpiredTokenException",
  "EndpointUnreachable", // an AWS endpoint that refused or did not resolve for a few tries (providers/aws/call.ts)
]);
const PERMANENT_MESSAGE = /idempoten\w* (token|parameter|key)|client ?token .*(conflict|mismatch|already (been )?used)/i;

/**
 * True when an error is worth retrying: a {@link TransientError}, an AWS SDK error marked retryable or
 * thrown by the server (5xx, 429, throttling), or a network failure. Anything else (access denied,
 * validation) is permanent: retrying cannot help, and neither can it for a 5xx that names a refusal (an
 * idempotency-token conflict). The one classification every retry in Cairn uses (provider calls, waits,
 * state backends).
 *
 * @example isTransientError(Object.assign(new Error("Rate exceeded"), { name: "ThrottlingException" })) // true
 */
export function isTransientError(e: unknown): boolean {
  if (!e || typeof e !== "object") return false;
  const err = e as { name?: string; code?: string; message?: unknown; $retryable?: unknown; $fault?: string; $metadata?: { httpStatusCode?: number }; cause?: unknown };
  if (err.name && PERMANENT_NAMES.has(err.name)) return false;
  if (typeof err.message === "string" && PERMANENT_MESSAGE.test(err.message)) return false;
  if (err instanceof TransientError || err.$retryable) return true;
  if (err.name && TRANSIENT_NAMES.has(err.name)) return true;
  if (err.code && TRANSIENT_CODES.has(err.code)) return true;
  const status = err.$metadata?.httpStatusCode;
  if (status === 429 || (status !== undefined && status >= 500) || err.$fault === "server") return true;
  return err.cause !== undefined && err.cause !== e && isTransientError(err.cause);
}
