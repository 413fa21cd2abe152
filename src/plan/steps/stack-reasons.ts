import { isDeepStrictEqual } from "node:util";
import type { Urn } from "../../core/urn.js";
import type { Props } from "../../state/types.js";
import { STACK_REFERENCE_TYPE } from "../../program/stack-reference.js";

/** The fields of a stack reference's update step these reasons read. */
type Update = { type: string; olds: Props; news: Props };

/**
 * The outputs of the other stack that changed since this stack's last run, for a stack reference's update
 * step (undefined for any other step). Secret outputs are named, never shown.
 *
 * @example changedStackOutputs(refStep) // ["vpcId"]
 */
export function changedStackOutputs(step: Update): string[] | undefined {
  if (step.type !== STACK_REFERENCE_TYPE) return undefined;
  const out: string[] = [];
  for (const attr of ["values", "secretValues"]) {
    const olds = (step.olds[attr] ?? {}) as Props;
    const news = (step.news[attr] ?? {}) as Props;
    for (const k of new Set([...Object.keys(olds), ...Object.keys(news)])) if (!isDeepStrictEqual(olds[k], news[k])) out.push(k);
  }
  return out.sort();
}

/** `network/prod`, from a reference step's inputs. */
function readStack(step: Update): string {
  return `${String(step.news.project)}/${String(step.news.stack)}`;
}

/**
 * Why a stack reference is updated, in words.
 *
 * @example referenceWhy(refStep) // "output vpcId of stack network/prod changed since this stack's last run"
 */
export function referenceWhy(step: Update): string {
  const keys = changedStackOutputs(step) ?? [];
  if (keys.length === 0) return `reads stack ${readStack(step)} from elsewhere now`;
  return `${keys.length === 1 ? "output" : "outputs"} ${keys.join(", ")} of stack ${readStack(step)} changed since this stack's last run`;
}

/**
 * The stack outputs that changed and that a step reads (through the stack references among its `deps`),
 * as phrases for the reasons of its update. `updateOf` finds a dependency's update step in the plan.
 *
 * @example stackReadReasons(serverStep.deps, (urn) => updates.get(urn)) // ["output vpcId of stack network/prod changed since this stack's last run"]
 */
export function stackReadReasons(deps: readonly Urn[], updateOf: (urn: Urn) => Update | undefined): string[] {
  const out: string[] = [];
  for (const d of deps) {
    const s = updateOf(d);
    if (s?.type === STACK_REFERENCE_TYPE) out.push(referenceWhy(s));
  }
  return out;
}
