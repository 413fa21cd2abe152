import { combineLatest, firstValueFrom, map, of } from "rxjs";
import { resolveDeep, type Resolver } from "../program/output.js";
import type { ResourceNode } from "../program/node.js";
import type { Props } from "../state/types.js";

/** A resource's inputs resolved in one phase: values (unknowns embedded), which are secret, and what they came from. */
export interface ResolvedInputs {
  values: Props;
  secretKeys: string[];
  /** Resources the values came from, including ones reached inside apply callbacks. */
  deps: ResourceNode[];
}

/** Resolves each top-level input separately, so secrecy is tracked per attribute. */
export function resolveInputs(inputs: Record<string, unknown>, r: Resolver): Promise<ResolvedInputs> {
  const keys = Object.keys(inputs);
  if (keys.length === 0) return Promise.resolve({ values: {}, secretKeys: [], deps: [] });
  return firstValueFrom(
    combineLatest(keys.map((k) => resolveDeep(inputs[k], r, "embed"))).pipe(
      map((states) => {
        const values: Props = {};
        const secretKeys: string[] = [];
        const deps: ResourceNode[] = [];
        keys.forEach((k, i) => {
          const s = states[i]!;
          // "embed" mode always yields known states with unknowns inside the value.
          if (s.known && s.value !== undefined) values[k] = s.value;
          if (s.secret) secretKeys.push(k);
          if (s.deps.length) deps.push(...s.deps);
        });
        return { values, secretKeys, deps };
      }),
    ),
  );
}

/** Resolves one input strictly: undefined when any part is unknown. */
export async function resolveKnown(v: unknown, r: Resolver): Promise<{ value: unknown; secret: boolean } | undefined> {
  const s = await firstValueFrom(v === undefined ? of({ known: true as const, value: undefined, secret: false, deps: [] }) : resolveDeep(v, r, "strict"));
  return s.known ? { value: s.value, secret: s.secret } : undefined;
}
