import type { Action, ActionKind, ActionOf } from "../../plan/steps/index.js";
import type { ActionResult, ApplyContext, Handler } from "../context.js";
import type { GraphNode } from "../../program/node.js";
import { create } from "./create.js";
import { update } from "./update.js";
import { deleteReplaced, replace } from "./replace.js";
import { deleteObject, forget } from "./delete.js";
import { read } from "./read.js";
import { waitFor } from "./wait.js";

/** The handler of each action kind (the mapped type makes the compiler insist on one per kind). */
const HANDLERS: { [K in ActionKind]: Handler<ActionOf<K>> } = {
  create, update, replace, "delete-replaced": deleteReplaced, delete: deleteObject, forget, read, wait: waitFor,
};

/**
 * Carries out one action with the handler of its kind.
 * @example await runAction(action, ctx, node) // { changes, … }
 */
export function runAction(action: Action, ctx: ApplyContext, node: GraphNode | undefined): Promise<ActionResult> {
  // The one place an action meets its handler: TypeScript cannot relate `HANDLERS[action.kind]` to `action`.
  return (HANDLERS[action.kind] as Handler<Action>)(action, ctx, node);
}
