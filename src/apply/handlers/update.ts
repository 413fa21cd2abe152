import { changedKeys } from "../../plan/decide.js";
import { resultProblem } from "../../runtime/json-values.js";
import { containsUnknown } from "../../core/unknown.js";
import type { Props, StackState } from "../../state/types.js";
import type { Action } from "../../plan/actions.js";
import type { Handler } from "../context.js";
import { invoke } from "../invoke.js";
import { inputsFor } from "../inputs.js";
import { recordFor, type ObjectFacts } from "../record.js";
import { moved, objectFacts, valueOf } from "./common.js";
import { redactorFor } from "../secret-registry.js";

type UpdateAction = Extract<Action, { kind: "update" }>;

/** Changes an object in place; its deposed objects (if any) stay recorded with it. */
export const update: Handler<UpdateAction> = async (action, ctx, node) => {
  const { step } = action;
  const planned = inputsFor(action, ctx, node);
  const { news, secretKeys, meta } = planned instanceof Promise ? await planned : planned;
  const record = (o: ObjectFacts) => (s: StackState) => {
    const deposed = s.resources[step.movedFrom ?? step.urn]?.deposed;
    return [...moved(step), { kind: "upsert" as const, resource: recordFor(step.urn, step.type, meta, o, deposed ? { deposed } : {}) }];
  };
  if (containsUnknown(step.news) && changedKeys(step.olds, news).length === 0) {
    // Inputs that were unknown while planning turned out unchanged: nothing to send to the provider.
    const same = objectFacts(ctx, step.id, news, step.outputs, secretKeys);
    return { changes: record(same), value: valueOf(node, same) };
  }
  const provider = ctx.provider(step.type, step.urn, node);
  if (!provider.update) throw new Error(`the provider of ${step.type} cannot update in place (it has no update)`);
  const { result, op } = await invoke<Props>(ctx.calls, {
    action, urn: step.urn, type: step.type,
    journal: { kind: "update", id: step.id }, op: "update",
    timeoutMs: meta.timeouts?.update,
    instance: ctx.instance(node),
    call: (c) => provider.update!({ urn: step.urn, id: step.id, olds: step.olds, news, outputs: step.outputs, ctx: c }),
    check: (r) => resultProblem(r, node?.kind === "custom" ? node.definition.schema : undefined),
    redact: redactorFor(step),
  });
  const object = objectFacts(ctx, step.id, news, result, secretKeys);
  return { op, changes: record(object), value: valueOf(node, object) };
};
