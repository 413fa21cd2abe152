import type { Plan, PlanStep } from "../../plan/plan.js";
import { changesBeyondObserved, isPartial, refreshRecords } from "../../plan/plan.js";
import { SECRET_MASK } from "../../core/secret-mask.js";
import { toJsonData } from "../../core/value-text.js";
import { typeOf } from "../../core/urn.js";
import { stepKindOf, type JsonStep } from "../../plan/steps/index.js";
import { countedSteps, planView } from "../../plan/plan-view.js";
import type { JsonEventBody } from "./schema.js";
import { diagnosticJson } from "../render/diagnostic.js";
import { planViewOnDemand } from "../../plan/plan-view.js";

/**
 * One plan step as `--json` prints it: names spelt out, secrets masked, unknowns as `{ "$unknown": true }`.
 * @example stepToJson(plan.steps[0], plan) // { op: "create", urn, name, resource_type, deps, inputs }
 */
export function stepToJson(step: PlanStep, plan: Plan): JsonStep {
  return stepKindOf(step).toJson(step, planView(plan)) as JsonStep;
}

/** Every step as `--json` prints it, the plan's view made once for all of them. */
function stepsToJson(plan: Plan): JsonStep[] {
  const view = planViewOnDemand(plan);
  return plan.steps.map((s) => stepKindOf(s).toJson(s, view) as JsonStep);
}

/**
 * The body of a `plan` event: the plan as stable, documented JSON (not the engine's internal step data),
 * so scripts keep working when the engine's plan grows.
 *
 * @example planToJson(await stack.preview()).steps.filter((s) => s.op !== "same")
 */
export function planToJson(plan: Plan): JsonEventBody<"plan"> {
  const outputs: Record<string, unknown> = {};
  const secret = new Set(plan.secretOutputs); // a stack may output one value per resource
  for (const [k, v] of Object.entries(plan.outputs)) outputs[k] = secret.has(k) ? SECRET_MASK : toJsonData(v);
  return {
    stack: plan.stack,
    project: plan.project,
    destroy: plan.mode === "destroy",
    mode: plan.mode,
    // Recording what a refresh observed of undeclared values (a status) is not a change: as --expect-no-changes.
    has_changes: changesBeyondObserved(plan),
    refresh_records: refreshRecords(plan),
    drift: plan.drift.map((d) => ({ kind: d.kind, urn: d.urn, resource_type: typeOf(d.urn), ...(d.kind === "drift" ? { changed: d.changed } : {}) })),
    counts: Object.fromEntries(countedSteps(plan.steps)) as JsonEventBody<"plan">["counts"],
    steps: stepsToJson(plan),
    outputs,
    output_notes: { ...plan.outputNotes },
    diagnostics: plan.diagnostics.map(diagnosticJson),
    partial: isPartial(plan),
    unforeseen: plan.unforeseen ?? [],
    deferred: (plan.deferred ?? []).map((p) => ({
      kind: p.kind, resource_type: p.type, waits_for: p.waitsFor,
      ...(p.name !== undefined ? { name: p.name } : {}), ...(p.pattern !== undefined ? { name_pattern: p.pattern } : {}), ...(p.urn ? { urn: p.urn } : {}),
    })),
  };
}
