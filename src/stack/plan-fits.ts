import { CairnError } from "./errors.js";
import { DiagnosticsError } from "../core/diagnostic.js";
import { PLAN_FORMAT_VERSION, type Plan } from "../plan/plan.js";
import type { StackState } from "../state/types.js";
import type { PlanFor } from "./plan-head.js";

/**
 * Refuses a plan that must not be applied to this stack now: it has errors, is of another format, was
 * made for another stack, or the state moved since it was made. Each refusal says that nothing changed.
 *
 * @example refuseUnfitPlan(plan, state, { project: "web", stack: "dev" }); // throws a CairnError, or returns
 */
export function refuseUnfitPlan(plan: Plan, state: StackState, here: PlanFor): void {
  const errors = plan.diagnostics.filter((d) => d.severity === "error");
  if (errors.length) throw new DiagnosticsError(errors, `The plan has ${errors.length} error(s); nothing was changed:`);
  if (plan.version !== PLAN_FORMAT_VERSION) throw new CairnError(`This plan is of format ${String(plan.version)}; this Cairn applies format ${PLAN_FORMAT_VERSION}. Make the plan again.`);
  if (plan.project !== here.project || plan.stack !== here.stack) {
    throw new CairnError(`This plan was made for stack "${plan.stack}" of project "${plan.project}", not stack "${here.stack}" of "${here.project}"; nothing was applied. Apply it with --stack ${plan.stack}, or make a plan of this stack with \`preview --out\`.`);
  }
  if (plan.baseSerial !== state.serial) {
    throw new CairnError(`The state of stack "${here.stack}" changed since this plan was made (serial ${plan.baseSerial} → ${state.serial}); nothing was applied. Run preview again and apply the new plan.`);
  }
}
