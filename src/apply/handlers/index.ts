import type { Action, ActionKind, ActionOf, PlanStep, StepKind, StepOf } from "../../plan/steps/index.js";
import type { ActionResult, HandlerContext, Handler } from "../context.js";
import type { GraphNode } from "../../program/node.js";
import type { StackState, StateMutation } from "../../state/types.js";
import type { ValueResolver } from "../../runtime/values.js";
import type { EventSink } from "../events.js";
import type { SkipReason } from "../scheduler.js";
import { create } from "./create.js";
import { update } from "./update.js";
import { deleteReplaced, replace } from "./replace.js";
import { deleteObject, forget } from "./delete.js";
import { read, readWithoutAction } from "./read.js";
import { waitFor, waitWithoutAction } from "./wait.js";
import { waitSkipped } from "./wait-ended.js";
import { adoptedFirst } from "./common.js";
import { sameBefore } from "./same.js";

/**
 * How the executor carries out one kind of action, and what a skipped one tells besides the `step-skipped`
 * event every skipped action gets.
 *
 * @example const wait: ActionHandler<WaitAction> = { run: waitFor, skipped: waitSkipped };
 */
export interface ActionHandler<A extends Action> {
  run: Handler<A>;
  /** Tells how a skipped action of this kind ended (a wait: `wait-ended`); `started`: it was reported started. */
  skipped?: (action: A, reason: SkipReason, events: EventSink, started: boolean) => void;
}

/**
 * What applying one kind of step does outside its actions: what it records before anything runs, and the
 * value its node has when no action of it makes one.
 *
 * @example const read: StepHandler<ReadStep> = { withoutAction: readWithoutAction };
 */
export interface StepHandler<S extends PlanStep> {
  /** Adds to `out` the state changes it makes with no provider call, recorded before any action starts. */
  before?: (step: S, state: StackState, out: StateMutation[]) => void;
  /**
   * Publishes the value of its node when no action makes one (a lookup read while planning, a wait not
   * needed), and returns true; false, or absent, when the node's value is its record's.
   */
  withoutAction?: (step: S, node: GraphNode, values: ValueResolver) => boolean;
}

/** The handler of each action kind (the mapped type makes the compiler insist on one per kind). */
const ACTIONS: { [K in ActionKind]: ActionHandler<ActionOf<K>> } = {
  create: { run: create },
  update: { run: update },
  replace: { run: replace },
  "delete-replaced": { run: deleteReplaced },
  delete: { run: deleteObject },
  forget: { run: forget },
  read: { run: read },
  wait: { run: waitFor, skipped: waitSkipped },
};

/** What each step kind does besides its actions (every kind listed, so a new one is decided here too). */
const STEPS: { [K in StepKind]: StepHandler<StepOf<K>> } = {
  create: {},
  update: { before: adoptedFirst },
  replace: { before: adoptedFirst },
  delete: {},
  read: { withoutAction: readWithoutAction },
  wait: { withoutAction: waitWithoutAction },
  same: { before: sameBefore },
};

/**
 * The handler of an action's kind.
 * @example actionHandlerOf(action).skipped?.(action, reason, events, false)
 */
export function actionHandlerOf<A extends Action>(action: A): ActionHandler<A> {
  // The one place an action meets its handler: TypeScript cannot relate `ACTIONS[action.kind]` to `action`.
  return ACTIONS[action.kind] as unknown as ActionHandler<A>;
}

/**
 * What applying a step's kind does besides its actions.
 * @example stepHandlerOf(step).before?.(step, journal.state, out)
 */
export function stepHandlerOf<S extends PlanStep>(step: S): StepHandler<S> {
  return STEPS[step.kind] as unknown as StepHandler<S>;
}

/**
 * Carries out one action with the handler of its kind.
 * @example await runAction(action, ctx, node) // { changes, … }
 */
export function runAction(action: Action, ctx: HandlerContext, node: GraphNode | undefined): Promise<ActionResult> {
  return actionHandlerOf(action).run(action, ctx, node);
}
