import { firstValueFrom } from "rxjs";
import type { GraphNode, ResourceNode } from "../program/node.js";
import type { Deferral, Origin, PlanningHooks } from "../program/deferral/deferral.js";
import type { Urn } from "../core/urn.js";
import { nameOf } from "../core/urn.js";
import type { ResourceState, StackState } from "../state/types.js";
import { unknownValue, type ResourceValue } from "../runtime/values.js";
import type { DeferredPart, PlanStep } from "./plan.js";
import type { ResolvedInputs } from "../runtime/resolve-inputs.js";
import type { Resolver } from "../program/resolver.js";
import { resolveDeep } from "../program/output.js";

// Deferral while planning, all of it: what a pass learns of parts it must leave for a later round of `up`,
// the nodes it leaves, the objects it keeps, and the plan's deferred parts made of them.

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

/**
 * Leaves a node for a later round: no step, and a deferred value, so whatever reads it is deferred too.
 *
 * @example if (resolved.deferred) return deferNode(node, resolved.deferred, ctx);
 */
export function deferNode(node: GraphNode, deferrals: readonly Deferral[], ctx: DeferringPass): void {
  ctx.deferrals.nodes.set(node, deferrals);
  ctx.publish(node, { ...unknownValue(), deferred: deferrals });
}

/**
 * What deferring a node needs of a planning pass: a `PlanContext` is one (named by its parts here, as the
 * context's file imports this one).
 *
 * @example deferNode(node, deferrals, ctx) // ctx: PlanContext
 */
export interface DeferringPass {
  /** What this pass leaves for a later round. */
  readonly deferrals: Deferrals;
  /** Publishes a node's planned value to what reads it. */
  publish(node: GraphNode, value: ResourceValue): void;
}

/**
 * Objects in state, not claimed by the program now, that a callback declared in an earlier run on a value
 * this plan could not run it on: the callback may declare them again once the value is known, so they are
 * kept for that round rather than deleted now.
 *
 * @example const kept = keptForLater(state, (urn) => claims.hasUrn(urn), ctx.deferrals.unknownOn);
 */
export function keptForLater(state: StackState, claimed: (urn: string) => boolean, unknownOn: ReadonlySet<Urn>): ResourceState[] {
  if (unknownOn.size === 0) return [];
  return Object.values(state.resources).filter((r) => !claimed(r.urn) && r.declaredIn?.on.some((u) => unknownOn.has(u)));
}

/**
 * The plan's deferred parts: what callbacks will declare, the program nodes that wait for them, and the
 * objects kept for a later round.
 *
 * @example plan.deferred = deferredParts(ctx.deferrals, kept);
 */
export function deferredParts(d: Deferrals, kept: readonly ResourceState[]): DeferredPart[] {
  const out: DeferredPart[] = [];
  for (const deferral of d.declaring) {
    for (const x of deferral.declares) {
      const part: DeferredPart = { kind: "declared", type: x.type, waitsFor: deferral.waitsFor };
      if (x.name !== undefined) part.name = x.name;
      if (x.pattern !== undefined) part.pattern = x.pattern;
      if (x.site) part.site = x.site;
      out.push(part);
    }
  }
  for (const [node, deferrals] of d.nodes) {
    const part: DeferredPart = { kind: "node", type: node.type, name: node.name, urn: node.urn, waitsFor: [...new Set(deferrals.map((x) => x.waitsFor))].join(", ") };
    if (node.site) part.site = node.site;
    out.push(part);
  }
  for (const r of kept) out.push({ kind: "kept", type: r.type, name: nameOf(r.urn), urn: r.urn, waitsFor: r.declaredIn!.waitsFor });
  return out;
}

/**
 * A node's `dependsOn` outputs, resolved: the resources they hold, and what they defer the node for. An
 * output still deferred defers it; so does one whose callback has not run (it could not be foreseen):
 * the node cannot know what it must follow until the round where the output is known. An output that
 * is unknown only because the resources it holds are still to be made defers nothing.
 */
async function resolveDependsOn(node: GraphNode, scope: Resolver): Promise<{ deps: readonly ResourceNode[]; deferred: Deferral[] }> {
  if (!node.dependsOnValues) return { deps: [], deferred: [] };
  const s = await firstValueFrom(resolveDeep(node.dependsOnValues, scope, "strict"));
  if (s.deferral?.deferrals) return { deps: s.deps, deferred: [...s.deferral.deferrals] };
  if (s.known || !s.deferral?.unrun) return { deps: s.deps, deferred: [] };
  return { deps: s.deps, deferred: [{ waitsFor: `the dependsOn outputs of "${node.name}"`, on: s.deps.map((d) => d.urn), declares: [] }] };
}

/**
 * A node's resolved inputs with its `dependsOn` outputs added (see {@link resolveDependsOn}). As is,
 * when it has none.
 *
 * @example const r = withDependsOnValues(node, resolveInputsNow(node.inputs, scope), scope);
 */
export function withDependsOnValues(node: GraphNode, r: ResolvedInputs | Promise<ResolvedInputs>, scope: Resolver): ResolvedInputs | Promise<ResolvedInputs> {
  if (!node.dependsOnValues) return r;
  return Promise.all([r, resolveDependsOn(node, scope)]).then(([a, b]) => {
    const deferred = [...(a.deferred ?? []), ...b.deferred];
    const out: ResolvedInputs = { ...a, deps: [...a.deps, ...b.deps] };
    if (deferred.length) out.deferred = deferred;
    return out;
  });
}

/**
 * The deferrals of a wait or lookup (deferred when there is any): `own` (its target's or id's value's), then
 * those among its dependencies' values and its `dependsOn` outputs; with the resources those outputs hold
 * beyond `deps`.
 *
 * @example const { deferred, extra } = await dependencyDeferrals(node, deps, scope, target.deferred);
 */
export async function dependencyDeferrals(node: GraphNode, deps: readonly GraphNode[], scope: Resolver, own: readonly Deferral[] = []): Promise<{ deferred: Deferral[]; extra: GraphNode[] }> {
  const states = await Promise.all(deps.map((d) => firstValueFrom(scope.whole(d))));
  const late = await resolveDependsOn(node, scope);
  const deferred = [...own, ...states.flatMap((s) => s.deferral?.deferrals ?? []), ...late.deferred];
  const extra = late.deps.filter((d): d is GraphNode => d !== node && d.kind !== "component" && !deps.includes(d as GraphNode));
  return { deferred, extra: [...new Set(extra)] };
}

/**
 * Marks the create-first replaces whose old object a kept object still references (`keepOld`): deleting it
 * now would pull it from under them (a cloud refuses, "in use"). It stays deposed, and the round that plans
 * the kept objects deletes it once they let go. A delete-first replace deletes first by definition.
 *
 * @example keepReferencedOld(steps, kept);
 */
export function keepReferencedOld(steps: readonly PlanStep[], kept: readonly ResourceState[]): void {
  if (kept.length === 0) return;
  const referenced = new Set(kept.flatMap((r) => r.deps ?? []));
  for (const s of steps) if (s.kind === "replace" && !s.deleteFirst && referenced.has(s.urn)) s.keepOld = true;
}
