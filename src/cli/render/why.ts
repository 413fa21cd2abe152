import type { Plan, PlanStep } from "../../plan/plan.js";
import { stepKindOf } from "../../plan/steps/index.js";
import { planView } from "../../plan/plan-view.js";

/**
 * Why a step is in the plan, in words: which inputs changed (in the program, through a dependency, or by
 * drift), `--replace`, a tainted object, a provider move, a resource no longer declared. Undefined when the
 * step speaks for itself (a create, an unchanged resource; waits carry their own `why`).
 *
 * @example whyOf(updateStep, plan) // "content changed in the program"
 */
export function whyOf(step: PlanStep, plan: Plan): string | undefined {
  return stepKindOf(step).why(step, planView(plan));
}
