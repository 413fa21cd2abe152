import { combineLatest, firstValueFrom, isObservable, map } from "rxjs";
import { asObservable, needsResolving, resolveNow, type ValueState, type Resolution, type Resolver } from "../program/output.js";
import type { ResourceNode } from "../program/node.js";
import { NO_NODES } from "../program/distinct-nodes.js";
import type { Props } from "../state/types.js";
import type { Deferral } from "../program/deferral/deferral.js";

/** A resource's inputs resolved in one phase: values (unknowns embedded), which are secret, and what they came from. */
export interface ResolvedInputs {
  values: Props;
  secretKeys: string[];
  /** Resources the values came from, including ones reached inside apply callbacks. */
  deps: ResourceNode[];
  /** Set when a value waits for a callback that declares resources: the node is deferred to the next round. */
  deferred?: Deferral[];
}

/**
 * Resolves each top-level input separately, so secrecy is tracked per attribute. Returns the result at
 * once when every input is known already (the usual case: what they read was planned or applied first),
 * else a promise of it.
 *
 * @example const r = resolveInputsNow(node.inputs, scope); const { values } = r instanceof Promise ? await r : r;
 */
export function resolveInputsNow(inputs: Record<string, unknown>, r: Resolver): ResolvedInputs | Promise<ResolvedInputs> {
  const keys = Object.keys(inputs);
  // Only inputs holding outputs, promises or resources are resolved (plain data is itself): `parts` has a
  // state for those, and nothing at all when every input is plain (a loop, not `keys.map`: once per resource).
  let parts: (Resolution<unknown> | undefined)[] | undefined;
  let later = false;
  for (let i = 0; i < keys.length; i++) {
    const v = inputs[keys[i]!];
    if (!needsResolving(v)) continue;
    const part = resolveNow(v, r, "embed");
    if (isObservable(part)) later = true;
    (parts ??= new Array<Resolution<unknown> | undefined>(keys.length))[i] = part;
  }
  if (!later) return gather(keys, inputs, parts as (ValueState<unknown> | undefined)[] | undefined);
  // The plain inputs as they are now, not once the rest is known.
  const states = keys.map((k, i) => asObservable(parts![i] ?? resolveNow(inputs[k], r, "embed")));
  return firstValueFrom(combineLatest(states).pipe(map((s) => gather(keys, inputs, s))));
}

/** {@link resolveInputsNow}, always as a promise. */
export async function resolveInputs(inputs: Record<string, unknown>, r: Resolver): Promise<ResolvedInputs> {
  return resolveInputsNow(inputs, r);
}

/**
 * Builds the result from a state per input ("embed" mode always yields known states with unknowns inside);
 * an input without one (`states` absent, or a hole) is plain data, taken from `inputs` as it is.
 */
function gather(keys: readonly string[], inputs: Record<string, unknown>, states: readonly (ValueState<unknown> | undefined)[] | undefined): ResolvedInputs {
  // Plain data only (a resource taking no other's values): the inputs are their own values, kept as they are.
  if (!states && allDefined(keys, inputs)) return { values: inputs, secretKeys: NO_NAMES, deps: NO_DEPS };
  const values: Props = {};
  let secretKeys: string[] | undefined;
  let deps: ResourceNode[] | undefined;
  let deferred: Deferral[] | undefined;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const s = states?.[i];
    if (!s) {
      const v = inputs[k];
      if (v !== undefined) values[k] = v;
      continue;
    }
    if (s.known && s.value !== undefined) values[k] = s.value;
    if (s.secret) (secretKeys ??= []).push(k);
    if (s.deps.length) (deps ??= []).push(...s.deps);
    if (s.deferral?.deferrals) (deferred ??= []).push(...s.deferral.deferrals);
  }
  return deferred ? { values, secretKeys: secretKeys ?? NO_NAMES, deps: deps ?? NO_DEPS, deferred } : { values, secretKeys: secretKeys ?? NO_NAMES, deps: deps ?? NO_DEPS };
}

/** True when no input is `undefined` (a loop: this runs once per resource). */
function allDefined(keys: readonly string[], inputs: Record<string, unknown>): boolean {
  for (let i = 0; i < keys.length; i++) if (inputs[keys[i]!] === undefined) return false;
  return true;
}

// Shared by the results that have none (most): a list per resource would be kept by every step. Frozen,
// so a caller that would add to one fails at once instead of changing every result.
const NO_NAMES = Object.freeze([]) as unknown as string[];
const NO_DEPS = NO_NODES as ResourceNode[];

/** Resolves one input strictly: undefined when any part is unknown. */
export async function resolveKnown(v: unknown, r: Resolver): Promise<{ value: unknown; secret: boolean } | undefined> {
  const s = v === undefined ? undefined : await firstValueFrom(asObservable(resolveNow(v, r, "strict")));
  if (!s) return { value: undefined, secret: false };
  return s.known ? { value: s.value, secret: s.secret } : undefined;
}
