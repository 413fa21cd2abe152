import { formatDuration } from "../../core/duration.js";
import type { PlanStep } from "../steps/index.js";
import { stepKindOf } from "../steps/index.js";
import type { PlanView } from "../steps/step-parts.js";
import type { DeferredPart } from "../plan.js";
import type { Look } from "./model.js";

/**
 * How a plan step is drawn: what its kind's spec says (`look`), except that a step that loses data is drawn
 * as `data-loss` whatever its kind: it is what a reviewer must not miss.
 *
 * @example stepLook(replaceStep, view) // "replace-create-first"
 */
export function stepLook(step: PlanStep, view: PlanView): Look {
  const spec = stepKindOf(step);
  return spec.dataLoss?.(step, view) ? "data-loss" : spec.look(step);
}

/**
 * The lines a step's node shows under its name: the plan's word for it (`+/- replace (create first)`), and
 * for a wait its predicate and timeout. Names and predicates only, never attribute values.
 *
 * @example stepNotes(waitStep, "wait") // ["until cert.status == \"ISSUED\"", "timeout 10m"]
 */
export function stepNotes(step: PlanStep, look: Look): string[] {
  if (step.kind === "wait") {
    const notes = [`until ${step.untilText}`];
    if (step.failWhenText) notes.push(`fails when ${step.failWhenText}`);
    notes.push(`timeout ${formatDuration(step.timeoutMs, { short: true })}${step.needed ? "" : " (not needed: it held)"}`);
    return notes;
  }
  const label = stepKindOf(step).label(step);
  if (step.kind === "same") return [];
  return look === "data-loss" ? [label, "! data loss"] : [label];
}

/**
 * Why a deferred part is not planned yet, in a few words, one case per kind of part.
 * @example deferredNote({ kind: "declared", waitsFor: "cert.domainValidationOptions", … }) // "declared in apply() on cert.domainValidationOptions"
 */
export function deferredNote(p: DeferredPart): string {
  switch (p.kind) {
    case "declared":
      return `declared in apply() on ${p.waitsFor}`;
    case "node":
      return `reads what apply() on ${p.waitsFor} declares`;
    case "kept":
      return `kept until apply() on ${p.waitsFor} runs again`;
    default: {
      const never: never = p.kind;
      return never;
    }
  }
}
