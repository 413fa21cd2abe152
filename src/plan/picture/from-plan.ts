import type { Urn } from "../../core/urn.js";
import type { DeferredPart, Plan } from "../plan.js";
import { stepName, type PlanStep } from "../steps/index.js";
import { planViewOnDemand } from "../plan-view.js";
import type { Graph, GraphCluster, GraphEdge, GraphNode } from "./model.js";
import { deferredNote, stepLook, stepNotes } from "./step-look.js";
import { clusterOf } from "./clusters.js";

/** The URNs a step's object comes after: what it reads, and for a delete what it referenced. */
function depsOf(step: PlanStep): readonly Urn[] {
  return step.kind === "delete" ? [...step.deps, ...step.prior.deps] : step.deps;
}

/** The component a step's resource is declared in. */
function parentOf(step: PlanStep): Urn | undefined {
  return "meta" in step ? step.meta.parent : undefined;
}

/** A deferred part's node id: its URN, or its type and name (or pattern) when it has none yet. */
function deferredId(p: DeferredPart): string {
  return p.urn ?? `deferred:${p.type}::${p.name ?? p.pattern ?? "…"}`;
}

/** The node of a deferred part: by URN when it has one, else by type and name (or pattern). */
function deferredNodes(plan: Plan, known: Set<string>): GraphNode[] {
  const out: GraphNode[] = [];
  for (const p of plan.deferred ?? []) {
    const name = p.name ?? p.pattern ?? "…";
    const id = deferredId(p);
    if (known.has(id)) continue;
    known.add(id);
    out.push({ id, name, type: p.type, look: "deferred", notes: [`deferred: ${deferredNote(p)}`] });
  }
  return out;
}

/**
 * Edges from the node a deferred part waits for (named by the head of `waitsFor`, `cert` of
 * `cert.domainValidationOptions`), when exactly one node has that name.
 */
function deferredEdges(plan: Plan, nodes: readonly GraphNode[]): GraphEdge[] {
  // A name two nodes share names neither (null): no edge is better than a wrong one.
  const byName = new Map<string, string | null>();
  for (const n of nodes) if (n.look !== "deferred") byName.set(n.name, byName.has(n.name) ? null : n.id);
  const out: GraphEdge[] = [];
  for (const p of plan.deferred ?? []) {
    const from = byName.get(p.waitsFor.split(".")[0]!);
    if (from) out.push({ from, to: deferredId(p), kind: "defers" });
  }
  return out;
}

/**
 * A plan as a picture: a node per step (coloured by what it does, see `stepLook`) and per deferred part,
 * components as clusters, edges for dependencies, the gates of waits and the targets they poll.
 *
 * @example planGraph(await stack.preview()).nodes.filter((n) => n.look === "wait")
 */
export function planGraph(plan: Plan): Graph {
  const view = planViewOnDemand(plan);
  const waits = new Set(plan.steps.filter((s) => s.kind === "wait").map((s) => s.urn as string));
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const clusters = new Map<string, GraphCluster>();
  for (const s of plan.steps) {
    const look = stepLook(s, view);
    const parent = parentOf(s);
    if (parent && !clusters.has(parent)) clusters.set(parent, clusterOf(parent));
    nodes.push({ id: s.urn, name: stepName(s), type: s.type, look, notes: stepNotes(s, look), ...(parent ? { cluster: parent } : {}) });
    for (const d of new Set(depsOf(s))) {
      const kind = s.kind === "wait" && d === s.target ? "polls" : waits.has(d) ? "gate" : "dependency";
      edges.push({ from: d, to: s.urn, kind });
    }
  }
  const known = new Set(nodes.map((n) => n.id));
  nodes.push(...deferredNodes(plan, known));
  edges.push(...deferredEdges(plan, nodes));
  return { title: `${plan.project}/${plan.stack} plan`, nodes, edges: edges.filter((e) => known.has(e.from) && known.has(e.to)), clusters: [...clusters.values()], hidden: 0 };
}
