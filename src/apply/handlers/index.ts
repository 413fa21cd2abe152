import type { Action } from "../../plan/actions.js";
import type { ActionResult, ApplyContext } from "../context.js";
import { create } from "./create.js";
import { update } from "./update.js";
import { deleteReplaced, replace } from "./replace.js";
import { deleteObject, forget } from "./delete.js";
import { read } from "./read.js";
import { waitFor } from "./wait.js";

/**
 * Carries out one action with the handler of its kind. Adding an action kind means adding its handler
 * here (the `never` check makes the compiler insist).
 */
export function runAction(action: Action, ctx: ApplyContext): Promise<ActionResult> {
  switch (action.kind) {
    case "create":
      return create(action, ctx);
    case "update":
      return update(action, ctx);
    case "replace":
      return replace(action, ctx);
    case "delete-replaced":
      return deleteReplaced(action, ctx);
    case "delete":
      return deleteObject(action, ctx);
    case "forget":
      return forget(action, ctx);
    case "read":
      return read(action, ctx);
    case "wait":
      return waitFor(action, ctx);
    default: {
      const never: never = action;
      throw new Error(`unhandled action ${JSON.stringify(never)}`);
    }
  }
}
