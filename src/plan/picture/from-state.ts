import { nameOf } from "../../core/urn.js";
import type { ResourceState } from "../../state/types.js";
import type { Graph, GraphCluster, GraphEdge, GraphNode } from "./model.js";
import { clusterOf } from "./clusters.js";

/**
 * A stack's state as a picture: a node per resource, components as clusters, an edge per dependency its
 * last apply recorded. (Waits have no record in state: a plan's picture shows them.)
 *
 * @example stateGraph("app/dev", await stack.resources()).nodes.length
 */
export function stateGraph(title: string, resources: readonly ResourceState[]): Graph {
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const clusters = new Map<string, GraphCluster>();
  const known = new Set(resources.map((r) => r.urn as string));
  for (const r of resources) {
    if (r.parent && !clusters.has(r.parent)) clusters.set(r.parent, clusterOf(r.parent));
    const notes = [...(r.tainted ? ["tainted"] : []), ...(r.protect ? ["protected"] : [])];
    nodes.push({ id: r.urn, name: nameOf(r.urn), type: r.type, look: "resource", notes, ...(r.parent ? { cluster: r.parent } : {}) });
    for (const d of new Set(r.deps)) if (known.has(d)) edges.push({ from: d, to: r.urn, kind: "dependency" });
  }
  return { title: `${title} state`, nodes, edges, clusters: [...clusters.values()], hidden: 0 };
}
