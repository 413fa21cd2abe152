import type { ActionKind } from "../plan/actions.js";
import { actionKind } from "../plan/steps/index.js";

/** Error texts that point at one cause, and what to do about it (checked in order; the first match wins). */
const BY_MESSAGE: readonly [RegExp, string][] = [
  [/AccessDenied|UnauthorizedOperation|not authori[sz]ed|Forbidden|\bEACCES\b|\bEPERM\b|permission denied/i, "the credentials in use may not do this: check the permissions (or the file mode)"],
  [/credential|ExpiredToken|InvalidClientTokenId|security token/i, "check the credentials (AWS_PROFILE, AWS_ACCESS_KEY_ID, an expired session)"],
  [/Throttl|Rate exceeded|TooManyRequests|SlowDown/i, "the service is throttling requests: run again in a moment, or lower --parallel"],
  [/ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|getaddrinfo|socket hang up/i, "the service could not be reached: check the network, the endpoint and any proxy"],
  [/\bENOENT\b|not found|No such file/i, "something it needs does not exist: check the names, paths and ids it was given"],
];

/**
 * The hint printed under a failed operation: the likely cause when the message names one, then what the
 * failure left in state and what to run next.
 *
 * @example hintFor("delete", "AccessDenied: …", "npx tsx infra.ts") // "the credentials in use may not do this: …; it stays in state, …"
 */
export function hintFor(kind: ActionKind, message: string, command: string): string {
  // The engine kept the pending record of a call whose outcome is unknown: the next run reads it back first.
  if (/recorded as uncertain/.test(message)) return `The next \`${command} up\` (or preview) reads the object back before planning, then finishes the work.`;
  if (/^stuck: a dependency cycle/.test(message)) return "Nothing in the cycle ran; break the cycle in the program and run again.";
  const cause = BY_MESSAGE.find(([re]) => re.test(message))?.[1];
  // What the failure left in state is the action kind's to say: state is always valid.
  const after = actionKind(kind).afterFailure(command);
  return cause ? `${cause}. Then: ${after}.` : `${after[0]!.toUpperCase()}${after.slice(1)}.`;
}
