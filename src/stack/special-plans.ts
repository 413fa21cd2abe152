// The plans a stack makes without planning the program: destroy (every resource in state, or some) and
// refresh-only (what a refresh found, recorded without touching the cloud).
import type { Urn } from "../core/urn.js";
import { checkDeleteProviders, destroyScope, planDeletes } from "../plan/deletes.js";
import { newPlan, type Plan, type PlanBody } from "../plan/plan.js";
import type { StackState } from "../state/types.js";
import { planHead, type PlanFor, type Refreshed } from "./plan-head.js";

/** A body with no steps, no outputs and no problems (what destroy and refresh-only plans start from). */
function emptyBody(): PlanBody {
  return { steps: [], outputs: {}, secretOutputs: [], outputsChanged: false, diagnostics: [] };
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
  const body = emptyBody();
  const scope = targets.length ? destroyScope(state, targets) : undefined;
  for (const t of targets) {
    if (!state.resources[t]) body.diagnostics.push({ severity: "error", summary: `--target ${t}: no resource with this URN in state. Run \`state list\` to see the URNs.` });
  }
  body.steps = planDeletes(state, () => false, scope, body.diagnostics, stateful);
  checkDeleteProviders(body.steps, hasProvider, body.diagnostics);
  // A targeted destroy keeps the stack outputs: the rest of the stack still stands.
  body.outputsChanged = !scope && Object.keys(state.outputs).length > 0;
  return newPlan(planHead(of, state, "destroy"), body);
}

/**
 * The plan of `up --refresh-only`: what a refresh read, recorded as state changes, with nothing to apply.
 * @example refreshOnlyPlan({ project, stack }, state, await readAll(state, env))
 */
export function refreshOnlyPlan(of: PlanFor, state: StackState, found: Refreshed): Plan {
  return newPlan(planHead(of, state, "refresh-only", found), emptyBody());
}
