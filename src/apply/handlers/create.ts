import type { GraphNode } from "../../program/node.js";
import { IncompleteCreateError } from "../../core/errors.js";
import { resultProblem } from "../../runtime/json-values.js";
import type { Action } from "../../plan/actions.js";
import type { ApplyContext, Handler } from "../context.js";
import { checkCreated, invoke } from "../invoke.js";
import { inputsFor, type ApplyInputs } from "../inputs.js";
import { recordFor } from "../record.js";
import type { DeposedObject, Props, StackState, StateMutation } from "../../state/types.js";
import type { ObjectFacts } from "../record.js";
import { moved, objectFacts, redactorFor, valueOf } from "./common.js";

type CreateAction = Extract<Action, { kind: "create" }>;
type ReplaceAction = Extract<Action, { kind: "replace" }>;

/**
 * Creates a new object. A create that made the object but could not finish it (`IncompleteCreateError`)
 * is recorded tainted, so it is never lost and the next plan replaces it.
 */
export const create: Handler<CreateAction> = async (action, ctx, node) => {
  const { step } = action;
  const planned = inputsFor(action, ctx, node);
  const inputs = planned instanceof Promise ? await planned : planned; // known as planned: no turn of the event loop
  const record = (r: { id: string; outputs: Props }) => objectFacts(ctx, r.id, inputs.news, r.outputs, inputs.secretKeys);
  const changes = (object: ObjectFacts): StateMutation[] => [...moved(step), { kind: "upsert", resource: recordFor(step.urn, step.type, inputs.meta, object) }];
  const { result, op } = await createObject(action, ctx, node, inputs, "create", undefined, (r) => changes(record(r)));
  const object = record(result);
  return { op, changes: () => changes(object), value: valueOf(node, object) };
};

/**
 * Asks the provider for a new object: a create, or the new half of a replace. An object made but not
 * finished is recorded tainted, with what `kept` says the record holds besides (a replace's deposed objects).
 *
 * @example const { result, op } = await createObject(action, ctx, node, inputs, "replace-create", (s) => ({ deposed: deposedAt(s) }));
 */
export function createObject(
  action: CreateAction | ReplaceAction,
  ctx: ApplyContext,
  node: GraphNode | undefined,
  inputs: ApplyInputs,
  journal: "create" | "replace-create",
  kept: (s: StackState) => { deposed?: DeposedObject[] } = () => ({}),
  lateChanges?: (result: { id: string; outputs: Props }) => StateMutation[],
) {
  const { step } = action;
  const { news, secretKeys, meta } = inputs;
  const custom = node?.kind === "custom" ? node : undefined;
  const provider = ctx.provider(step.type, step.urn, node);
  return invoke(ctx, {
    action, urn: step.urn, type: step.type,
    journal: { kind: journal }, op: "create",
    timeoutMs: meta.timeouts?.create,
    instance: ctx.instance(node),
    call: (c) => provider.create({ urn: step.urn, inputs: news, ctx: c }),
    check: (r) => checkCreated(r) ?? resultProblem(r.outputs, custom?.definition.schema),
    ...(lateChanges ? { lateChanges } : {}),
    onError: (e, s) => (e instanceof IncompleteCreateError ? [{ kind: "upsert", resource: recordFor(step.urn, step.type, meta, { id: e.id, inputs: news, outputs: e.outputs, secretKeys }, { tainted: true, ...kept(s) }) }] : []),
    redact: redactorFor(step),
  });
}
