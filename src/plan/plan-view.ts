import type { Urn } from "../core/urn.js";
import { nameOf } from "../core/urn.js";
import type { Plan } from "./plan.js";
import { stepKindOf, stepKinds, type PlanStep, type StepKind, type UpdateStep } from "./steps/index.js";
import { stackReadReasons } from "./steps/stack-reasons.js";
import type { PlanView } from "./steps/step-parts.js";

// One view per plan, built on first use: rendering asks for the "why" of every changed step, and a
// map rebuilt per step would make rendering quadratic in the plan's size. Keyed by the steps array, so
// a plan given new steps gets a new view; weak, so it goes with the plan.
const views = new WeakMap<readonly PlanStep[], PlanView>();

/** A step as a changing dependency in another step's reason, or undefined when the plan does nothing to it. */
function asDependency(step: PlanStep | undefined): string | undefined {
  if (!step) return undefined;
  const spec = stepKindOf(step);
  if (!spec.changing(step)) return undefined;
  return spec.asDependency ? spec.asDependency(step) : `${nameOf(step.urn)}, which ${spec.whatHappens}`;
}

/**
 * What the step kinds' words need of a plan (its mode, and how it changes a step's dependencies), built once
 * per plan with a URN index of its steps.
 *
 * @example planView(plan).changingDeps(step.deps) // ["zone, which is replaced"]
 */
export function planView(plan: Pick<Plan, "steps" | "mode">): PlanView {
  const known = views.get(plan.steps);
  if (known && known.mode === plan.mode) return known;
  const byUrn = new Map<string, PlanStep>(plan.steps.map((s) => [s.urn, s]));
  // A stack reference's update, found first: a deposed delete of the same URN comes later in the plan.
  let updates: Map<string, UpdateStep> | undefined;
  const updateOf = (urn: Urn) => {
    if (!updates) {
      updates = new Map();
      for (const s of plan.steps) if (s.kind === "update" && !updates.has(s.urn)) updates.set(s.urn, s);
    }
    return updates.get(urn);
  };
  const view: PlanView = {
    mode: plan.mode,
    changingDeps: (deps) => deps.flatMap((d) => asDependency(byUrn.get(d)) ?? []),
    stackReads: (deps) => stackReadReasons(deps, updateOf),
  };
  views.set(plan.steps, view);
  return view;
}

/**
 * How many steps of each kind a plan counts (waits only when they run), for the count line and `--json`.
 * @example countedSteps(plan) // [["create", 2], ["wait", 1]]
 */
export function countedSteps(steps: readonly PlanStep[]): [StepKind, number][] {
  const counts = new Map<StepKind, number>();
  for (const s of steps) if (stepKindOf(s).counted(s)) counts.set(s.kind, (counts.get(s.kind) ?? 0) + 1);
  return stepKinds().flatMap((k) => (k.countText ? [[k.kind, counts.get(k.kind) ?? 0] as [StepKind, number]] : []));
}

/**
 * The plan's view (see `planView`), built the first time a step's words ask something of it: a plan of
 * creates only (a new stack) never does, and the view's URN index holds a map entry for every step of the
 * plan.
 *
 * @example const view = planViewOnDemand(plan); for (const s of plan.steps) stepKindOf(s).why(s, view);
 */
export function planViewOnDemand(plan: Pick<Plan, "steps" | "mode">): PlanView {
  let view: PlanView | undefined;
  const built = () => (view ??= planView(plan));
  return { mode: plan.mode, changingDeps: (deps) => built().changingDeps(deps), stackReads: (deps) => built().stackReads(deps) };
}
