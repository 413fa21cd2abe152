// The graph row: bench/graph.bench.ts (pictures and the page of a plan of N creates) run once per size in
// its own process, each figure the median of BENCH_RUNS repetitions inside it.
import { join } from "node:path";
import { REPO, type BenchConfig } from "../lib/config.js";
import { measure } from "../lib/measure.js";

/** Time (median ms) and size (bytes) of one output. */
export interface Drawn {
  ms: number;
  bytes: number;
}

/** One size's figures: the picture's model, DOT, Mermaid, SVG (of a selection past the node limit) and the page. */
export interface GraphRow {
  n: number;
  nodes: number;
  edges: number;
  model: Drawn;
  dot: Drawn;
  mermaid: Drawn;
  svg: Drawn & { nodes: number; selected: boolean };
  html: Drawn;
  peakRssMb: number;
}

/**
 * One row per size of `config.sizes`.
 * @example const rows = await graphRows(readConfig([], process.env));
 */
export async function graphRows(config: BenchConfig): Promise<GraphRow[]> {
  const tsx = join(REPO, "node_modules", ".bin", "tsx");
  const rows: GraphRow[] = [];
  for (const n of config.sizes) {
    const m = await measure({ command: tsx, args: [join("bench", "graph.bench.ts")], cwd: REPO, keepStdout: true, probeRss: true, env: { BENCH_N: String(n), BENCH_RUNS: String(config.runs) }, timeoutMs: 600_000 });
    const row = { ...(JSON.parse(m.stdout) as Omit<GraphRow, "peakRssMb">), peakRssMb: Math.round(m.peakRssKb / 1024) };
    process.stderr.write(`  graph of ${n}: dot ${row.dot.ms} ms, svg ${row.svg.ms} ms (${row.svg.nodes} nodes), page ${row.html.ms} ms, ${row.html.bytes} bytes\n`);
    rows.push(row);
  }
  return rows;
}
