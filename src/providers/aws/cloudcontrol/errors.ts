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

/**
 * What to do about a Cloud Control API call that was refused (not retried: retrying cannot fix these).
 *
 * @example cloudControlHint(Object.assign(new Error("x"), { name: "UnsupportedActionException" })) // "This resource type does not support …"
 */
export function cloudControlHint(e: unknown): string | undefined {
  switch (awsCode(e)) {
    case "UnsupportedActionException":
    case "TypeNotFoundException":
      return "This resource type does not support this operation through the Cloud Control API (not every CloudFormation type does): manage it with CloudFormation, or with a hand-written Cairn type. Not retried";
    case "InvalidRequestException":
      return "Cloud Control refused the request as invalid: check the property values the message names. Not retried";
    case "NotUpdatableException":
      return "A property that cannot change in place was changed: list it in the resource's replaceOnChanges option, or run up with --replace <name>. Not retried";
    case "ClientTokenConflictException":
      return "A request with this client token but other inputs was already made (an earlier, interrupted run): run up again; Cairn will look the first request up. Not retried";
    case "ResourceConflictException":
      return "Another operation on this object is in progress, or another object still uses it: wait for it, or remove its users first. Not retried";
    case "InvalidCredentialsException":
      return "The credentials in use were refused: check AWS_PROFILE or the keys in use. Not retried";
    case "AlreadyExistsException":
      return "An object with this identifier already exists: choose another name, or adopt the object with the import option. Not retried";
    default:
      return commonHint("Cloud Control", "", e);
  }
}

/** What to do after a request FAILED with `code`. */
export function failureAdvice(code: string | undefined): string {
  switch (code) {
    case "NotUpdatable":
      return "a property that cannot change in place was changed: list it in the resource's replaceOnChanges option, or run up with --replace <name>";
    case "InvalidRequest":
      return "the cloud refused the inputs: correct the property the message names, then run up again";
    case "AlreadyExists":
      return "an object with this identifier already exists: choose another name, or adopt it with the import resource option";
    case "NotFound":
      return "the object no longer exists: run refresh, then up";
    case "ResourceConflict":
      return "another object still uses it, or another operation on it is in progress: remove its users (or wait), then run up again";
    case "AccessDenied":
    case "InvalidCredentials":
    case "UnauthorizedTaggingOperation":
      return "the credentials in use lack a permission the message names: grant it, then run up again";
    case "ServiceLimitExceeded":
      return "an account quota was reached: raise it, or delete objects you no longer use";
    default:
      return "the failure is on AWS's side or temporary: run up again; if it repeats, read the message in the CloudFormation console's resource events";
  }
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
