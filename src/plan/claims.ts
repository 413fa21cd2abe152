import type { Graph } from "../graph/graph.js";
import type { Urn } from "../core/urn.js";
import type { CustomNode } from "../program/node.js";
import { NodeTable } from "../program/node-table.js";
import type { ResourceState, StackState } from "../state/types.js";
import type { AdoptedObject } from "./plan.js";

/** A state entry claimed by a program resource, directly or through an alias. */
export interface Claim {
  prior: ResourceState;
  movedFrom?: Urn;
  /** Set when the prior is an existing object adopted by `import` (not yet in state). */
  adopted?: AdoptedObject;
}

/**
 * The records of state that program resources claim: by node (what each resource was), and by URN (what
 * no resource claims is deleted). Both kept as claims are made, so a plan of many unchanged resources
 * builds one set of URNs, not two, and no map keyed by node.
 *
 * @example
 * const claims = claimResources(graph, state);
 * claims.get(node)?.prior // the record the resource had
 * claims.hasUrn(record.urn) // false: the record is deleted
 */
export class Claims {
  private readonly byNode: NodeTable<Claim, CustomNode>;
  private readonly urns = new Set<string>();

  /** @param nodes the program's size, when known (room is made at once). */
  constructor(nodes = 0) {
    this.byNode = new NodeTable(nodes);
  }

  /** Records that `node` claims `claim.prior` (under its own URN, or the one it moved from). */
  claim(node: CustomNode, claim: Claim): void {
    this.byNode.set(node, claim);
    this.urns.add(claim.movedFrom ?? node.urn);
  }

  /** What `node` claims, if anything. */
  get(node: CustomNode): Claim | undefined {
    return this.byNode.get(node);
  }

  /** True when a program resource claims the record at `urn`. */
  hasUrn(urn: string): boolean {
    return this.urns.has(urn);
  }
}

/**
 * The records each program resource takes over: its own URN's, else the first of its aliases that is
 * recorded, not taken, and not a resource of the program itself.
 *
 * @example const claims = claimResources(graph, state); claims.get(node)?.movedFrom // "urn:…::old-name"
 */
export function claimResources(graph: Graph, state: StackState): Claims {
  const claims = new Claims(graph.order.length);
  if (!mayHoldAny(graph, state)) return claims;
  let aliased: CustomNode[] | undefined;
  for (const n of graph.order) {
    if (n.kind !== "custom") continue;
    const direct = state.resources[n.urn];
    if (direct) claims.claim(n, { prior: direct });
    else if (n.options.aliases.length > 0) (aliased ??= []).push(n);
  }
  if (!aliased) return claims;
  // Claimed directly: the URN of a resource in the program, which an alias never takes.
  const inProgram = new Set<string>(graph.order.map((n) => n.urn));
  for (const n of aliased) {
    const a = n.options.aliases.find((u) => state.resources[u] && !claims.hasUrn(u) && !inProgram.has(u));
    if (a) claims.claim(n, { prior: state.resources[a]!, movedFrom: a });
  }
  return claims;
}

/**
 * False when the state holds no record (a fresh stack: no URN is looked up, each lookup hashing a long
 * string). The first resource's record answers for most stacks at once: telling a large map is not empty
 * walks all its keys.
 */
function mayHoldAny(graph: Graph, state: StackState): boolean {
  const first = graph.order.find((n) => n.kind === "custom");
  if (first && state.resources[first.urn]) return true;
  for (const urn in state.resources) if (Object.hasOwn(state.resources, urn)) return true;
  return false;
}
