import type { PlanPermissions } from "../../plan/permissions.js";

/**
 * The policy document `preview --permissions` prints on stdout: the IAM policy alone, indented, so it can be
 * saved as it is (`preview --permissions > deploy-policy.json`).
 *
 * @example policyText(stack.permissions(plan)) // '{\n  "Version": "2012-10-17",\n  "Statement": [ … ]\n}'
 */
export function policyText(p: PlanPermissions): string {
  return JSON.stringify(p.policy, null, 2);
}

/**
 * What the policy leaves out, for stderr: the types whose providers do not say what they need, and a plan
 * that needs no permission at all. Empty when there is nothing to say.
 *
 * @example permissionNotes({ policy, operations: { "local:Command": ["create"] }, unstated: ["local:Command"] })
 * // ["note: the policy leaves out local:Command: its provider does not say which permissions it needs."]
 */
export function permissionNotes(p: PlanPermissions): string[] {
  const notes: string[] = [];
  if (p.unstated.length) notes.push(`note: the policy leaves out ${p.unstated.join(", ")}: ${p.unstated.length === 1 ? "its provider does" : "their providers do"} not say which permissions ${p.unstated.length === 1 ? "it needs" : "they need"}.`);
  if (p.policy.Statement.length === 0 && Object.keys(p.operations).length === 0) notes.push("note: the plan calls no provider: it needs no permission.");
  return notes;
}

/**
 * The permissions as the `plan` event of `--json` carries them (`permissions`).
 *
 * @example permissionsJson(stack.permissions(plan)).policy.Version // "2012-10-17"
 */
export function permissionsJson(p: PlanPermissions): { policy: PlanPermissions["policy"]; operations: PlanPermissions["operations"]; unstated: string[] } {
  return { policy: p.policy, operations: p.operations, unstated: p.unstated };
}
