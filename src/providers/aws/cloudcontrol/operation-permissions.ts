/**
 * What each operation of a Cloud Control type needs from IAM: the Cloud Control API actions the provider
 * calls, and the permissions the registry lists for the type's handlers that run (Cloud Control acts with
 * the caller's credentials, so the caller needs both).
 */
import type { ProviderOperation } from "../../../provider/provider.js";
import type { HandlerName } from "./permissions.js";

/**
 * The Cloud Control API actions behind each operation, as the provider calls them: a request is polled
 * with `ListResourceRequests` (one call for every request in flight) and `GetResourceRequestStatus`; a
 * create or update reads the object back; `list` reads many with `ListResources`, then any it missed one by
 * one.
 */
const API: Readonly<Record<ProviderOperation, readonly string[]>> = {
  create: ["cloudformation:CreateResource", "cloudformation:GetResourceRequestStatus", "cloudformation:ListResourceRequests", "cloudformation:GetResource"],
  update: ["cloudformation:UpdateResource", "cloudformation:GetResourceRequestStatus", "cloudformation:ListResourceRequests", "cloudformation:GetResource"],
  delete: ["cloudformation:DeleteResource", "cloudformation:GetResourceRequestStatus", "cloudformation:ListResourceRequests"],
  read: ["cloudformation:GetResource"],
  list: ["cloudformation:ListResources", "cloudformation:GetResource"],
};

/** The handlers that run for an operation: a create or update reads back, a list reads what it missed. */
const HANDLERS: Readonly<Record<ProviderOperation, readonly HandlerName[]>> = {
  create: ["create", "read"],
  update: ["update", "read"],
  delete: ["delete"],
  read: ["read"],
  list: ["list", "read"],
};

/**
 * The IAM actions one operation of a type needs, from the registry's handler permissions (`handlers`, as
 * `handlerPermissions` answers for the type); undefined when the registry does not have the type.
 *
 * @example operationPermissions(handlerPermissions("AWS::SQS::Queue"), "delete") // ["cloudformation:DeleteResource", …, "sqs:DeleteQueue", "sqs:GetQueueAttributes"]
 */
export function operationPermissions(handlers: Readonly<Record<HandlerName, readonly string[]>> | undefined, operation: ProviderOperation): string[] | undefined {
  if (!handlers) return undefined;
  const out = new Set(API[operation]);
  for (const h of HANDLERS[operation]) for (const a of handlers[h] ?? []) out.add(a);
  return [...out].sort();
}
