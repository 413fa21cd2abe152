import type { GraphNode } from "../../program/node.js";
import type { PlanStep } from "../../plan/plan.js";
import { knownValue, type ResourceValue } from "../../runtime/values.js";
import { secretKeysWith } from "../../provider/schema.js";
import type { Props, StateMutation } from "../../state/types.js";
import { secretValuesOf } from "../../state/secret-walk.js";
import type { Urn } from "../../core/urn.js";
import type { ApplyContext } from "../context.js";
import type { ObjectFacts } from "../record.js";
import { redactorOf, taintedKeys } from "../secret-registry.js";

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

/** Removes the record a renamed resource had under its old URN. */
export function moved(step: { movedFrom?: Urn }): StateMutation[] {
  return step.movedFrom ? [{ kind: "remove", urn: step.movedFrom }] : [];
}

/** Every secret value a step holds, to mask in messages. */
export function secretValues(step: PlanStep): unknown[] {
  return "secretKeys" in step ? secretValuesOf(step) : [];
}

/** Masks a step's secret values in a message. */
export function redactorFor(step: PlanStep): (text: string) => string {
  return redactorOf(secretValues(step));
}


/** The secret keys of an object that has none: one frozen list, as planning shares for steps. */
const NO_KEYS = Object.freeze([]) as unknown as string[];

/**
 * The object a call ended with, secrets settled: outputs that carry a secret input's value are secret too
 * (tainted), and every secret value is remembered so no message or event can show it.
 *
 * @example const o = objectFacts(ctx, result.id, news, result.outputs, secretKeys);
 */
export function objectFacts(ctx: ApplyContext, id: string, inputs: Props, outputs: Props, secretKeys: readonly string[]): ObjectFacts {
  // No secret inputs: nothing to taint or remember (most objects; four lists a create saved).
  if (secretKeys.length === 0) return { id, inputs, outputs, secretKeys: NO_KEYS };
  const tainted = taintedKeys(outputs, secretKeys.map((k) => inputs[k])).filter((k) => !secretKeys.includes(k));
  const keys = tainted.length ? [...secretKeys, ...tainted] : [...secretKeys];
  ctx.secrets.addProps(inputs, keys);
  ctx.secrets.addProps(outputs, keys);
  return { id, inputs, outputs, secretKeys: keys };
}
