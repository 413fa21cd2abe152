import { registerErrorKinds, type ErrorKinds } from "../../core/errors.js";

/**
 * How the AWS SDK's errors classify for retrying, by name: registered with core's one classification
 * (`isTransientError`) when this module loads, which the AWS provider's calls (`call.ts`) and the package
 * entry do, so provider calls, waits and the S3 state backend agree.
 *
 * Transient: throttling and the server's own failures. Permanent even when the server answers 5xx: the same
 * idempotency token used for another request, or credentials refused; retrying only repeats the refusal.
 *
 * @example isTransientError(Object.assign(new Error("Rate exceeded"), { name: "ThrottlingException" })) // true
 */
export const AWS_ERROR_KINDS: ErrorKinds = {
  transient: [
    "ThrottlingException", "Throttling", "ThrottledException", "TooManyRequestsException", "RequestLimitExceeded", "RequestThrottled",
    "RequestThrottledException", "SlowDown", "PriorRequestNotComplete", "ProvisionedThroughputExceededException", "RequestTimeout",
    "RequestTimeoutException", "ServiceUnavailable", "ServiceUnavailableException", "InternalFailure", "InternalError", "InternalServerError",
  ],
  permanent: [
    "IdempotentParameterMismatch", "IdempotentParameterMismatchException", "IdempotencyException", "ClientTokenConflictException",
    "InvalidClientTokenId", "UnrecognizedClientException", "AccessDenied", "AccessDeniedException", "ExpiredToken", "ExpiredTokenException",
    "EndpointUnreachable", // an AWS endpoint that refused or did not resolve for a few tries (call.ts)
  ],
  permanentMessage: /idempoten\w* (token|parameter|key)|client ?token .*(conflict|mismatch|already (been )?used)/i,
};

registerErrorKinds(AWS_ERROR_KINDS);
