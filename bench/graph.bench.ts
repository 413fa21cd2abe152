// The graph row's work, in its own process (run by rows/graph.ts): for a plan of BENCH_N creates (in
// components of 50, a wait every 100 resources gating the next ones), the time and size of its picture as
// DOT, Mermaid and SVG, and of its page (preview --html). SVG is laid out only up to the node limit: past
// it, the row draws what `graph --target <one> --depth 2` keeps, as a user must. Prints one JSON object.
import { performance } from "node:perf_hooks";
import type { Urn } from "../src/core/urn.js";
import type { Plan, PlanStep } from "../src/plan/plan.js";
import { planGraph } from "../src/plan/picture/from-plan.js";
import { selectGraph } from "../src/plan/picture/select.js";
import { graphText } from "../src/cli/graph-files.js";
import { SVG_NODE_LIMIT } from "../src/cli/render/graph/svg.js";
import { planPage } from "../src/cli/render/html/page.js";

const n = Number(process.env.BENCH_N ?? "1000");
const runs = Number(process.env.BENCH_RUNS ?? "3");
const same = (t: string) => t;
const urn = (type: string, name: string) => `urn:cairn:bench::graph::${type}::${name}` as Urn;
const part = (i: number) => urn("bench:Site", `site-${Math.floor(i / 50)}`);
const thing = (i: number) => urn("bench:Site$bench:Thing", `r${i}`);

/** A create of resource `i`: it reads two earlier ones (a shallow tree, as stacks are), or the wait of its hundred. */
function create(i: number): PlanStep {
  const deps = i % 100 === 1 && i > 100 ? [urn("cairn:wait", `ready-${Math.floor(i / 100)}`)] : i ? [...new Set([thing((i * 7919 + 13) % i), thing(Math.floor(i / 3))])] : [];
  return { kind: "create", urn: thing(i), type: "bench:Thing", deps, news: { name: `r${i}`, size: i }, secretKeys: [], meta: { deps, protect: false, retainOnDelete: false, parent: part(i) } } as PlanStep;
}

/** The wait after resource `i`. */
function waitAfter(i: number): PlanStep {
  const target = thing(i);
  return {
    kind: "wait", urn: urn("cairn:wait", `ready-${i / 100}`), type: "cairn:wait", deps: [target], name: `ready-${i / 100}`, named: true, target, subject: `r${i}`,
    until: { op: "eq", path: ["status"], value: "ready" }, untilText: `r${i}.status == "ready"`, timeoutMs: 600_000, intervalMs: 5_000, defaultTimeout: true, needed: true, why: "runs because its target is created", readyNow: null,
  } as unknown as PlanStep;
}

const steps: PlanStep[] = [];
for (let i = 0; i < n; i++) {
  steps.push(create(i));
  if (i % 100 === 0 && i) steps.push(waitAfter(i));
}
const plan: Plan = { version: 1, project: "graph", stack: "bench", baseSerial: 0, fingerprint: "", mode: "update", refresh: [], drift: [], steps, outputs: {}, secretOutputs: [], outputsChanged: false, diagnostics: [] };

/** The median ms of `runs` runs of `f`, and the size of what it made. */
async function timed(f: () => Promise<string> | string): Promise<{ ms: number; bytes: number }> {
  const ms: number[] = [];
  let out = "";
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    out = await f();
    ms.push(performance.now() - t0);
  }
  return { ms: Math.round(ms.sort((a, b) => a - b)[Math.floor(ms.length / 2)]!), bytes: Buffer.byteLength(out) };
}

const whole = planGraph(plan);
const drawn = whole.nodes.length <= SVG_NODE_LIMIT ? whole : selectGraph(whole, { targets: [`r${Math.floor(n / 2)}`], depth: 2 });
const figures = {
  n,
  nodes: whole.nodes.length,
  edges: whole.edges.length,
  model: await timed(() => JSON.stringify(planGraph(plan).nodes.length)),
  dot: await timed(() => graphText(planGraph(plan), "dot", same)),
  mermaid: await timed(() => graphText(planGraph(plan), "mermaid", same)),
  svg: { nodes: drawn.nodes.length, selected: drawn !== whole, ...(await timed(() => graphText(drawn, "svg", same))) },
  html: await timed(async () => planPage(plan, drawn === whole ? { svg: await graphText(whole, "svg", same), hidden: 0 } : { note: "too many nodes" }, same)),
};
process.stdout.write(`${JSON.stringify(figures)}\n`);
