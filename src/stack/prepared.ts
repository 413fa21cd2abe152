import type { Declarations, Evaluation } from "../program/evaluate.js";
import type { Urn } from "../core/urn.js";
import type { ConfigValue } from "../program/config.js";
import type { GraphNode } from "../program/node.js";
import { buildGraph } from "../graph/graph.js";
import { fingerprint } from "../plan/fingerprint.js";
import type { ProgramRuntime } from "../apply/executor.js";
import { CairnError } from "./errors.js";

/** An evaluated program, ready to plan or to apply a plan made from it. */
export interface Prepared {
  runtime: ProgramRuntime;
  /** Resources the evaluation's callbacks declare while planning (they join `runtime`'s graph). */
  declarations: Declarations;
  /** The program's fingerprint (computed when first asked: `up` applies its own plan and needs none). */
  fingerprint(): string;
}

/**
 * An evaluation made ready to plan: its graph (an error of the graph becomes a {@link CairnError}), and
 * its fingerprint with the `config` it was evaluated with.
 *
 * @example const { runtime, fingerprint } = preparedFrom(evaluation, config);
 */
export function preparedFrom(ev: Evaluation, config: Record<string, ConfigValue>): Prepared {
  let graph;
  try {
    graph = buildGraph(ev.nodes);
  } catch (e) {
    throw new CairnError((e as Error).message);
  }
  const nodeByUrn = new Map<Urn, GraphNode>(graph.order.map((n) => [n.urn, n]));
  const values = Object.fromEntries(Object.entries(config).map(([k, v]) => [k, v.value]));
  // Computed again once planning has grown the graph (resources callbacks declared are part of the program).
  let fp: { nodes: number; value: string } | undefined;
  const fingerprintNow = () => {
    if (fp?.nodes !== graph.order.length) fp = { nodes: graph.order.length, value: fingerprint(graph, ev.outputs, values) };
    return fp.value;
  };
  return { runtime: { graph, nodeByUrn, programOutputs: ev.outputs, applies: ev.applies }, declarations: ev.declarations, fingerprint: fingerprintNow };
}
