import * as z from "zod/mini";
import { nameOf } from "../../core/urn.js";
import type { ProviderRecord } from "../../state/types.js";
import { changeLines, driftedKeys, jsonChanges } from "./attribute-lines.js";
import { adopting, causes, keysText } from "./change-reasons.js";
import { actionId, alwaysChanges, changeParts, priorReads, addFields, jsonBase, jsonParts, planParts, plainAction, whyLines } from "./step-parts.js";
import type { ActionBase, ActionSpec, ChangeStepFields, DataLoss, DetailOptions, PlanView, ReplaceReason, StepKindSpec } from "./step-parts.js";
import { dataLossLine, replaceLossText } from "./data-loss-text.js";

/** A resource whose object is replaced: a new one is made and the old one deleted, in the order `deleteFirst` says. */
export interface ReplaceStep extends ChangeStepFields {
  kind: "replace";
  replaceKeys: string[];
  reason: ReplaceReason;
  /**
   * For `dependency`: the resource deleted first; for `triggered`: the values that changed; for
   * `attributes`: the provider's reason, when the keys alone do not say why they force a replacement.
   */
  cause?: string;
  deleteFirst: boolean;
  /**
   * The old object is kept (as deposed) rather than deleted in this plan: objects kept for a later round
   * (see `DeferredPart`) still reference it, and the plan that plans them deletes it after they let go.
   */
  keepOld?: boolean;
  /** The old object is a stateful one, deleted with its data (absent when it is kept, `retainOnDelete`). */
  dataLoss?: DataLoss;
}

/** Making the replacement. */
export type ReplaceAction = ActionBase<"replace", ReplaceStep>;

/** Deleting the replaced object. */
export type DeleteReplacedAction = ActionBase<"delete-replaced", ReplaceStep>;

const REASONS = ["attributes", "tainted", "requested", "replaceOnChanges", "provider", "dependency", "triggered"] as const satisfies readonly ReplaceReason[];

/** A replace as a saved plan holds it. */
export const replaceSchema = z.object({
  ...planParts.base, kind: z.literal("replace"), ...changeParts, replaceKeys: planParts.names, deleteFirst: z.boolean(), keepOld: z.optional(z.boolean()), cause: z.optional(z.string()),
  reason: z.enum(REASONS), dataLoss: planParts.dataLoss,
});

/** A replace as `--json` prints it: the changed paths, the keys that force it, why, and the order. */
export const replaceJson = z.strictObject({
  ...jsonParts.base, op: z.literal("replace"), changes: z.array(jsonParts.change), drift: z.array(z.string()), replace_keys: z.array(z.string()), reason: z.string(),
  cause: z.optional(z.string()), delete_first: z.boolean(), import_id: z.optional(z.string()), data_loss: jsonParts.dataLoss,
});

function formatSettings(p: ProviderRecord | undefined): string {
  const entries = Object.entries(p?.settings ?? {});
  return entries.length ? entries.map(([k, v]) => `${k}=${v}`).join(" ") : "default";
}

/** Why a replace happens, for each {@link ReplaceReason}. */
function reasonText(step: ReplaceStep, plan: PlanView): string {
  const reason: ReplaceReason = step.reason;
  switch (reason) {
    case "attributes": {
      const keys = step.replaceKeys.length ? step.replaceKeys : step.changed;
      if (step.cause) return `${causes(step, keys, plan)}, and ${step.cause}: the object is replaced`;
      return `${causes(step, keys, plan)}, and ${keys.length === 1 ? "it forces" : "they force"} a replacement`;
    }
    case "replaceOnChanges":
      return `${causes(step, step.replaceKeys, plan)}, and replaceOnChanges lists ${step.replaceKeys.length === 1 ? "it" : "them"}`;
    case "tainted":
      return "the object is tainted (its create failed part-way)";
    case "requested":
      return "replacement requested with --replace";
    case "provider":
      return `provider settings changed (${formatSettings(step.prior.provider)} → ${formatSettings(step.meta.provider)}): the object moves`;
    case "dependency":
      return `replaced delete-first because it references ${nameOf(step.cause ?? "")}, which is deleted first: it must not be left using an object that is gone`;
    case "triggered":
      return `replaceTriggeredBy: ${step.cause ?? "a value changed"}`;
    default: {
      const never: never = reason;
      return `replace reason: ${String(never)}`;
    }
  }
}

const why = (step: ReplaceStep, plan: PlanView) => adopting(step, reasonText(step, plan));

const dataLoss = (step: ReplaceStep) => (step.dataLoss ? { loss: step.dataLoss, what: replaceLossText(step) } : undefined);

/** The lines under the plan line: the data-loss warning first, when the old object's data goes with it. */
function details(step: ReplaceStep, plan: PlanView, declared: readonly string[], o: DetailOptions): string[] {
  const lines = whyLines(why(step, plan), declared, changeLines(step, markedForcing(step), o));
  return step.dataLoss ? [dataLossLine(step.dataLoss, replaceLossText(step), o.colors), ...lines] : lines;
}

/** The keys the printed plan marks as forcing the replacement (not for a reason unrelated to attributes). */
const markedForcing = (s: ReplaceStep) => (s.reason !== "tainted" && s.reason !== "requested" && s.reason !== "provider" ? s.replaceKeys : []);
/** The keys `--json` marks as forcing the replacement: only when attributes or `replaceOnChanges` force it. */
const jsonForcing = (s: ReplaceStep) => (s.reason === "attributes" || s.reason === "replaceOnChanges" ? s.replaceKeys : []);

function label(step: ReplaceStep): string {
  if (step.deleteFirst) return "-/+ replace (delete first)";
  return step.keepOld ? "+/- replace (create first; the old one is deleted in a later round)" : "+/- replace (create first)";
}

/** The replace step kind. */
export const replaceStep: StepKindSpec<ReplaceStep, ReplaceAction | DeleteReplacedAction, z.infer<typeof replaceJson>> = {
  ...alwaysChanges,
  kind: "replace",
  deletesOrReplaces: true,
  inProgram: true,
  recorded: true,
  holdsOn: (step) => !step.deleteFirst,
  look: (step) => (step.deleteFirst ? "replace-delete-first" : "replace-create-first"),
  countText: (n) => `${n} to replace`,
  // keepOld: the old object stays deposed, for the plan of a later round to delete.
  actions: (step) => [
    { id: actionId(step, "replace"), kind: "replace", step, index: -1 },
    ...(step.keepOld ? [] : [{ id: actionId(step, "delete-replaced"), kind: "delete-replaced" as const, step, index: -1 }]),
  ],
  operations: (step, plan) => [{ type: step.type, operation: "create" }, { type: step.type, operation: "delete" }, ...priorReads(step, plan)],
  decision: (step) =>
    `${step.reason}${step.cause && (step.reason === "dependency" || step.reason === "attributes") ? ` (${step.cause})` : ""}${keysText("replace keys", step.replaceKeys)}${keysText("changed", step.changed)}${step.deleteFirst ? "; delete first" : "; create first"}`,
  whatHappens: "is replaced",
  label,
  color: "magenta",
  why,
  dataLoss,
  details,
  toJson: (step, plan) =>
    addFields(jsonBase(step, why(step, plan)), {
      changes: jsonChanges(step, jsonForcing(step)), drift: driftedKeys(step), replace_keys: step.replaceKeys, reason: step.reason,
      cause: step.cause || undefined, delete_first: step.deleteFirst, import_id: step.adopt?.id, data_loss: step.dataLoss && { allowed: step.dataLoss.allowed },
    }),
};

/** The replacement's create. */
export const replaceAction: ActionSpec<ReplaceAction> = {
  ...plainAction,
  kind: "replace",
  callsProvider: true,
  slot: true,
  polls: false,
  makesValue: true,
  releases: false,
  deletesObject: false,
  // Delete-first: the old object goes before the replacement is made.
  follows: (a) => (a.step.deleteFirst ? [{ id: actionId(a.step, "delete-replaced") }] : []),
  doneText: "replaced",
  runningText: "replacing",
  afterFailure: (command) => `the replacement did not finish and the current object stays in state; fix the cause and run \`${command} up\` again`,
};

/** The old object's delete, after the replacement is made (or before, delete-first). */
export const deleteReplacedAction: ActionSpec<DeleteReplacedAction> = {
  ...plainAction,
  kind: "delete-replaced",
  callsProvider: true,
  slot: true,
  polls: false,
  makesValue: false,
  releases: true,
  deletesObject: true,
  // Delete-first, the old object is the current one: its record goes with it.
  removesRecord: (a) => a.step.deleteFirst,
  follows: (a) => (a.step.deleteFirst ? [] : [{ valueOf: a.step.urn }]),
  doneText: "deleted the old object of",
  runningText: "deleting the old object of",
  afterFailure: (command) => `the new object is in use; the old one stays recorded and the next \`${command} up\` deletes it`,
};
