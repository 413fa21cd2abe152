import type { Plan } from "../../plan/plan.js";
import { planView } from "../../plan/plan-view.js";
import type { PlanView } from "../../plan/steps/step-parts.js";

/**
 * The plan's view (see `planView`), built the first time a step's words ask something of it: a plan of
 * creates only (a new stack) never does, and the view's URN index of every step is 10,000 map entries for
 * a 10,000-step plan.
 *
 * @example const view = planViewOnDemand(plan); for (const s of plan.steps) stepKindOf(s).why(s, view);
 */
export function planViewOnDemand(plan: Pick<Plan, "steps" | "mode">): PlanView {
  let view: PlanView | undefined;
  const built = () => (view ??= planView(plan));
  return { mode: plan.mode, changingDeps: (deps) => built().changingDeps(deps), stackReads: (deps) => built().stackReads(deps) };
}
