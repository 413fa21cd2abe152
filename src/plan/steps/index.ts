import * as z from "zod/mini";
import { nameOf } from "../../core/urn.js";
import { everyMember } from "../../core/every-member.js";
import { createAction, createJson, createSchema, createStep, type CreateAction, type CreateStep } from "./create.js";
import { updateAction, updateJson, updateSchema, updateStep, type UpdateAction, type UpdateStep } from "./update.js";
import { deleteReplacedAction, replaceAction, replaceJson, replaceSchema, replaceStep, type DeleteReplacedAction, type ReplaceAction, type ReplaceStep } from "./replace.js";
import { deleteAction, deleteJson, deleteSchema, deleteStep, forgetAction, type DeleteAction, type DeleteStep, type ForgetAction } from "./delete.js";
import { readAction, readJson, readSchema, readStep, type ReadAction, type ReadStep } from "./read.js";
import { waitAction, waitJson, waitSchema, waitStep, type WaitAction, type WaitStep } from "./wait.js";
import { sameJson, sameSchema, sameStep, type SameStep } from "./same.js";
import type { ActionSpec, StepKindSpec } from "./step-parts.js";

/**
 * The list of step kinds: each kind's file holds everything about it (its fields, saved-plan and `--json`
 * schemas, actions and words); this file joins them. Adding a step kind is its file, its line in each list
 * below, and the planner that decides it (plus a handler in `apply/handlers/` if it brings a new action).
 */

export type { CreateStep, UpdateStep, ReplaceStep, DeleteStep, ReadStep, WaitStep, SameStep };
export type { CreateAction, UpdateAction, ReplaceAction, DeleteReplacedAction, DeleteAction, ForgetAction, ReadAction, WaitAction };

/**
 * One thing the engine will do, as plain data. The plan is a list of these; printing, serialising and
 * applying ask the step's kind (`stepKindOf`).
 */
export type PlanStep = CreateStep | UpdateStep | ReplaceStep | DeleteStep | ReadStep | WaitStep | SameStep;

/** The kinds of step. */
export type StepKind = PlanStep["kind"];

/** One step kind's step. */
export type StepOf<K extends StepKind> = Extract<PlanStep, { kind: K }>;

/**
 * One unit of work of an apply. A plan step becomes zero, one or two actions: a replace is two (the
 * replacement's create, `replace`, and the old object's delete, `delete-replaced`), in the order its
 * `deleteFirst` says; `same` steps, eager reads and waits that are not needed are none.
 */
export type Action = CreateAction | UpdateAction | ReplaceAction | DeleteReplacedAction | DeleteAction | ForgetAction | ReadAction | WaitAction;

/** The kinds of action (they name apply events: `step-started` of kind `delete-replaced`, …). */
export type ActionKind = Action["kind"];

/** One action kind's action. */
export type ActionOf<K extends ActionKind> = Extract<Action, { kind: K }>;

/** Every step kind, in the order plans count them. */
export const STEP_KINDS = everyMember<StepKind>()(["create", "update", "replace", "delete", "read", "wait", "same"]);

/** Every action kind, for exhaustiveness tests and summaries. */
export const ACTION_KINDS = everyMember<ActionKind>()(["create", "update", "replace", "delete-replaced", "delete", "forget", "read", "wait"]);

type JsonOf<K extends StepKind> = z.infer<(typeof JSON_SCHEMAS)[K]>;

/** Each step kind's spec. */
const STEPS: { [K in StepKind]: StepKindSpec<StepOf<K>, Action, JsonOf<K>> } = {
  create: createStep, update: updateStep, replace: replaceStep, delete: deleteStep, read: readStep, wait: waitStep, same: sameStep,
};

/** Each action kind's spec. */
const ACTIONS: { [K in ActionKind]: ActionSpec<ActionOf<K>> } = {
  create: createAction, update: updateAction, replace: replaceAction, "delete-replaced": deleteReplacedAction, delete: deleteAction, forget: forgetAction, read: readAction, wait: waitAction,
};

const JSON_SCHEMAS = { create: createJson, update: updateJson, replace: replaceJson, delete: deleteJson, read: readJson, wait: waitJson, same: sameJson };

/** The saved-plan schema of one step, by kind (a plan file is checked field by field before it is applied). */
export const stepSchema = z.discriminatedUnion("kind", [createSchema, updateSchema, replaceSchema, deleteSchema, readSchema, waitSchema, sameSchema]);

/** One step of a plan, as `--json` prints it. */
export const jsonStep = z.discriminatedUnion("op", [createJson, updateJson, replaceJson, deleteJson, readJson, waitJson, sameJson]);

/** A step as `--json` prints it. */
export type JsonStep = z.infer<typeof jsonStep>;

/**
 * A step's kind spec: everything the engine and the CLI ask of it (see {@link StepKindSpec}).
 * @example stepKindOf(step).changing(step) // true for a create
 */
export function stepKindOf<S extends PlanStep>(step: S): StepKindSpec<S, Action, JsonOf<S["kind"]>> {
  // The one place a step meets its kind's spec: TypeScript cannot relate `STEPS[step.kind]` to `step` itself.
  return STEPS[step.kind] as unknown as StepKindSpec<S, Action, JsonOf<S["kind"]>>;
}

/**
 * An action's kind spec (see {@link ActionSpec}).
 * @example actionKindOf(action).makesValue // true for a create
 */
export function actionKindOf<A extends Action>(action: A): ActionSpec<A> {
  return ACTIONS[action.kind] as unknown as ActionSpec<A>;
}

/**
 * An action kind's spec, by name (for words of events that carry only the kind).
 * @example actionKind("delete-replaced").doneText // "deleted the old object of"
 */
export function actionKind(kind: ActionKind): ActionSpec<Action> {
  return ACTIONS[kind] as unknown as ActionSpec<Action>;
}

/**
 * A step kind's spec, by name (for counts and summaries that hold only the kind).
 * @example stepKind("create").countText?.(2) // "2 to create"
 */
export function stepKind(kind: StepKind): StepKindSpec<PlanStep, Action, unknown> {
  return STEPS[kind] as unknown as StepKindSpec<PlanStep, Action, unknown>;
}

/**
 * Every step kind's spec, in {@link STEP_KINDS} order.
 * @example stepKinds().filter((k) => k.countText).map((k) => k.kind) // ["create", "update", …]
 */
export function stepKinds(): StepKindSpec<PlanStep, Action, unknown>[] {
  return STEP_KINDS.map(stepKind);
}

/**
 * A step's name as plans, tests and `--json` show it: the resource's name, or a wait's display name.
 * @example stepName(waitStep) // "issued"
 */
export function stepName(step: PlanStep): string {
  return stepKindOf(step).displayName?.(step) ?? nameOf(step.urn);
}

/**
 * True when a step does something at apply time that its dependents must wait for (a deferred read,
 * a wait that runs, any change); false for `same`, eager reads and waits that are not needed.
 *
 * @example isChanging(createStep) // true
 */
export function isChanging(step: PlanStep): boolean {
  return stepKindOf(step).changing(step);
}

/**
 * True when applying a step does anything: it changes cloud objects or state records, or it runs (a
 * deferred read, a wait that is needed). False for an unchanged resource, an eager read, a wait not needed.
 *
 * @example acts(sameStep) // false, unless it moves or adopts its object
 */
export function acts(step: PlanStep): boolean {
  const spec = stepKindOf(step);
  return spec.changing(step) || spec.changes(step);
}

/**
 * True when a step deletes or replaces an object (see `StepKindSpec.deletesOrReplaces`).
 * @example deletesOrReplaces(replaceStep) // true; deletesOrReplaces(updateStep) // false
 */
export function deletesOrReplaces(step: PlanStep): boolean {
  return stepKindOf(step).deletesOrReplaces;
}

/**
 * `plan <kind> <urn>: <why>`, one plan decision as a line of the debug trace. Names and keys only, never
 * values (the trace is redacted too, but values have no place in it).
 *
 * @example decisionLine(updateStep) // "plan update urn:cairn:dev::app::local:File::cfg: changed content"
 */
export function decisionLine(step: PlanStep): string {
  return `plan ${step.kind} ${step.urn}: ${stepKindOf(step).decision(step)}`;
}
