import * as z from "zod/mini";
import { STACK_REFERENCE_TYPE } from "../../program/stack-reference.js";
import { changeLines, driftedKeys, jsonChanges } from "./attribute-lines.js";
import { adopting, causes, keysText } from "./change-reasons.js";
import { referenceWhy } from "./stack-reasons.js";
import { actionId, alwaysChanges, priorReads, changeParts, addFields, jsonBase, jsonParts, planParts, plainAction, whyLines } from "./step-parts.js";
import type { ActionBase, ActionSpec, ChangeStepFields, PlanView, StepKindSpec } from "./step-parts.js";

/** A resource whose object is changed in place. */
export interface UpdateStep extends ChangeStepFields {
  kind: "update";
}

/** Changing the object in place. */
export type UpdateAction = ActionBase<"update", UpdateStep>;

/** An update as a saved plan holds it. */
export const updateSchema = z.object({ ...planParts.base, kind: z.literal("update"), ...changeParts });

/** An update as `--json` prints it: the changed paths, which of them drifted, and the adopted id. */
export const updateJson = z.strictObject({ ...jsonParts.base, op: z.literal("update"), changes: z.array(jsonParts.change), drift: z.array(z.string()), import_id: z.optional(z.string()) });

function why(step: UpdateStep, plan: PlanView): string | undefined {
  if (step.type === STACK_REFERENCE_TYPE) return referenceWhy(step);
  return adopting(step, causes(step, step.changed, plan)) || undefined;
}

/** The update step kind. */
export const updateStep: StepKindSpec<UpdateStep, UpdateAction, z.infer<typeof updateJson>> = {
  ...alwaysChanges,
  kind: "update",
  deletesOrReplaces: false,
  inProgram: true,
  recorded: true,
  holdsOn: () => true,
  look: () => "update",
  countText: (n) => `${n} to update`,
  actions: (step) => [{ id: actionId(step, "update"), kind: "update", step, index: -1 }],
  operations: (step, plan) => [{ type: step.type, operation: "update" }, ...priorReads(step, plan)],
  decision: (step) => `changed ${step.changed.join(", ")}${keysText("drifted", step.drift)}${step.adopt ? "; adopts an existing object" : ""}`,
  whatHappens: "is updated",
  label: () => "~ update",
  color: "yellow",
  why,
  details: (step, plan, declared, o) => whyLines(why(step, plan), declared, changeLines(step, [], o)),
  toJson: (step, plan) => addFields(jsonBase(step, why(step, plan)), { changes: jsonChanges(step, []), drift: driftedKeys(step), import_id: step.adopt?.id }),
};

/** The update action kind. */
export const updateAction: ActionSpec<UpdateAction> = {
  ...plainAction,
  kind: "update",
  callsProvider: true,
  slot: true,
  polls: false,
  makesValue: true,
  releases: true,
  deletesObject: false,
  doneText: "updated",
  runningText: "updating",
  afterFailure: (command) => `the object keeps its last recorded state; fix the cause and run \`${command} up\` again`,
};
