import type { DeposedObject, StackState, StateMutation } from "../../state/types.js";
import type { Action } from "../../plan/actions.js";
import { NO_CHANGES, type Handler } from "../context.js";
import { invoke } from "../invoke.js";
import { inputsFor } from "../inputs.js";
import { deposedFrom, recordFor, withoutDeposed } from "../record.js";
import { moved, objectFacts, valueOf } from "./common.js";
import { redactorFor } from "../secret-registry.js";
import { createObject } from "./create.js";

type ReplaceAction = Extract<Action, { kind: "replace" }>;
type DeleteReplacedAction = Extract<Action, { kind: "delete-replaced" }>;

/**
 * Creates the replacement object. Create-first: the old object is kept as deposed until its delete
 * succeeds, so a failure in between never loses it. A create that hands back the very object being replaced
 * is refused as a provider error (its record would hold inputs the object was never given, and deleting the
 * "old" half would delete it): nothing is recorded and nothing deleted.
 */
export const replace: Handler<ReplaceAction> = async (action, ctx, node) => {
  const { step } = action;
  const planned = inputsFor(action, ctx, node);
  const inputs = planned instanceof Promise ? await planned : planned;
  const { news, secretKeys, meta } = inputs;
  const deposedAt = (s: StackState): DeposedObject[] => {
    const cur = (s.resources[step.movedFrom ?? step.urn]?.deposed ?? []).filter((d) => d.id !== step.id);
    return step.deleteFirst ? cur : [...cur, deposedFrom(step)];
  };
  const { result, op } = await createObject(action, ctx, node, inputs, (s) => ({ deposed: deposedAt(s) }));
  if (result.id === step.id && !step.deleteFirst) {
    ctx.journal.abort(op, []);
    throw new Error(
      `the provider of ${step.type} returned the id of the object it was replacing (${JSON.stringify(result.id)}) from the create of its replacement: ` +
        `a replacement must be a new object. Nothing was recorded, and the object was not deleted. Its provider must create a new object, or its diff must not ask for a replace`,
    );
  }
  const object = objectFacts(ctx, result.id, news, result.outputs, secretKeys);
  const changes = (s: StackState): StateMutation[] => [...moved(step), { kind: "upsert", resource: recordFor(step.urn, step.type, meta, object, { deposed: deposedAt(s) }) }];
  return { op, changes, value: valueOf(node, object) };
};

/** Deletes the object a replace replaced (or forgets it, for `retainOnDelete`). */
export const deleteReplaced: Handler<DeleteReplacedAction> = async (action, ctx, node) => {
  const { step } = action;
  const recordUrn = step.movedFrom ?? step.urn;
  const gone = (s: StackState): StateMutation[] => {
    if (step.deleteFirst) return [{ kind: "remove", urn: recordUrn }];
    const cur = s.resources[step.urn];
    return cur ? [{ kind: "upsert", resource: withoutDeposed(cur, step.id) }] : [];
  };
  if (step.meta.retainOnDelete) return { changes: gone };
  // The replacement turned out to be this very object: there is nothing old to delete.
  if (!step.deleteFirst && ctx.journal.state.resources[step.urn]?.id === step.id) return { changes: NO_CHANGES };
  const provider = ctx.provider(step.type, step.urn, node);
  const { op } = await invoke(ctx.calls, {
    action, urn: step.urn, type: step.type,
    journal: { kind: "replace-delete", id: step.id }, op: "delete",
    timeoutMs: step.meta.timeouts?.delete ?? step.prior.timeouts?.delete,
    instance: ctx.instance(node, { type: step.type, provider: step.prior.provider }),
    call: (c) => provider.delete({ urn: step.urn, id: step.id, inputs: step.olds, outputs: step.outputs, ctx: c }),
    redact: redactorFor(step),
  });
  return { op, changes: gone };
};
