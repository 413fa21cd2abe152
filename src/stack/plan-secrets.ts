import type { SecretRegistry } from "../apply/secret-registry.js";
import type { Plan, PlanBody } from "../plan/plan.js";
import { stepKindOf } from "../plan/steps/index.js";

/**
 * Remembers the secret values a plan holds (inputs, prior values and outputs named secret; secret stack
 * outputs), so that everything printed or stored after redacts them.
 * @example planSecrets(plan, registry); registry.redact(message);
 */
export function planSecrets(plan: PlanBody, secrets: SecretRegistry): void {
  for (const s of plan.steps) if ("secretKeys" in s) secrets.addSecretsOf(s);
  secrets.addProps(plan.outputs, plan.secretOutputs);
}

/**
 * True when applying the plan writes secret values to state (so a passphrase is needed first): secret stack
 * outputs, or secrets of a step whose resource is recorded after it (`StepKindSpec.recorded`).
 * @example if (planHasSecrets(plan)) await backend.requirePassphrase();
 */
export function planHasSecrets(plan: Plan): boolean {
  return plan.secretOutputs.length > 0 || plan.steps.some((s) => "secretKeys" in s && s.secretKeys.length > 0 && stepKindOf(s).recorded);
}
