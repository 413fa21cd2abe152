import type { DeposedObject, StackState, StateMutation } from "../../state/types.js";
import type { Action } from "../actions.js";
import { NO_CHANGES, type Handler } from "../context.js";
import { invoke } from "../invoke.js";
import { inputsFor } from "../inputs.js";
import { deposedFrom, recordFor, withoutDeposed } from "../record.js";
import { moved, nameOf, objectFacts, redactorFor, valueOf } from "./common.js";
import { createObject } from "./create.js";

type ReplaceAction = Extract<Action, { kind: "replace" }>;
type DeleteReplacedAction = Extract<Action, { kind: "delete-replaced" }>;

/**
 * Creates the replacement object. Create-first: the old object is kept as deposed until its delete
 * succeeds, so a failure in between never loses it. A provider may hand back the very object being
 * replaced (an idempotent create, an adopted record): then it is kept, not deleted.
 */
export const replace: Handler<ReplaceAction> = async (action, ctx) => {
  const { step } = action;
  const inputs = await inputsFor(step, action.id, ctx);
  const { news, secretKeys, meta } = inputs;
  const deposedAt = (s: StackState): DeposedObject[] => {
    const cur = (s.resources[step.movedFrom ?? step.urn]?.deposed ?? []).filter((d) => d.id !== step.id);
    return step.deleteFirst ? cur : [...cur, deposedFrom(step)];
  };
  const { result, op } = await createObject(action, ctx, inputs, "replace-create", (s) => ({ deposed: deposedAt(s) }));
  const same = result.id === step.id && !step.deleteFirst;
  if (same) ctx.events.next({ type: "diagnostic", severity: "warning", urn: step.urn, message: `The replacement of "${step.urn}" is the same object (id ${result.id}): it was kept, not deleted.` });
  const object = objectFacts(ctx, result.id, news, result.outputs, secretKeys);
  const changes = (s: StackState): StateMutation[] => {
    const deposed = same ? deposedAt(s).filter((d) => d.id !== step.id) : deposedAt(s);
    return [...moved(step), { kind: "upsert", resource: recordFor(step.urn, step.type, meta, object, { deposed }) }];
  };
  return { op, changes, value: valueOf(ctx, step.urn, object) };
};

/** Deletes the object a replace replaced (or forgets it, for `retainOnDelete`). */
export const deleteReplaced: Handler<DeleteReplacedAction> = async (action, ctx) => {
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
  const node = ctx.node(step.urn);
  const provider = ctx.provider(step.type, step.urn, node);
  const { op } = await invoke(ctx, {
    action, urn: step.urn, type: step.type, name: nameOf(step.urn),
    journal: { kind: "replace-delete", id: step.id }, op: "delete",
    timeoutMs: (node?.kind === "custom" ? node.options.customTimeouts.delete : undefined) ?? step.prior.timeouts?.delete,
    instance: ctx.instance(step.urn, { type: step.type, provider: step.prior.provider }),
    call: (c) => provider.delete({ urn: step.urn, id: step.id, inputs: step.olds, outputs: step.outputs, ctx: c }),
    redact: redactorFor(step),
  });
  return { op, changes: gone };
};
