import type { ResourceNode } from "./node.js";

/**
 * What a reader of values per node needs: a {@link NodeTable}, or a `Map` (tests build those by hand).
 *
 * @example function stepOf(steps: NodeValues<GraphNode, PlanStep>, n: GraphNode) { return steps.get(n); }
 */
export interface NodeValues<N, V> {
  readonly size: number;
  get(node: N): V | undefined;
  has(node: N): boolean;
  forEach(f: (value: V, node: N) => void): void;
  [Symbol.iterator](): Iterator<[N, V]>;
}

/**
 * A value per program node, kept in arrays by the node's place in its evaluation (`ResourceNode.index`)
 * instead of a `Map`: a large map grows by rehashing (each old table garbage that outlives the young
 * generation) and hashes every node on every lookup. A node without a place (built by hand, or one
 * whose place another node of a second evaluation holds here) goes to a map beside, so any node works.
 *
 * @example
 * const steps = new NodeTable<PlanStep>(graph.order.length);
 * steps.set(node, step);
 * steps.get(node) // step
 */
export class NodeTable<V, N extends ResourceNode = ResourceNode> implements NodeValues<N, V> {
  private readonly keys: (N | undefined)[];
  private readonly values: (V | undefined)[];
  private others: Map<N, V> | undefined;
  private count = 0;

  /** @param capacity how many nodes to make room for at once (the graph's size, when known): growing copies. */
  constructor(capacity = 0) {
    this.keys = new Array<N | undefined>(capacity).fill(undefined);
    this.values = new Array<V | undefined>(capacity).fill(undefined);
  }

  /** How many nodes have a value. */
  get size(): number {
    return this.count;
  }

  /** The node's value, or undefined. */
  get(node: N): V | undefined {
    const i = node.index;
    if (i >= 0 && this.keys[i] === node) return this.values[i];
    return this.others?.get(node);
  }

  /** True when the node has a value. */
  has(node: N): boolean {
    const i = node.index;
    if (i >= 0 && this.keys[i] === node) return true;
    return this.others?.has(node) ?? false;
  }

  /** Sets (or replaces) the node's value. */
  set(node: N, value: V): this {
    const i = node.index;
    if (i >= 0 && (this.keys[i] === undefined || this.keys[i] === node)) {
      if (this.keys[i] === undefined) {
        this.grow(i);
        this.keys[i] = node;
        this.count++;
      }
      this.values[i] = value;
      return this;
    }
    this.others ??= new Map();
    if (!this.others.has(node)) this.count++;
    this.others.set(node, value);
    return this;
  }

  /** Calls `f` with each value and its node: nodes by their place, then those kept beside. */
  forEach(f: (value: V, node: N) => void): void {
    const { keys, values } = this;
    for (let i = 0; i < keys.length; i++) if (keys[i] !== undefined) f(values[i] as V, keys[i]!);
    this.others?.forEach(f);
  }

  /** Each node and its value, as {@link NodeTable.forEach} orders them. */
  *[Symbol.iterator](): IterableIterator<[N, V]> {
    const { keys, values } = this;
    for (let i = 0; i < keys.length; i++) if (keys[i] !== undefined) yield [keys[i]!, values[i] as V];
    if (this.others) yield* this.others;
  }

  // Holes are filled as the arrays grow, so they stay packed (a holey array past its length turns into a dictionary).
  private grow(i: number): void {
    while (this.keys.length <= i) {
      this.keys.push(undefined);
      this.values.push(undefined);
    }
  }
}
