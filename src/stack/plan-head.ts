// The head of every plan a stack makes: which stack, against which state and program, and what a refresh found.
import type { DriftFinding, PlanHead } from "../plan/plan.js";
import type { PlanMode } from "../plan/steps/step-parts.js";
import type { StackState, StateMutation } from "../state/types.js";

/** Which stack a plan is for. */
export interface PlanFor {
  project: string;
  stack: string;
}

/** What a refresh found: the state records it updates, and the drift it shows. */
export interface Refreshed {
  mutations: StateMutation[];
  findings: DriftFinding[];
}

/**
 * The head of a plan of stack `of` against `state`: with what a refresh found (`found`, default nothing) and
 * the program's fingerprint (default none: the plan is applied by the run that made it).
 *
 * @example newPlan(planHead({ project: "web", stack: "dev" }, state, "destroy"), body)
 */
export function planHead(of: PlanFor, state: StackState, mode: PlanMode, found?: Refreshed, fingerprint = ""): PlanHead {
  return {
    project: of.project, stack: of.stack, baseSerial: state.serial, fingerprint, mode,
    refresh: found?.mutations ?? [], drift: found?.findings ?? [],
  };
}
