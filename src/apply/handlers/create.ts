import { IncompleteCreateError } from "../../provider/errors.js";
import { resultProblem } from "../../plan/json-values.js";
import type { Action } from "../actions.js";
import type { Handler } from "../context.js";
import { checkCreated, invoke } from "../invoke.js";
import { inputsFor } from "../inputs.js";
import { recordFor } from "../record.js";
import { moved, nameOf, objectFacts, redactorFor, valueOf } from "./common.js";

type CreateAction = Extract<Action, { kind: "create" }>;

/**
 * Creates a new object. A create that made the object but could not finish it (`IncompleteCreateError`)
 * is recorded tainted, so it is never lost and the next plan replaces it.
 */
export const create: Handler<CreateAction> = async (action, ctx) => {
  const { step } = action;
  const node = ctx.node(step.urn);
  const { news, secretKeys, triggers } = await inputsFor(step, action.id, ctx);
  ctx.secrets.addProps(news, secretKeys);
  const meta = triggers ? { ...step.meta, triggers } : step.meta;
  const provider = ctx.provider(step.type, step.urn, node);
  const { result, op } = await invoke(ctx, {
    urn: step.urn, type: step.type, kind: action.kind, name: nameOf(step.urn),
    journal: { kind: "create" }, op: "create",
    timeoutMs: node?.kind === "custom" ? node.options.customTimeouts.create : undefined,
    instance: ctx.instance(step.urn),
    call: (c) => provider.create({ urn: step.urn, inputs: news, ctx: c }),
    check: (r) => checkCreated(r) ?? resultProblem(r.outputs, node?.kind === "custom" ? node.definition.schema : undefined),
    onError: (e) => (e instanceof IncompleteCreateError ? [{ kind: "upsert", resource: recordFor(step.urn, step.type, meta, { id: e.id, inputs: news, outputs: e.outputs, secretKeys }, { tainted: true }) }] : []),
    redact: redactorFor(step),
  });
  const object = objectFacts(ctx, result.id, news, result.outputs, secretKeys);
  return {
    op,
    changes: () => [...moved(step), { kind: "upsert", resource: recordFor(step.urn, step.type, meta, object) }],
    value: valueOf(ctx, step.urn, object),
  };
};
