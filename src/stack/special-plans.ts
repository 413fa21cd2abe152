// The plans a stack makes without planning the program: destroy (every resource in state, or some) and
// refresh-only (what a refresh found, recorded without touching the cloud).
import type { Urn } from "../core/urn.js";
import { checkDeleteProviders, destroyScope, planDeletes } from "../plan/deletes.js";
import { PLAN_FORMAT_VERSION, type DriftFinding, type Plan } from "../plan/plan.js";
import type { StackState, StateMutation } from "../state/types.js";

/** Which stack a plan is for. */
export interface PlanFor {
  project: string;
  stack: string;
}

/**
 * A plan with no steps against `state` (the start of destroy and refresh-only plans).
 * @example emptyPlan({ project: "web", stack: "dev" }, state).steps // []
 */
export function emptyPlan(of: PlanFor, state: StackState): Plan {
  return {
    version: PLAN_FORMAT_VERSION, project: of.project, stack: of.stack, baseSerial: state.serial, fingerprint: "", mode: "update",
    refresh: [], drift: [], steps: [], outputs: {}, secretOutputs: [], outputsChanged: false, diagnostics: [],
  };
}

/**
 * The plan that deletes every resource in state, or `targets` and what depends on them; a target not in
 * state, or a type no provider serves, is an error of the plan (nothing runs).
 *
 * @example destroyPlan({ project, stack }, state, [], (type, urn) => providers(type, urn) !== undefined)
 */
export function destroyPlan(
  of: PlanFor,
  state: StackState,
  targets: readonly Urn[],
  hasProvider: (type: string, urn: Urn) => boolean,
  /** True for a type whose objects hold data: their deletes are marked as data loss (shown, not refused). */
  stateful: (type: string) => boolean = () => false,
): Plan {
  const plan = emptyPlan(of, state);
  plan.mode = "destroy";
  const scope = targets.length ? destroyScope(state, targets) : undefined;
  for (const t of targets) {
    if (!state.resources[t]) plan.diagnostics.push({ severity: "error", summary: `--target ${t}: no resource with this URN in state. Run \`state list\` to see the URNs.` });
  }
  plan.steps = planDeletes(state, () => false, scope, plan.diagnostics, stateful);
  checkDeleteProviders(plan.steps, hasProvider, plan.diagnostics);
  // A targeted destroy keeps the stack outputs: the rest of the stack still stands.
  plan.outputsChanged = !scope && Object.keys(state.outputs).length > 0;
  return plan;
}

/**
 * The plan of `up --refresh-only`: what a refresh read, recorded as state changes, with nothing to apply.
 * @example refreshOnlyPlan({ project, stack }, state, await readAll(state, env))
 */
export function refreshOnlyPlan(of: PlanFor, state: StackState, found: { mutations: StateMutation[]; findings: DriftFinding[] }): Plan {
  return { ...emptyPlan(of, state), mode: "refresh-only", refresh: found.mutations, drift: found.findings };
}
