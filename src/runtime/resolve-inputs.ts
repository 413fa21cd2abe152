import { combineLatest, firstValueFrom, isObservable, map } from "rxjs";
import { asObservable, resolveNow, type OState, type Resolution, type Resolver } from "../program/output.js";
import type { ResourceNode } from "../program/node.js";
import type { Props } from "../state/types.js";
import type { Deferral } from "../program/deferral.js";

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
  if (keys.length === 0) return { values: {}, secretKeys: [], deps: [] };
  // A loop, not `keys.map`: this runs once per resource in every phase.
  const parts: Resolution<unknown>[] = new Array(keys.length);
  let later = false;
  for (let i = 0; i < keys.length; i++) {
    const part = resolveNow(inputs[keys[i]!], r, "embed");
    if (isObservable(part)) later = true;
    parts[i] = part;
  }
  if (!later) return gather(keys, parts as OState<unknown>[]);
  return firstValueFrom(combineLatest(parts.map(asObservable)).pipe(map((states) => gather(keys, states))));
}

/** {@link resolveInputsNow}, always as a promise. */
export async function resolveInputs(inputs: Record<string, unknown>, r: Resolver): Promise<ResolvedInputs> {
  return resolveInputsNow(inputs, r);
}

/** Builds the result from one state per input ("embed" mode always yields known states with unknowns inside). */
function gather(keys: readonly string[], states: readonly OState<unknown>[]): ResolvedInputs {
  const values: Props = {};
  const secretKeys: string[] = [];
  let deps: ResourceNode[] | undefined;
  let deferred: Deferral[] | undefined;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const s = states[i]!;
    if (s.known && s.value !== undefined) values[k] = s.value;
    if (s.secret) secretKeys.push(k);
    if (s.deps.length) (deps ??= []).push(...s.deps);
    if (s.deferred) (deferred ??= []).push(...s.deferred);
  }
  return deferred ? { values, secretKeys, deps: deps ?? [], deferred } : { values, secretKeys, deps: deps ?? [] };
}

/** Resolves one input strictly: undefined when any part is unknown. */
export async function resolveKnown(v: unknown, r: Resolver): Promise<{ value: unknown; secret: boolean } | undefined> {
  const s = v === undefined ? undefined : await firstValueFrom(asObservable(resolveNow(v, r, "strict")));
  if (!s) return { value: undefined, secret: false };
  return s.known ? { value: s.value, secret: s.secret } : undefined;
}
