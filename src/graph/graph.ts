import type { GraphNode, ResourceNode } from "../program/node.js";

/**
 * The program's resources (custom resources and lookups) with their dependency edges, in a
 * topological order (dependencies first). Components are not nodes: depending on one means depending
 * on everything inside it.
 */
export interface Graph {
  /** Dependencies first. */
  readonly order: readonly GraphNode[];
  /** Direct dependencies of each node (components expanded). */
  readonly deps: ReadonlyMap<GraphNode, readonly GraphNode[]>;
}

function descendants(n: ResourceNode, out: GraphNode[]): void {
  for (const c of n.children) {
    if (c.kind !== "component") out.push(c);
    descendants(c, out);
  }
}

/** Replaces component dependencies by the resources inside them. */
function expand(deps: Iterable<ResourceNode>, self: ResourceNode): GraphNode[] {
  const out: GraphNode[] = [];
  for (const d of deps) {
    if (d.kind === "component") {
      const inner: GraphNode[] = [];
      descendants(d, inner);
      for (const x of inner) if (x !== self) out.push(x);
    } else if (d !== self) out.push(d);
  }
  return out;
}

/** True when a node's own list is its graph dependencies as they are: no component in it, none inherited, not itself. */
function ownListWillDo(n: GraphNode): boolean {
  // Indexed loops here and below: this runs for every node, mostly before V8 optimises it, when `for…of`
  // makes an iterator and a result object per step.
  for (let i = 0; i < n.deps.length; i++) {
    const d = n.deps[i]!;
    if (d.kind === "component" || d === n) return false;
  }
  for (let p: ResourceNode | undefined = n.parent; p; p = p.parent) if (p.kind === "component" && p.deps.length) return false;
  return true;
}

/**
 * A node's direct dependencies, each once: its own (components expanded), and those of the components it
 * is inside (their children inherit a component's dependsOn). Its own list has no repeats; only expanding
 * a component or adding a parent's can bring one, so only then are they removed. Nearly always its own list
 * will do as it is, and is shared (the apply keeps these lists, so none is made that is not needed).
 */
function directDeps(n: GraphNode): readonly GraphNode[] {
  if (ownListWillDo(n)) return n.deps as readonly GraphNode[];
  const deps = expand(n.deps, n);
  let merged = n.deps.some((d) => d.kind === "component");
  for (let p: ResourceNode | undefined = n.parent; p; p = p.parent) {
    if (p.kind === "component" && p.deps.length) {
      deps.push(...expand(p.deps, n));
      merged = true;
    }
  }
  return merged ? [...new Set(deps)] : deps;
}

/**
 * Builds the graph from the recorded nodes. A cycle is an error that lists its members in order.
 *
 * @example const g = buildGraph(evaluation.nodes); g.order.map(n => n.urn)
 */
export function buildGraph(nodes: readonly ResourceNode[]): Graph {
  const deps = new Map<GraphNode, readonly GraphNode[]>();
  const declared: GraphNode[] = [];
  let topological = true;
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i]!;
    if (n.kind === "component") continue;
    const ds = directDeps(n);
    // Declared after all it depends on (a program can only use what it declared before, but for the
    // children a component gets later): then the order declared is the order of the walk below.
    for (let j = 0; topological && j < ds.length; j++) if (!deps.has(ds[j]!)) topological = false;
    deps.set(n, ds);
    declared.push(n);
  }
  return { order: topological ? declared : depthFirstOrder(deps), deps };
}

/**
 * The nodes, dependencies first: a depth-first walk from each node in the order declared (so when every
 * node comes after its dependencies, that order as it is). A cycle is an error that lists its members.
 */
function depthFirstOrder(deps: ReadonlyMap<GraphNode, readonly GraphNode[]>): GraphNode[] {
  const order: GraphNode[] = [];
  const state = new Map<GraphNode, 1 | 2>(); // 1 = on the current path, 2 = done
  const path: GraphNode[] = [];
  // Iterative DFS: 10,000-deep chains must not overflow the stack.
  for (const root of deps.keys()) {
    if (state.has(root)) continue;
    const stack: { node: GraphNode; i: number }[] = [{ node: root, i: 0 }];
    state.set(root, 1);
    path.push(root);
    while (stack.length) {
      const top = stack[stack.length - 1]!;
      const ds = deps.get(top.node) ?? [];
      if (top.i < ds.length) {
        const d = ds[top.i++]!;
        const s = state.get(d);
        if (s === 1) throw cycleError(path.slice(path.indexOf(d)).concat(d));
        if (s === undefined && deps.has(d)) {
          state.set(d, 1);
          path.push(d);
          stack.push({ node: d, i: 0 });
        }
      } else {
        state.set(top.node, 2);
        order.push(top.node);
        path.pop();
        stack.pop();
      }
    }
  }
  return order;
}

function cycleError(cycle: GraphNode[]): Error {
  return new Error(
    `Dependency cycle: ${cycle.map((n) => `"${n.name}" (${n.urn})`).join(" → ")}. ` +
      "Each of these needs the next one first; remove one of the references or dependsOn entries to break the cycle.",
  );
}

/**
 * Adds a node declared after the graph was built (by an `apply` callback while planning) and returns it
 * (undefined for a component, which is not a graph node). Such a node depends only on nodes declared
 * before it, so appending it keeps the order topological.
 *
 * @example const added = addNode(graph, node); if (added) planNode(added);
 */
export function addNode(graph: Graph, node: ResourceNode): GraphNode | undefined {
  if (node.kind === "component") return undefined;
  (graph.deps as Map<GraphNode, readonly GraphNode[]>).set(node, directDeps(node));
  (graph.order as GraphNode[]).push(node);
  return node;
}
