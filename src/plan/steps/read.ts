import * as z from "zod/mini";
import type { Props } from "../../state/types.js";
import { actionId, addFields, jsonBase, jsonParts, planParts, plainAction, whyLines } from "./step-parts.js";
import type { ActionBase, ActionSpec, StepBase, StepKindSpec } from "./step-parts.js";

/** A lookup (`Type.get(…)`): read while planning, or during apply when its id or query waits for changes. */
export interface ReadStep extends StepBase {
  kind: "read";
  id: string;
  /** Read during apply (its id or query depends on changes in this plan). */
  deferred: boolean;
  /** For reads done while planning: what was read. */
  outputs?: Props;
}

/** Reading the object during apply. */
export type ReadAction = ActionBase<"read", ReadStep>;

/** A read as a saved plan holds it. */
export const readSchema = z.object({ ...planParts.base, kind: z.literal("read"), id: z.string(), deferred: z.boolean(), outputs: z.optional(planParts.props) });

/** A read as `--json` prints it. */
export const readJson = z.strictObject({ ...jsonParts.base, op: z.literal("read"), deferred: z.boolean() });

const why = (step: ReadStep) => (step.deferred ? "read during apply (its inputs depend on changes in this plan)" : undefined);

/** The read step kind. */
export const readStep: StepKindSpec<ReadStep, ReadAction, z.infer<typeof readJson>> = {
  kind: "read",
  deletesOrReplaces: false,
  inProgram: true,
  recorded: false,
  holdsOn: () => false,
  look: () => "read",
  changing: (step) => step.deferred,
  // A read changes nothing by itself: it only runs around changes.
  changes: () => false,
  listed: () => true,
  counted: () => true,
  countText: (n) => `${n} to read`,
  actions: (step) => (step.deferred ? [{ id: actionId(step, "read"), kind: "read", step, index: -1 }] : []),
  // A lookup is read whether while planning or, deferred, during apply.
  operations: (step) => [{ type: step.type, operation: "read" }],
  decision: (step) => (step.deferred ? "deferred to apply" : "read now"),
  whatHappens: "is read during apply",
  label: () => "<= read",
  color: "cyan",
  why,
  details: (step, _plan, declared) => whyLines(why(step), declared),
  toJson: (step) => addFields(jsonBase(step, why(step)), { deferred: step.deferred }),
};

/** The read action kind. */
export const readAction: ActionSpec<ReadAction> = {
  ...plainAction,
  kind: "read",
  callsProvider: true,
  slot: true,
  polls: false,
  makesValue: true,
  releases: false,
  deletesObject: false,
  doneText: "read",
  runningText: "reading",
  afterFailure: () => "nothing was changed; check the id or query it is read by",
};
