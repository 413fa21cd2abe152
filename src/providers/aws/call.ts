import type { OpContext } from "../../provider/provider.js";
import { isTransientError } from "../../core/errors.js";
import "./error-kinds.js"; // registers the AWS SDK's error names with isTransientError before any call classifies one
import { milliseconds } from "../../core/duration.js";

/** The AWS error code of an SDK error (its `name`), or `undefined` for something else. */
export function awsCode(e: unknown): string | undefined {
  if (!e || typeof e !== "object") return undefined;
  const err = e as { name?: string; Code?: string };
  return err.Code ?? err.name;
}

/**
 * An AWS call that failed for good: its message names the service, the operation, the AWS error code
 * and what to do. The original SDK error is its `cause`; `name` stays the AWS code (so transient
 * errors are still recognised by waits).
 *
 * @example new AwsError("ACM", "RequestCertificate", sdkError) // "ACM RequestCertificate failed: AccessDeniedException: …"
 */
export class AwsError extends Error {
  readonly code: string;
  constructor(
    readonly service: string,
    readonly operation: string,
    cause: unknown,
    hint?: string,
  ) {
    const code = awsCode(cause) ?? "Error";
    const text = cause instanceof Error ? cause.message : String(cause);
    super(`${service} ${operation} failed: ${code}: ${text}${hint ? `. ${hint}` : ""}`, { cause });
    this.code = code;
    this.name = code;
    const src = cause as { $retryable?: unknown; $metadata?: unknown; $fault?: unknown };
    if (src && typeof src === "object") Object.assign(this, { $retryable: src.$retryable, $metadata: src.$metadata, $fault: src.$fault });
  }
}

const ACCESS_CODES = new Set([
  "AccessDenied", "AccessDeniedException", "UnauthorizedOperation", "UnrecognizedClientException",
  "InvalidClientTokenId", "InvalidSignatureException", "ExpiredToken", "ExpiredTokenException", "SignatureDoesNotMatch",
]);

/** True when AWS refused the credentials or their permissions (retrying cannot help). @example isAccessDenied(sdkError) */
export function isAccessDenied(e: unknown): boolean {
  return ACCESS_CODES.has(awsCode(e) ?? "");
}

/** What to do about an error every AWS operation can meet (credentials, region, permissions). */
export function commonHint(service: string, operation: string, e: unknown): string | undefined {
  const code = awsCode(e) ?? "";
  const text = e instanceof Error ? e.message : "";
  if (code === "CredentialsProviderError" || /Could not load credentials/i.test(text)) {
    return "No AWS credentials were found: set AWS_PROFILE (and run `aws sso login` if it uses SSO), or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or pass credentials to new aws.Provider(...)";
  }
  if (/Region is missing/i.test(text)) return "No AWS region is set: set AWS_REGION, or pass { region } to new aws.Provider(...)";
  if (ACCESS_CODES.has(code)) {
    const action = `${service === "Route 53" ? "route53" : service.toLowerCase()}:${operation}`;
    return `The credentials in use were refused or lack permission for ${action}: check AWS_PROFILE / the keys in use and their IAM policy`;
  }
  return undefined;
}

/** How {@link awsCall} retries. */
export interface RetryPolicy {
  /** Attempts in all, including the first (default 8). */
  maxAttempts?: number;
  /** First backoff ceiling in ms (default 300); doubles each attempt. */
  baseMs?: number;
  /** Largest backoff in ms (default 20 000). */
  capMs?: number;
  /** Errors to retry besides transient ones (e.g. `ResourceInUseException` on delete). */
  retryAlso?: (e: unknown) => boolean;
}

/**
 * Sends one AWS request, retrying throttling, 5xx and network errors with exponential backoff and full
 * jitter (Route 53 allows about 5 requests a second per account), on the operation's clock and
 * cancellation. Errors that retrying cannot fix (access denied, validation) fail at once, as an
 * {@link AwsError} with a clear message. Pass `hint` to explain operation-specific errors.
 *
 * `send` receives the operation's abort signal and must hand it to the SDK (`client.send(cmd, { abortSignal })`),
 * so Ctrl-C or a custom timeout stops a request in flight. Once the operation is cancelled, awsCall fails
 * with an {@link AwsError} too (never with the bare abort reason): its cause is the SDK's `AbortError` (or
 * the last error, when cancelled while pausing before a retry) and its message says the operation was
 * cancelled, and why.
 *
 * @example
 * const out = await awsCall(ctx, "ACM", "DescribeCertificate", (abortSignal) => client.send(new DescribeCertificateCommand({ CertificateArn: arn }), { abortSignal }));
 */
export async function awsCall<T>(
  ctx: Pick<OpContext, "clock" | "signal">,
  service: string,
  operation: string,
  send: (abortSignal: AbortSignal) => Promise<T>,
  options: RetryPolicy & { hint?: (e: unknown) => string | undefined } = {},
): Promise<T> {
  const maxAttempts = options.maxAttempts ?? 8;
  const base = options.baseMs ?? 300;
  const cap = options.capMs ?? 20_000;
  for (let attempt = 1; ; attempt++) {
    try {
      return await send(ctx.signal);
    } catch (e) {
      const nowhere = unreachableAddress(e);
      if (nowhere !== undefined && !ctx.signal.aborted) {
        if (attempt >= UNREACHABLE_ATTEMPTS) throw new EndpointUnreachableError(service, operation, e, nowhere, attempt);
        try {
          await ctx.clock.sleep(milliseconds(UNREACHABLE_PAUSE_MS * attempt), ctx.signal);
        } catch {
          throw new AwsError(service, operation, e, cancelledHint(ctx.signal));
        }
        continue;
      }
      const retryable = isTransientError(e) || (options.retryAlso?.(e) ?? false);
      // Stopped by cancellation: the request in flight was aborted, or a retry would have followed.
      if (ctx.signal.aborted && (retryable || isAbort(e, ctx.signal))) throw new AwsError(service, operation, e, cancelledHint(ctx.signal));
      if (!retryable || attempt >= maxAttempts) {
        throw new AwsError(service, operation, e, options.hint?.(e) ?? commonHint(service, operation, e) ?? (retryable ? `gave up after ${attempt} attempts` : undefined));
      }
      const ceiling = Math.min(cap, base * 2 ** (attempt - 1));
      try {
        await ctx.clock.sleep(milliseconds(Math.max(1, Math.round(Math.random() * ceiling))), ctx.signal);
      } catch {
        throw new AwsError(service, operation, e, cancelledHint(ctx.signal));
      }
    }
  }
}

// Nothing answers at the endpoint (refused, or its name does not resolve): far likelier a wrong endpoint,
// region or network than an outage that began this moment, so it is tried a few times within seconds
// (pauses 1 s, then 2 s) and then fails naming the endpoint, not retried for the 5 minutes a throttled call gets.
const UNREACHABLE_ATTEMPTS = 3;
const UNREACHABLE_PAUSE_MS = 1000;
const UNREACHABLE_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN"]);

interface NetError {
  code?: unknown;
  address?: unknown;
  port?: unknown;
  hostname?: unknown;
  errors?: unknown;
  cause?: unknown;
}

/**
 * Where nothing answered, when `e` (or its cause, or every error of an AggregateError: Node tries IPv6 and
 * IPv4) is a refused connection or a host name that does not resolve: `"127.0.0.1:4566"`, `"cloudcontrolapi.xx-east-1.amazonaws.com"`,
 * or `""` when the error does not say. Undefined for any other error.
 *
 * @example unreachableAddress(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED", address: "127.0.0.1", port: 1 })) // "127.0.0.1:1"
 */
export function unreachableAddress(e: unknown, depth = 0): string | undefined {
  if (!e || typeof e !== "object" || depth > 5) return undefined;
  const err = e as NetError;
  if (Array.isArray(err.errors) && err.errors.length > 0) {
    const each = err.errors.map((x) => unreachableAddress(x, depth + 1));
    if (each.every((a) => a !== undefined)) return each.find(Boolean) ?? "";
  }
  if (typeof err.code === "string" && UNREACHABLE_CODES.has(err.code)) {
    if (typeof err.hostname === "string") return err.hostname;
    return typeof err.address === "string" ? `${err.address}${err.port !== undefined ? `:${String(err.port)}` : ""}` : "";
  }
  return err.cause !== e ? unreachableAddress(err.cause, depth + 1) : undefined;
}

/**
 * An AWS call that found nothing at its endpoint after a few tries within seconds: the message names the
 * endpoint and the settings that choose it. Not transient (`name` is `EndpointUnreachable`), so the engine
 * does not retry it for minutes either.
 *
 * @example throw new EndpointUnreachableError("Cloud Control", "CreateResource", err, "127.0.0.1:4566", 3);
 */
export class EndpointUnreachableError extends AwsError {
  constructor(service: string, operation: string, cause: unknown, address: string, attempts: number) {
    const refused = awsCode(cause) === "ECONNREFUSED" || (cause as NetError).code === "ECONNREFUSED";
    const where = address ? `${address} ` : "";
    super(
      service,
      operation,
      cause,
      `Nothing answers at the ${service} endpoint ${where}(${refused ? "connection refused" : "unknown host"}; tried ${attempts} times): ` +
        "check the endpoint in use (the aws.Provider's endpoint, or AWS_ENDPOINT_URL and the service's AWS_ENDPOINT_URL_<SERVICE>), AWS_REGION, and the network",
    );
    (this as { code: string }).code = "EndpointUnreachable";
    this.name = "EndpointUnreachable";
  }
}

/** True for the error an aborted request fails with: the SDK's `AbortError`, or the abort reason itself. */
function isAbort(e: unknown, signal: AbortSignal): boolean {
  return e === signal.reason || awsCode(e) === "AbortError" || (e instanceof Error && e.cause !== undefined && e.cause === signal.reason);
}

/** Says that (and why) the operation was cancelled, and that AWS may have applied the request all the same. */
function cancelledHint(signal: AbortSignal): string {
  const reason = signal.reason instanceof Error ? signal.reason.message : String(signal.reason ?? "aborted");
  return `Stopped: the operation was cancelled (${reason}); AWS may still have applied the request`;
}
