import type { Urn } from "../../core/urn.js";
import type { StepLook } from "../steps/step-parts.js";

/**
 * A picture of a stack or a plan as plain data: the nodes to draw, the components that group them, and the
 * edges between them. Built from state ({@link stateGraph}) or a plan ({@link planGraph}), narrowed by
 * {@link selectGraph}, and drawn by the CLI as DOT, Mermaid, SVG or a page.
 */

/**
 * How a node is drawn: what a plan does to it, or `resource` for a resource in state. A replace says its
 * order; a step that deletes a stateful object with its data is `data-loss`, whatever its kind.
 */
export type Look = "resource" | StepLook | "data-loss" | "deferred";

/** One node: a resource, a wait (with its predicate) or a deferred part. */
export interface GraphNode {
  /** The resource's or wait's URN, or `deferred:<type>::<name>` for a deferred part the plan cannot name by URN. */
  id: string;
  /** The node's name (a resource's name, a wait's display name, a deferred part's name or pattern). */
  name: string;
  type: string;
  look: Look;
  /** The lines under the name: a wait's predicate and timeout, a deferred part's reason, a step's kind. */
  notes: string[];
  /** The component it is declared in (its parent's URN), when it has one. */
  cluster?: Urn;
}

/**
 * An edge, drawn from what comes first to what comes after: `dependency` (the later reads the earlier),
 * `gate` (what reads a wait starts after it held), `polls` (a wait reads its target), `defers` (a deferred
 * part waits for a value of this node).
 */
export interface GraphEdge {
  from: string;
  to: string;
  kind: "dependency" | "gate" | "polls" | "defers";
}

/** A component, drawn as a box around its children. */
export interface GraphCluster {
  urn: Urn;
  name: string;
  type: string;
}

/**
 * The picture: nodes, edges between them, and the components that group them.
 * @example const g: Graph = { title: "app/dev", nodes: [], edges: [], clusters: [] };
 */
export interface Graph {
  /** `<project>/<stack>`, and what it shows (`plan`, `state`). */
  title: string;
  nodes: GraphNode[];
  edges: GraphEdge[];
  clusters: GraphCluster[];
  /** How many nodes a selection left out (0 for the whole graph). */
  hidden: number;
}
