import { enterApply, leaveApply, type EvalContext } from "../context.js";
import type { ResourceNode } from "../node.js";
import type { Deferral, Origin } from "./deferral.js";
import { hasStandIn, namePattern, standIn } from "./stand-in.js";

/**
 * What a run of an `apply` callback on stand-ins showed: the {@link Deferral} when it declared resources
 * (else null), and `unforeseen` when whether it declares any is not known (it failed before declaring
 * anything, or made applies that may declare once they run for real).
 *
 * @example { deferral: null, unforeseen: true }
 */
export interface Foresight {
  readonly deferral: Deferral | null;
  readonly unforeseen: boolean;
}

/**
 * Nothing foreseen: a callback of an output made outside any program never declares.
 *
 * @example const foresight = owner ? foresee(f, owner, origin, partial) : NOTHING_FORESEEN;
 */
export const NOTHING_FORESEEN: Foresight = { deferral: null, unforeseen: false };

/**
 * Runs callback `f`, whose value `origin` is unknown while planning, once on stand-ins (`partial`: what is
 * known of the value already) to see what it would declare. What it declares is collected, never
 * registered: it becomes the {@link Deferral} whatever reads the callback's result is deferred by.
 *
 * @example const { deferral } = foresee((cert) => cert.options.map(recordFor), owner, origin, undefined);
 */
export function foresee<T>(f: (value: T) => unknown, owner: EvalContext, origin: Origin, partial: unknown): Foresight {
  const seen: ResourceNode[] = [];
  const frame = enterApply(owner, origin, seen);
  let unforeseen = false;
  try {
    const r = f(standIn(partial) as T);
    if (r instanceof Promise) r.catch(() => {}); // what it does later cannot be foreseen
  } catch {
    // A callback that cannot run on stand-ins shows what it declared before it stopped.
    unforeseen = seen.length === 0;
  } finally {
    leaveApply();
  }
  // Applies it made on the way (never run: see trackApply) may declare once they run for real.
  if (seen.length === 0 && frame.made > 0) unforeseen = true;
  if (seen.length === 0) return { deferral: null, unforeseen };
  const deferral: Deferral = {
    waitsFor: origin.waitsFor,
    on: origin.on.map((n) => n.urn),
    declares: seen.map((n) => ({
      kind: n.kind, type: n.type,
      ...(hasStandIn(n.name) ? { name: undefined, pattern: namePattern(n.name) } : { name: n.name }),
      ...(n.site ? { site: n.site } : {}),
    })),
  };
  return { deferral, unforeseen };
}
