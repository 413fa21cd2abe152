import type { StackState, StateMutation } from "../../state/types.js";
import type { Action } from "../../plan/actions.js";
import type { Handler } from "../context.js";
import { invoke } from "../invoke.js";
import { withoutDeposed } from "../record.js";
import { redactorFor } from "../secret-registry.js";

type DeleteAction = Extract<Action, { kind: "delete" }>;
type ForgetAction = Extract<Action, { kind: "forget" }>;

/** Deletes an object the program no longer declares, or a deposed object an interrupted replace left. */
export const deleteObject: Handler<DeleteAction> = async (action, ctx, node) => {
  const { step } = action;
  const provider = ctx.provider(step.type, step.urn);
  const { op } = await invoke(ctx.calls, {
    action, urn: step.urn, type: step.type,
    journal: { kind: step.deposed ? "delete-deposed" : "delete", id: step.id }, op: "delete",
    timeoutMs: step.prior.timeouts?.delete,
    instance: ctx.instance(node, { type: step.type, provider: step.prior.provider }),
    call: (c) => provider.delete({ urn: step.urn, id: step.id, inputs: step.olds, outputs: step.outputs, ctx: c }),
    redact: redactorFor(step),
  });
  const changes = (s: StackState): StateMutation[] => {
    if (!step.deposed) return [{ kind: "remove", urn: step.urn }];
    const cur = s.resources[step.urn];
    return cur ? [{ kind: "upsert", resource: withoutDeposed(cur, step.id) }] : [];
  };
  return { op, changes };
};

/** Forgets a `retainOnDelete` resource: removed from state, left in the cloud. */
export const forget: Handler<ForgetAction> = async ({ step }) => ({ changes: () => [{ kind: "remove", urn: step.urn }] });
