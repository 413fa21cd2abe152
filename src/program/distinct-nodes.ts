import type { ResourceNode } from "./node.js";

/** The dependencies of a node that has none (most lookups and many resources): one frozen list. */
export const NO_NODES: readonly ResourceNode[] = Object.freeze([]);

/** Past this many nodes a set is kept beside the list: looking through a longer list costs more than the set. */
const LIST_ONLY = 8;

/**
 * Nodes collected once each, in the order first seen: what a node depends on, while it is declared. A list
 * while it is short (nearly every node depends on none or a few, and a set per node is larger), with a set
 * beside it once it grows, so a node that depends on thousands is not collected in quadratic time.
 *
 * @example
 * const deps = new DistinctNodes();
 * deps.add(a); deps.add(b); deps.add(a);
 * deps.list() // [a, b]
 */
export class DistinctNodes {
  private nodes: ResourceNode[] | undefined;
  private seen: Set<ResourceNode> | undefined;

  /** Adds `n` unless it is there already. */
  add(n: ResourceNode): void {
    if (!this.nodes) return void (this.nodes = [n]);
    if (this.seen ? this.seen.has(n) : this.nodes.includes(n)) return;
    this.nodes.push(n);
    if (this.seen) this.seen.add(n);
    else if (this.nodes.length > LIST_ONLY) this.seen = new Set(this.nodes);
  }

  /**
   * The nodes, in the order first added ({@link NO_NODES} when none). A node keeps this list: one of a single
   * node is kept as made, a longer one is copied to its size (a list that grew has room for 16 more).
   */
  list(): readonly ResourceNode[] {
    const ns = this.nodes;
    return !ns ? NO_NODES : ns.length === 1 ? ns : ns.slice();
  }
}
