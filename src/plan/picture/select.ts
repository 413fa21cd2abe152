import { UserError } from "../../core/diagnostic.js";
import type { Graph, GraphNode } from "./model.js";

/**
 * What part of a graph to draw: the nodes around `targets` (URNs or names; each node's dependencies and
 * dependents, up to `depth` edges away), those whose URN contains `filter`, and for a plan whether
 * unchanged resources are drawn.
 */
export interface GraphSelection {
  targets?: readonly string[];
  /** Edges away from a target, each way (default: no limit). */
  depth?: number;
  /** Text a node's URN contains (case-insensitive). */
  filter?: string;
  /**
   * Leave out a plan's unchanged resources (drawn as `same`) but those next to a change: what a change
   * reads or what reads it stays, as its context. A target is always kept.
   */
  changesOnly?: boolean;
}

/** Node ids reachable from `start` along `next`, up to `depth` steps. */
function reach(start: readonly string[], next: Map<string, string[]>, depth: number): Set<string> {
  const seen = new Set(start);
  let frontier = [...start];
  for (let d = 0; d < depth && frontier.length; d++) {
    const after: string[] = [];
    for (const id of frontier) {
      for (const n of next.get(id) ?? []) {
        if (seen.has(n)) continue;
        seen.add(n);
        after.push(n);
      }
    }
    frontier = after;
  }
  return seen;
}

/** The node ids a target names: its URN, or every node of that name. */
function targetIds(nodes: readonly GraphNode[], targets: readonly string[]): string[] {
  return nodes.filter((n) => targets.includes(n.id) || targets.includes(n.name)).map((n) => n.id);
}

/**
 * The ids of the nodes named by `targets` and those within `depth` edges of them, each way; an error
 * naming the targets that match no node.
 */
function around(g: Graph, targets: readonly string[], depth: number): Set<string> {
  const missing = targets.filter((t) => !g.nodes.some((n) => n.id === t || n.name === t));
  if (missing.length) {
    const names = missing.map((t) => `"${t}"`).join(", ");
    throw new UserError({ summary: `--target ${names} names no node of the graph.`, detail: "Give a URN or a resource's name, as `state list` (or the plan) shows them." });
  }
  const start = targetIds(g.nodes, targets);
  const down = new Map<string, string[]>();
  const up = new Map<string, string[]>();
  const add = (m: Map<string, string[]>, k: string, v: string) => {
    const list = m.get(k);
    if (list) list.push(v);
    else m.set(k, [v]);
  };
  for (const e of g.edges) {
    add(down, e.from, e.to);
    add(up, e.to, e.from);
  }
  return new Set([...reach(start, up, depth), ...reach(start, down, depth)]);
}

/** The ids of unchanged nodes with an edge to or from a node that changes. */
function besideChanges(g: Graph): Set<string> {
  const same = new Set(g.nodes.filter((n) => n.look === "same").map((n) => n.id));
  const out = new Set<string>();
  for (const e of g.edges) {
    if (same.has(e.from) && !same.has(e.to)) out.add(e.from);
    if (same.has(e.to) && !same.has(e.from)) out.add(e.to);
  }
  return out;
}

/**
 * The part of a graph a selection keeps: its nodes, the edges between them, the clusters still holding
 * one, and how many nodes it left out. A target that names no node is an error naming it.
 *
 * @example selectGraph(g, { targets: ["db"], depth: 1 }).nodes.map((n) => n.name) // ["subnet", "db", "app"]
 */
export function selectGraph(g: Graph, s: GraphSelection): Graph {
  const targets = s.targets ?? [];
  const near = targets.length ? around(g, targets, s.depth ?? Infinity) : undefined;
  const filter = s.filter?.toLowerCase();
  const context = s.changesOnly ? besideChanges(g) : undefined;
  const keep = (n: GraphNode) =>
    (!near || near.has(n.id)) && (!filter || n.id.toLowerCase().includes(filter)) && (!context || n.look !== "same" || context.has(n.id) || targets.includes(n.id) || targets.includes(n.name));
  const nodes = g.nodes.filter(keep);
  const ids = new Set(nodes.map((n) => n.id));
  const used = new Set(nodes.map((n) => n.cluster));
  return {
    ...g,
    nodes,
    edges: g.edges.filter((e) => ids.has(e.from) && ids.has(e.to)),
    clusters: g.clusters.filter((c) => used.has(c.urn)),
    hidden: g.hidden + g.nodes.length - nodes.length,
  };
}
