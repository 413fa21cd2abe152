import type { GraphNode } from "../../program/node.js";
import type { PlanStep } from "../../plan/plan.js";
import { knownValue, type ResourceValue } from "../../runtime/values.js";
import { secretKeysWith } from "../../provider/schema.js";
import type { Props, StackState, StateMutation } from "../../state/types.js";
import type { Urn } from "../../core/urn.js";
import type { HandlerContext } from "../context.js";
import { recordFor, type ObjectFacts } from "../record.js";
import { taintedKeys } from "../secret-registry.js";

/** The value dependents see once an object exists: its id and outputs, secrets marked. */
export function valueOf(node: GraphNode | undefined, o: ObjectFacts): ResourceValue {
  return knownValue(o.id, o.outputs, secretsOf(node, o.secretKeys));
}

/**
 * A node's secret attributes: those its type declares, with `recorded` (the object's own secret keys)
 * added only when there are some (see `secretKeysWith`).
 *
 * @example secretsOf(node, []) === secretsOf(otherNodeOfTheSameType, []) // true: one set per type
 */
export function secretsOf(node: GraphNode | undefined, recorded: readonly string[] | undefined): ReadonlySet<string> {
  return secretKeysWith(node && node.kind !== "wait" ? node.definition.schema : undefined, recorded);
}

/**
 * An object adopted by this plan (`import`) is recorded before anything runs: as it is, or for the update
 * or replace that follows. A step that adopts nothing records nothing here.
 *
 * @example const out: StateMutation[] = []; adoptedFirst(step, journal.state, out);
 */
export function adoptedFirst(step: Extract<PlanStep, { kind: "same" | "update" | "replace" }>, _state: StackState, out: StateMutation[]): void {
  if (step.adopt) out.push({ kind: "upsert", resource: recordFor(step.urn, step.type, step.meta, step.adopt) });
}

/** Removes the record a renamed resource had under its old URN. */
export function moved(step: { movedFrom?: Urn }): StateMutation[] {
  return step.movedFrom ? [{ kind: "remove", urn: step.movedFrom }] : [];
}


/** The secret keys of an object that has none: one frozen list, as planning shares for steps. */
const NO_KEYS = Object.freeze([]) as unknown as string[];

/**
 * The object a call ended with, secrets settled: outputs that carry a secret input's value are secret too
 * (tainted), and every secret value is remembered so no message or event can show it.
 *
 * @example const o = objectFacts(ctx, result.id, news, result.outputs, secretKeys);
 */
export function objectFacts(ctx: HandlerContext, id: string, inputs: Props, outputs: Props, secretKeys: readonly string[]): ObjectFacts {
  // No secret inputs: nothing to taint or remember (most objects; four lists a create saved).
  if (secretKeys.length === 0) return { id, inputs, outputs, secretKeys: NO_KEYS };
  const tainted = taintedKeys(outputs, secretKeys.map((k) => inputs[k])).filter((k) => !secretKeys.includes(k));
  const keys = tainted.length ? [...secretKeys, ...tainted] : [...secretKeys];
  ctx.secrets.addProps(inputs, keys);
  ctx.secrets.addProps(outputs, keys);
  return { id, inputs, outputs, secretKeys: keys };
}
