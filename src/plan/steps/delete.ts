import * as z from "zod/mini";
import type { Props } from "../../state/types.js";
import { valueLines } from "./attribute-lines.js";
import { actionId, alwaysChanges, addFields, priorReads, jsonBase, jsonParts, planParts, plainAction, whyLines } from "./step-parts.js";
import type { ActionBase, ActionSpec, DataLoss, DetailOptions, PlanView, PriorObject, StepBase, StepKindSpec } from "./step-parts.js";
import { dataLossLine, deleteLossText } from "./data-loss-text.js";

/** An object no longer declared (or left deposed by an interrupted replace): deleted, or forgotten with `retainOnDelete`. */
export interface DeleteStep extends StepBase {
  kind: "delete";
  id: string;
  olds: Props;
  outputs: Props;
  /** `retainOnDelete`: forget it, leave the cloud object. */
  retain: boolean;
  /** An old object left by an interrupted replace, not the resource's current one. */
  deposed: boolean;
  secretKeys: string[];
  prior: PriorObject;
  /** The object is a stateful one, deleted with its data (never for `retain` or `deposed`). */
  dataLoss?: DataLoss;
}

/** Deleting the object. */
export type DeleteAction = ActionBase<"delete", DeleteStep>;

/** Forgetting the object (`retainOnDelete`): its record goes, the cloud object stays. */
export type ForgetAction = ActionBase<"forget", DeleteStep>;

/** A delete as a saved plan holds it. */
export const deleteSchema = z.object({
  ...planParts.base, kind: z.literal("delete"), id: planParts.id, olds: planParts.props, outputs: planParts.props, retain: z.boolean(), deposed: z.boolean(),
  secretKeys: planParts.names, prior: planParts.prior, dataLoss: planParts.dataLoss,
});

/** A delete as `--json` prints it. */
export const deleteJson = z.strictObject({ ...jsonParts.base, op: z.literal("delete"), retain: z.boolean(), deposed: z.boolean(), data_loss: jsonParts.dataLoss });

function why(step: DeleteStep, plan: PlanView): string | undefined {
  if (step.deposed) return "an old object left by an interrupted replace";
  if (plan.mode === "destroy") return undefined;
  return step.retain ? "no longer in the program; retainOnDelete: the cloud object is kept, only forgotten" : "no longer in the program";
}

const dataLoss = (step: DeleteStep, plan: PlanView) => (step.dataLoss ? { loss: step.dataLoss, what: deleteLossText(step, plan.mode) } : undefined);

/** The lines under the plan line: the data-loss warning first, then why, then (`--diff`) the values deleted. */
function details(step: DeleteStep, plan: PlanView, declared: readonly string[], o: DetailOptions): string[] {
  const lines = whyLines(why(step, plan), declared, o.diff ? valueLines(step.olds, step.secretKeys, o) : []);
  return step.dataLoss ? [dataLossLine(step.dataLoss, deleteLossText(step, plan.mode), o.colors), ...lines] : lines;
}

/** The delete step kind. */
export const deleteStep: StepKindSpec<DeleteStep, DeleteAction | ForgetAction, z.infer<typeof deleteJson>> = {
  ...alwaysChanges,
  kind: "delete",
  deletesOrReplaces: true,
  inProgram: false,
  recorded: false,
  holdsOn: () => false,
  look: () => "delete",
  countText: (n) => `${n} to delete`,
  actions: (step) => {
    const id = actionId(step, step.deposed ? `deposed:${step.id}` : "delete");
    return [step.retain ? { id, kind: "forget", step, index: -1 } : { id, kind: "delete", step, index: -1 }];
  },
  // `retainOnDelete` only forgets it; a refresh read it.
  operations: (step, plan) => [...(step.retain ? [] : [{ type: step.type, operation: "delete" as const }]), ...priorReads(step, plan)],
  decision: (step) => (step.deposed ? "deposed object" : step.retain ? "not in the program (retainOnDelete: forgotten)" : "not in the program"),
  whatHappens: "is deleted",
  label: (step) => (step.retain ? "- forget (retainOnDelete)" : step.deposed ? "- delete (deposed)" : "- delete"),
  color: "red",
  why,
  dataLoss,
  details,
  toJson: (step, plan) => addFields(jsonBase(step, why(step, plan)), { retain: step.retain, deposed: step.deposed, data_loss: step.dataLoss && { allowed: step.dataLoss.allowed } }),
};

/** The delete action kind. */
export const deleteAction: ActionSpec<DeleteAction> = {
  ...plainAction,
  kind: "delete",
  callsProvider: true,
  slot: true,
  polls: false,
  makesValue: false,
  releases: true,
  deletesObject: true,
  removesRecord: (a) => !a.step.deposed,
  deletesDeposed: (a) => a.step.deposed,
  doneText: "deleted",
  runningText: "deleting",
  afterFailure: (command) => `it stays in state, so the next run tries again; if it was already removed by hand, \`${command} refresh\` forgets it`,
};

/** The forget action kind (`retainOnDelete`). */
export const forgetAction: ActionSpec<ForgetAction> = {
  ...plainAction,
  kind: "forget",
  callsProvider: false,
  slot: true,
  polls: false,
  makesValue: false,
  releases: true,
  deletesObject: false,
  doneText: "forgot (retainOnDelete: left in the cloud)",
  runningText: "forgetting",
  afterFailure: (command) => `nothing was changed; run \`${command} up\` again`,
};
