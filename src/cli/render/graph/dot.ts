import type { Graph, GraphEdge, GraphNode } from "../../../plan/picture/model.js";
import { LOOKS } from "./looks.js";
import { labelLines, type Redact } from "./label.js";

/** A DOT quoted string: backslashes and quotes escaped, lines joined by Graphviz's centred `\n`. */
function q(text: string): string {
  return `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\r?\n/g, "\\n")}"`;
}

/** How each kind of edge is drawn: a gate bold, a wait's poll of its target dashed, a deferral dotted. */
const EDGES: Readonly<Record<GraphEdge["kind"], string>> = {
  dependency: `color="#64748b"`,
  gate: `color="#1d4ed8", penwidth=2, label="gate", fontcolor="#1d4ed8"`,
  polls: `color="#1d4ed8", style=dashed, arrowhead=odot, label="polls", fontcolor="#1d4ed8"`,
  defers: `color="#475569", style=dotted, label="defers"`,
};

/**
 * Past this many nodes Graphviz is told to spend less on crossings: its full search on a large plan graph
 * takes far longer than a user waits, and these bounds cost only a few more crossings.
 */
const LARGE = 300;
const QUICK_LAYOUT = "mclimit=0.01; nslimit=0.5; nslimit1=0.5; remincross=false;";

/** One node statement: its id in the SVG (`n<index>`), its look as a class, its label and colours. */
function nodeLine(n: GraphNode, i: number, redact: Redact): string {
  const s = LOOKS[n.look];
  const label = labelLines(n, redact).join("\n");
  return `${q(redact(n.id))} [id=${q(`n${i}`)}, class=${q(`look-${n.look}`)}, label=${q(label)}, tooltip=${q(redact(n.id))}, shape=${s.dot.shape}, style=${q(s.dot.style)}, fillcolor=${q(s.light.fill)}, color=${q(s.light.stroke)}, fontcolor=${q(s.light.text)}];`;
}

/**
 * The graph in Graphviz's DOT language: components as clusters, nodes coloured and shaped by their look,
 * edges by kind. Node and cluster names pass through `redact`.
 *
 * @example renderDot(planGraph(plan), stack.redact) // 'digraph "app/dev plan" {\n  rankdir=LR; …'
 */
export function renderDot(g: Graph, redact: Redact): string {
  const lines = [
    `digraph ${q(redact(g.title))} {`,
    `  rankdir=LR; ranksep=0.6; nodesep=0.25;${g.nodes.length > LARGE ? ` ${QUICK_LAYOUT}` : ""}`,
    `  graph [fontname="Helvetica,Arial,sans-serif", fontsize=12];`,
    `  node [fontname="Helvetica,Arial,sans-serif", fontsize=11, margin="0.2,0.06"];`,
    `  edge [fontname="Helvetica,Arial,sans-serif", fontsize=9, arrowsize=0.7];`,
  ];
  const byCluster = new Map<string | undefined, string[]>();
  g.nodes.forEach((n, i) => {
    const list = byCluster.get(n.cluster) ?? [];
    list.push(nodeLine(n, i, redact));
    byCluster.set(n.cluster, list);
  });
  lines.push(...(byCluster.get(undefined) ?? []).map((l) => `  ${l}`));
  g.clusters.forEach((c, i) => {
    lines.push(`  subgraph ${q(`cluster_${i}`)} {`, `    id=${q(`c${i}`)}; class="component"; label=${q(redact(`${c.name} (${c.type})`))}; style="rounded,dashed"; color="#64748b";`);
    lines.push(...(byCluster.get(c.urn) ?? []).map((l) => `    ${l}`), "  }");
  });
  for (const e of g.edges) lines.push(`  ${q(redact(e.from))} -> ${q(redact(e.to))} [class=${q(`edge-${e.kind}`)}, ${EDGES[e.kind]}];`);
  lines.push("}");
  return lines.join("\n");
}
