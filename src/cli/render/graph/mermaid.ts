import type { Graph, GraphEdge } from "../../../plan/picture/model.js";
import type { Look } from "../../../plan/picture/model.js";
import { LOOKS, lookNames } from "./looks.js";
import { labelLines, type Redact } from "./label.js";

/** Mermaid label text: quotes and angle brackets as its entity codes, lines as `<br/>`. */
function text(lines: readonly string[]): string {
  return lines.map((l) => l.replace(/#/g, "#35;").replace(/"/g, "#quot;").replace(/</g, "#lt;").replace(/>/g, "#gt;")).join("<br/>");
}

/** Each kind of edge's arrow: a gate thick, a poll and a deferral dotted with a word. */
const ARROWS: Readonly<Record<GraphEdge["kind"], string>> = {
  dependency: "-->",
  gate: "==>|gate|",
  polls: "-.->|polls|",
  defers: "-.->|defers|",
};

/** Mermaid's class name of a look (`replace-create-first` → `replace_create_first`). */
const cls = (look: Look) => look.replace(/-/g, "_");

/**
 * The graph as a Mermaid flowchart (GitHub draws it in Markdown): components as subgraphs, nodes shaped and
 * coloured by their look (a class each), edges by kind. Names pass through `redact`.
 *
 * @example renderMermaid(planGraph(plan), stack.redact) // "flowchart LR\n  n0[\"db<br/>aws:rds:DBInstance…\"]…"
 */
export function renderMermaid(g: Graph, redact: Redact): string {
  const ids = new Map(g.nodes.map((n, i) => [n.id, `n${i}`]));
  const node = (i: number) => {
    const n = g.nodes[i]!;
    const [open, close] = LOOKS[n.look].mermaid;
    return `n${i}${open}"${text(labelLines(n, redact))}"${close}`;
  };
  const lines = ["flowchart LR"];
  g.nodes.forEach((n, i) => !n.cluster && lines.push(`  ${node(i)}`));
  g.clusters.forEach((c, ci) => {
    lines.push(`  subgraph c${ci}["${text([redact(`${c.name} (${c.type})`)])}"]`);
    g.nodes.forEach((n, i) => n.cluster === c.urn && lines.push(`    ${node(i)}`));
    lines.push("  end");
  });
  for (const e of g.edges) lines.push(`  ${ids.get(e.from)} ${ARROWS[e.kind]} ${ids.get(e.to)}`);
  for (const look of lookNames()) {
    const members = g.nodes.flatMap((n, i) => (n.look === look ? [`n${i}`] : []));
    if (!members.length) continue;
    const p = LOOKS[look].light;
    lines.push(`  classDef ${cls(look)} fill:${p.fill},stroke:${p.stroke},color:${p.text}`, `  class ${members.join(",")} ${cls(look)}`);
  }
  return lines.join("\n");
}
