import { describeLookupKey, readLookup } from "../../runtime/lookup.js";
import { resolveInputs } from "../../runtime/resolve-inputs.js";
import { knownValue, type ValueResolver } from "../../runtime/values.js";
import type { GraphNode } from "../../program/node.js";
import { secretsOf } from "./common.js";
import { containsUnknown } from "../../core/unknown.js";
import { secretKeys as schemaSecretKeys } from "../../provider/schema.js";
import type { Action } from "../../plan/actions.js";
import { NO_CHANGES, type Handler } from "../context.js";
import { inSlot } from "../invoke.js";
import { boundedRead, DEFAULT_READ_TIMEOUT_MS } from "../../runtime/bounded-read.js";
import { redactorFor } from "../secret-registry.js";

type ReadAction = Extract<Action, { kind: "read" }>;

/** A lookup read during apply (its id or query depended on changes in this plan). Lookups are never in state. */
export const read: Handler<ReadAction> = async (action, ctx, node) => {
  const { step } = action;
  if (node?.kind !== "lookup") throw new Error("a read during apply needs the program that declares the lookup");
  const r = await resolveInputs({ key: node.lookupId }, ctx.scope(action));
  const key = r.values.key;
  if (containsUnknown(key) || key === undefined) throw new Error("the id to look up is still unknown after its dependencies were applied");
  const redact = redactorFor(step);
  const retrying = (attempt: number, error: string, delayMs: number) => ctx.events.next({ type: "step-retrying", urn: step.urn, kind: "read", attempt, error: redact(error), delayMs });
  const found = await inSlot(ctx.calls, action, { op: "read", urn: step.urn, name: node.name }, () => {
    const bound = ctx.calls.inFlight.open(DEFAULT_READ_TIMEOUT_MS);
    const opCtx = ctx.calls.opContext(step.urn, { signal: bound, timeoutMs: DEFAULT_READ_TIMEOUT_MS, provider: node.provider });
    const provider = ctx.provider(node.type, node.urn, node);
    return boundedRead(opCtx, bound, { retryDeadlineMs: ctx.calls.retryDeadlineMs, retrying }, () => readLookup(provider, node.type, step.urn, key, opCtx)).finally(() => bound.dispose());
  });
  if (found === undefined) throw new Error(`nothing matches ${describeLookupKey(key)}`);
  return { changes: NO_CHANGES, value: knownValue(found.id, found.outputs, schemaSecretKeys(node.definition.schema)) };
};

/**
 * The value of a lookup read while planning (its outputs are in the step): published before the walk, as
 * no action reads it again. False for a read left to the apply (its action makes the value).
 *
 * @example readWithoutAction(step, node, values) // true when the plan holds what the read found
 */
export function readWithoutAction(step: ReadAction["step"], node: GraphNode, values: ValueResolver): boolean {
  if (!step.outputs) return false;
  values.publish(node, knownValue(step.id, step.outputs, secretsOf(node, undefined)));
  return true;
}
