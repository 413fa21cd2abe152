import { nameOf } from "../core/urn.js";
import type { ResourceSchema } from "../provider/schema.js";
import type { DataLoss, Plan, PlanStep, ReplaceReason } from "./plan.js";
import { stepKindOf } from "./steps/index.js";
import { planViewOnDemand } from "./plan-view.js";

/**
 * Which steps of a plan lose data (replace or delete a stateful object, see {@link DataLoss}), and which of
 * them a run has not allowed: `up` refuses those before anything is applied.
 */

/**
 * True when a type's objects hold data the program does not (its schema says `stateful`).
 * @example isStateful(Bucket.definition.schema) // true
 */
export function isStateful(schema: ResourceSchema | undefined): boolean {
  return schema?.stateful === true;
}

/**
 * The marking of a replace: undefined when it loses nothing. The old object is kept with `retainOnDelete`
 * (only forgotten), and a tainted object's create never finished, so nothing was put in it.
 *
 * @example replaceLoss("attributes", { retainOnDelete: false, allowDataLoss: false }, true) // { allowed: false }
 */
export function replaceLoss(reason: ReplaceReason, o: { retainOnDelete: boolean; allowDataLoss: boolean }, stateful: boolean): DataLoss | undefined {
  if (!stateful || o.retainOnDelete || reason === "tainted") return undefined;
  return { allowed: o.allowDataLoss };
}

/**
 * The marking of a delete: undefined when it loses nothing. A retained object stays in the cloud; a deposed
 * one is the old object of a replace already applied, whose loss was agreed to when it ran.
 *
 * @example deleteLoss({ retain: false, deposed: false }, true) // { allowed: false }
 */
export function deleteLoss(o: { retain: boolean; deposed: boolean }, stateful: boolean): DataLoss | undefined {
  return stateful && !o.retain && !o.deposed ? { allowed: false } : undefined;
}

/**
 * A step that loses data, with what it does in words.
 * @example const l: LossStep = { step, loss: { allowed: false }, what: "deletes the Bucket and its data because it left the program" };
 */
export interface LossStep {
  step: PlanStep;
  loss: DataLoss;
  /** `replaces the DBInstance because engine changed: the old one is deleted with its data`. */
  what: string;
}

/**
 * The steps of a plan that lose data, in plan order.
 * @example dataLossSteps(plan).map((l) => l.step.urn)
 */
export function dataLossSteps(plan: Plan): LossStep[] {
  const out: LossStep[] = [];
  const view = planViewOnDemand(plan);
  for (const step of plan.steps) {
    const marked = stepKindOf(step).dataLoss?.(step, view);
    if (marked) out.push({ step, ...marked });
  }
  return out;
}

/**
 * True when `allow` names the step's resource: by URN, or by name (every resource of that name).
 * @example allowsResource(["db"], "urn:cairn:dev::app::aws:rds:DBInstance::db") // true
 */
export function allowsResource(allow: readonly string[], urn: string): boolean {
  return allow.includes(urn) || allow.includes(nameOf(urn));
}

/**
 * The data-loss steps neither the program (`allowDataLoss: true`) nor `allow` (names or URNs) allows.
 * @example refusedLosses(plan, ["db"]).length // 0 when db's replace is the only one
 */
export function refusedLosses(plan: Plan, allow: readonly string[]): LossStep[] {
  return dataLossSteps(plan).filter((l) => !l.loss.allowed && !allowsResource(allow, l.step.urn));
}

/**
 * The entries of `allow` that name no data-loss step of the plan (a misspelt name would otherwise pass silently).
 * @example unusedAllows(plan, ["dbb"]) // ["dbb"]
 */
export function unusedAllows(plan: Plan, allow: readonly string[]): string[] {
  if (allow.length === 0) return [];
  const losses = dataLossSteps(plan);
  return allow.filter((a) => !losses.some((l) => allowsResource([a], l.step.urn)));
}
