import type { Plan, PlanStep } from "../../plan/plan.js";
import { countSteps, hasChanges, isPartial } from "../../plan/plan.js";
import { SECRET_MASK } from "../../apply/redact.js";
import { diffAttributes } from "../render/diff.js";
import { maskProps, toJsonData } from "../render/value.js";
import { driftedKeys, whyOf } from "../render/why.js";
import { nameOf, typeOf } from "../../core/urn.js";
import type { JsonEventBody, JsonStep } from "./schema.js";

type Change = Extract<JsonStep, { op: "update" }>["changes"][number];

function changesOf(step: Extract<PlanStep, { kind: "update" | "replace" }>): Change[] {
  const before: Record<string, unknown> = { ...step.olds };
  for (const k of driftedKeys(step)) if (k in step.outputs) before[k] = step.outputs[k];
  const forcing = step.kind === "replace" && (step.reason === "attributes" || step.reason === "replaceOnChanges") ? step.replaceKeys : [];
  return diffAttributes(before, step.news, step.changed, step.secretKeys).map((ch) => {
    const out: Change = { path: ch.path, kind: ch.kind, forces_replacement: forcing.includes(ch.attribute) };
    if (ch.kind !== "added") out.before = toJsonData(ch.before);
    if (ch.kind !== "removed") out.after = toJsonData(ch.after);
    return out;
  });
}

/**
 * One plan step as `--json` prints it: names spelt out, secrets masked, unknowns as `{ "$unknown": true }`.
 * @example stepToJson(plan.steps[0], plan) // { op: "create", urn, name, resource_type, deps, inputs }
 */
export function stepToJson(step: PlanStep, plan: Plan): JsonStep {
  const why = whyOf(step, plan);
  const base = { op: step.kind, urn: step.urn as string, name: step.kind === "wait" ? step.name : nameOf(step.urn), resource_type: step.kind === "wait" ? "cairn:wait" : typeOf(step.urn), deps: [...step.deps], ...(why ? { why } : {}) };
  switch (step.kind) {
    case "create":
      return { ...base, op: step.kind, inputs: toJsonData(maskProps(step.news, step.secretKeys)) as Record<string, unknown> };
    case "update":
      return { ...base, op: "update", changes: changesOf(step), drift: driftedKeys(step), ...(step.adopt ? { import_id: step.adopt.id } : {}) };
    case "replace":
      return { ...base, op: "replace", changes: changesOf(step), drift: driftedKeys(step), replace_keys: step.replaceKeys, reason: step.reason, ...(step.cause ? { cause: step.cause } : {}), delete_first: step.deleteFirst, ...(step.adopt ? { import_id: step.adopt.id } : {}) };
    case "delete":
      return { ...base, op: "delete", retain: step.retain, deposed: step.deposed };
    case "read":
      return { ...base, op: "read", deferred: step.deferred };
    case "wait":
      return { ...base, op: "wait", target: step.target, until: step.untilText, ...(step.failWhenText ? { fail_when: step.failWhenText } : {}), timeout_ms: step.timeoutMs, needed: step.needed, ready_now: step.readyNow };
    case "same":
      return { ...base, op: "same", ...(step.movedFrom ? { moved_from: step.movedFrom } : {}), ...(step.adopt ? { import_id: step.adopt.id } : {}) };
    default: {
      const never: never = step;
      return never;
    }
  }
}

/**
 * The body of a `plan` event: the plan as stable, documented JSON (not the engine's internal step data),
 * so scripts keep working when the engine's plan grows.
 *
 * @example planToJson(await stack.preview()).steps.filter((s) => s.op !== "same")
 */
export function planToJson(plan: Plan): JsonEventBody<"plan"> {
  const c = countSteps(plan.steps);
  const outputs: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(plan.outputs)) outputs[k] = plan.secretOutputs.includes(k) ? SECRET_MASK : toJsonData(v);
  return {
    stack: plan.stack,
    project: plan.project,
    destroy: plan.mode === "destroy",
    mode: plan.mode,
    has_changes: hasChanges(plan),
    drift: plan.drift.map((d) => ({ kind: d.kind, urn: d.urn, resource_type: typeOf(d.urn), ...(d.kind === "drift" ? { changed: d.changed } : {}) })),
    counts: { create: c.create, update: c.update, replace: c.replace, delete: c.delete, read: c.read, wait: plan.steps.filter((s) => s.kind === "wait" && s.needed).length },
    steps: plan.steps.map((s) => stepToJson(s, plan)),
    outputs,
    diagnostics: plan.diagnostics.map((d) => ({ severity: d.severity, message: d.message, ...(d.urn ? { urn: d.urn } : {}) })),
    partial: isPartial(plan),
    unforeseen: plan.unforeseen ?? [],
    deferred: (plan.deferred ?? []).map((p) => ({
      kind: p.kind, resource_type: p.type, waits_for: p.waitsFor,
      ...(p.name !== undefined ? { name: p.name } : {}), ...(p.pattern !== undefined ? { name_pattern: p.pattern } : {}), ...(p.urn ? { urn: p.urn } : {}),
    })),
  };
}
