import * as z from "zod/mini";
import type { Urn } from "../../core/urn.js";
import type { Props } from "../../state/types.js";
import { valueLines } from "./attribute-lines.js";
import { actionId, alwaysChanges, addFields, jsonBase, jsonParts, jsonProps, planParts, plainAction, whyLines, type ActionSpec, type StepBase, type StepKindSpec, type StepMeta, type ActionBase } from "./step-parts.js";

/** A resource not in state: its object is made. */
export interface CreateStep extends StepBase {
  kind: "create";
  news: Props;
  secretKeys: string[];
  meta: StepMeta;
  /** The URN it had before (an alias): the object is new, the record moves. */
  movedFrom?: Urn;
}

/** Making the new object. */
export type CreateAction = ActionBase<"create", CreateStep>;

/** A create as a saved plan holds it. */
export const createSchema = z.object({ ...planParts.base, kind: z.literal("create"), news: planParts.props, secretKeys: planParts.names, meta: planParts.meta, movedFrom: z.optional(planParts.urn) });

/** A create as `--json` prints it: its inputs, secrets masked. */
export const createJson = z.strictObject({ ...jsonParts.base, op: z.literal("create"), inputs: z.record(z.string(), jsonParts.value) });

/** The create step kind. */
export const createStep: StepKindSpec<CreateStep, CreateAction, z.infer<typeof createJson>> = {
  ...alwaysChanges,
  kind: "create",
  deletesOrReplaces: false,
  inProgram: true,
  recorded: true,
  holdsOn: () => false,
  look: () => "create",
  countText: (n) => `${n} to create`,
  actions: (step) => [{ id: actionId(step, "create"), kind: "create", step, index: -1 }],
  operations: (step) => [{ type: step.type, operation: "create" }],
  decision: (step) => `not in state${step.movedFrom ? ` (moved from ${step.movedFrom})` : ""}`,
  whatHappens: "is created",
  label: () => "+ create",
  color: "green",
  why: () => undefined,
  details: (step, _plan, declared, o) => whyLines(undefined, declared, valueLines(step.news, step.secretKeys, o)),
  toJson: (step) => addFields(jsonBase(step, undefined), { inputs: jsonProps(step.news, step.secretKeys) }),
};

/** The create action kind. */
export const createAction: ActionSpec<CreateAction> = {
  ...plainAction,
  kind: "create",
  callsProvider: true,
  slot: true,
  polls: false,
  makesValue: true,
  releases: false,
  deletesObject: false,
  doneText: "created",
  runningText: "creating",
  afterFailure: (command) => `nothing was recorded for it (an object made part-way is recorded as tainted and replaced next time); fix the cause and run \`${command} up\` again`,
};
