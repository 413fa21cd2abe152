/**
 * Cloud Control's failures, classified once: which are retried, and what each tells the user to do. Two
 * kinds: an API call refused at once (an SDK exception), and a request that ran and FAILED (its
 * `ErrorCode` and `StatusMessage`).
 */
import type { ProgressEvent } from "@aws-sdk/client-cloudcontrol";
import { awsCode, commonHint } from "../call.js";

// Another operation on the same object is still running, or the service hiccupped: trying again works.
const RETRIED = new Set(["ConcurrentOperationException", "NetworkFailureException", "ServiceInternalErrorException", "HandlerInternalFailureException"]);

/** Cloud Control exceptions worth retrying besides the transient ones every AWS call retries. */
export function retriedAlso(e: unknown): boolean {
  return RETRIED.has(awsCode(e) ?? "");
}

// What to do, by Cloud Control's code: a request's `ErrorCode`, or a refused call's exception name without
// its `Exception` suffix (the two name the same failures).
const UNSUPPORTED = "this resource type does not support this operation through the Cloud Control API (not every CloudFormation type does): manage it with CloudFormation, or with a hand-written Cairn type";
const ADVICE: Readonly<Record<string, string>> = {
  NotUpdatable: "a property that cannot change in place was changed: list it in the resource's replaceOnChanges option, or run up with --replace <name>",
  InvalidRequest: "Cloud Control refused the request as invalid: correct the property the message names, then run up again",
  AlreadyExists: "an object with this identifier already exists: choose another name, or adopt it with the import resource option",
  NotFound: "the object no longer exists: run refresh, then up",
  ResourceConflict: "another object still uses it, or another operation on it is in progress: remove its users (or wait), then run up again",
  AccessDenied: "the credentials in use lack a permission the message names: grant it, then run up again",
  UnauthorizedTaggingOperation: "the credentials in use lack a permission the message names: grant it, then run up again",
  InvalidCredentials: "the credentials in use were refused: check AWS_PROFILE or the keys in use, then run up again",
  ServiceLimitExceeded: "an account quota was reached: raise it, or delete objects you no longer use",
  UnsupportedAction: UNSUPPORTED,
  TypeNotFound: UNSUPPORTED,
  ClientTokenConflict: "a request with this client token but other inputs was already made (an earlier, interrupted run): run up again; Cairn will look the first request up",
};
const ON_AWS_SIDE = "the failure is on AWS's side or temporary: run up again; if it repeats, read the message in the CloudFormation console's resource events";

/**
 * What to do about a Cloud Control API call that was refused (not retried: retrying cannot fix these).
 * Credentials and permissions get the hint every AWS call gives (it names the permission).
 *
 * @example cloudControlHint(Object.assign(new Error("x"), { name: "UnsupportedActionException" })) // "This resource type does not support …. Not retried"
 */
export function cloudControlHint(e: unknown): string | undefined {
  const code = (awsCode(e) ?? "").replace(/Exception$/, "");
  const advice = code === "AccessDenied" ? undefined : ADVICE[code];
  return advice ? `${advice[0]!.toUpperCase()}${advice.slice(1)}. Not retried` : commonHint("Cloud Control", "", e);
}

/** What to do after a request FAILED with `code`. @example failureAdvice("NotUpdatable") // "a property that cannot change in place …" */
export function failureAdvice(code: string | undefined): string {
  return ADVICE[code ?? ""] ?? ON_AWS_SIDE;
}

/**
 * A request that FAILED, as an error naming the operation, the type, the object, Cloud Control's code and
 * message, and what to do. Its `name` is the error code, so waits and retries can tell kinds apart.
 *
 * @example throw new RequestFailed("create", "AWS::S3::Bucket", failedEvent);
 */
export class RequestFailed extends Error {
  readonly code: string;
  constructor(
    readonly operation: "create" | "update" | "delete",
    readonly typeName: string,
    readonly event: ProgressEvent,
  ) {
    const code = event.ErrorCode ?? event.OperationStatus ?? "Failed";
    const what = event.Identifier ? `${typeName} "${event.Identifier}"` : typeName;
    super(`Cloud Control ${operation} of ${what} failed (${code}${event.RequestToken ? `, request ${event.RequestToken}` : ""}): ${event.StatusMessage ?? "no message"}. What to do: ${failureAdvice(event.ErrorCode)}.`);
    this.code = code;
    this.name = `CloudControl${code}`;
  }
}
