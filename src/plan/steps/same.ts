import * as z from "zod/mini";
import type { Urn } from "../../core/urn.js";
import { addFields, jsonBase, jsonParts, planParts, priorReads, whyLines } from "./step-parts.js";
import type { AdoptedObject, StepBase, StepKindSpec, StepMeta } from "./step-parts.js";

/** A resource that does not change (its record may still move to a new URN, or adopt an object). */
export interface SameStep extends StepBase {
  kind: "same";
  meta: StepMeta;
  movedFrom?: Urn;
  /** The object is adopted (`import`): recorded as it is, nothing else to do. */
  adopt?: AdoptedObject;
}

/** An unchanged resource as a saved plan holds it. */
export const sameSchema = z.object({ ...planParts.base, kind: z.literal("same"), meta: planParts.meta, movedFrom: z.optional(planParts.urn), adopt: planParts.adopt });

/** An unchanged resource as `--json` prints it. */
export const sameJson = z.strictObject({ ...jsonParts.base, op: z.literal("same"), moved_from: z.optional(z.string()), import_id: z.optional(z.string()) });

/** Only its state record changes: it moves to a new URN, or adopts an existing object. */
const recordChanges = (step: SameStep) => step.movedFrom !== undefined || step.adopt !== undefined;

function why(step: SameStep): string | undefined {
  if (step.adopt) return `import: adopts the existing object ${step.adopt.id}, which already matches the program`;
  return step.movedFrom ? `moved from ${step.movedFrom} (an alias): same object, new URN` : undefined;
}

/** The unchanged step kind. */
export const sameStep: StepKindSpec<SameStep, never, z.infer<typeof sameJson>> = {
  kind: "same",
  deletesOrReplaces: false,
  inProgram: true,
  recorded: true,
  holdsOn: () => true,
  look: () => "same",
  changing: () => false,
  changes: recordChanges,
  listed: recordChanges,
  counted: () => true,
  actions: () => [],
  operations: priorReads,
  decision: (step) => `no change${step.movedFrom ? ` (moved from ${step.movedFrom})` : ""}${step.adopt ? "; adopts an existing object" : ""}`,
  whatHappens: "is unchanged",
  label: (step) => (step.adopt ? "<= import" : step.movedFrom ? "= move" : "  same"),
  color: "dim",
  why,
  details: (step, _plan, declared) => whyLines(why(step), declared),
  toJson: (step) => addFields(jsonBase(step, why(step)), { moved_from: step.movedFrom || undefined, import_id: step.adopt?.id }),
};
