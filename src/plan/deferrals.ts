import type { GraphNode } from "../program/node.js";
import type { PlanningHooks } from "../program/resolver.js";
import type { Deferral, Origin } from "../program/deferral.js";
import type { Urn } from "../core/urn.js";

/**
 * What one planning pass learns about the parts it must leave for a later round: callbacks that declare
 * resources but whose value is unknown yet, the program nodes that read their results, and the values
 * callbacks could not run on at all (what they declared in an earlier run is kept, not deleted).
 *
 * @example const d = new Deferrals(); const resolver = new ValueResolver(poke, d.hooks());
 */
export class Deferrals {
  /** Program nodes deferred, with the values they wait for. */
  readonly nodes = new Map<GraphNode, readonly Deferral[]>();
  /** Callbacks that declare resources (found by a run on stand-ins), each once. */
  readonly declaring = new Set<Deferral>();
  /** Resources whose values a callback could not run on in this plan. */
  readonly unknownOn = new Set<Urn>();
  /** Values whose callbacks could not run on stand-ins (what they declare, if anything, is not known). */
  readonly unforeseen = new Set<string>();

  /** The hooks the planner's resolver reports callbacks on unknown values to. */
  hooks(): PlanningHooks {
    return {
      unknownApply: (origin: Origin, deferral: Deferral | undefined, unforeseen?: boolean) => {
        for (const n of origin.on) this.unknownOn.add(n.urn);
        if (deferral) this.declaring.add(deferral);
        if (unforeseen) this.unforeseen.add(origin.waitsFor);
      },
    };
  }
}

