// `npm run bench:scale`: time and peak memory of a fresh `up` and of a no-op `preview` against the number of
// resources (1k to 300k), each a whole process through the `cairn` bin (`node …/cairn-iac/dist/cli/bin.js
// infra.ts up --yes`) in a throw-away project on the built package, beside an empty program. Prints JSON on
// stdout and a Markdown table on stderr, and draws docs/design/scale.svg (log-log: a straight line of slope
// 1 is linear growth). Knobs: BENCH_SCALE_SIZES (default 1000,3000,10000,30000,100000,300000), BENCH_RUNS
// (default 2; medians), `--no-plot` (leave the SVG alone), `--from FILE` (draw the plot from a JSON report this
// script printed earlier, measuring nothing). The figures behind the committed plot are bench/scale.json:
// `npx tsx bench/scale.ts > bench/scale.json` records a new run (npm run prints a header on stdout).
import { availableParallelism, loadavg } from "node:os";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { REPO } from "./lib/config.js";
import { ensureFreshDist } from "./lib/dist.js";
import { gitInfo } from "./lib/git.js";
import { measure } from "./lib/measure.js";
import { plotSvg, type Series } from "./lib/plot.js";
import { createProject, type Project } from "./lib/project.js";
import { summarize } from "./lib/stats.js";

/** Where the plot goes (referenced from docs/design/scale.md). */
const PLOT = join(REPO, "docs", "design", "scale.svg");

/** One size: medians of wall clock (s) and peak RSS (MB), for a fresh `up` and a no-op `preview`. */
export interface ScalePoint {
  n: number;
  up: { wallS: number; peakRssMb: number };
  preview?: { wallS: number; peakRssMb: number };
  /** `up` less the empty program: the engine's own cost (s), and memory per resource (KB). */
  upOwnS?: number;
  upKbPerResource?: number;
}

interface Sample { wallS: number; rssMb: number }

function sizes(env: NodeJS.ProcessEnv): number[] {
  const text = env.BENCH_SCALE_SIZES ?? "1000,3000,10000,30000,100000,300000";
  const out = text.split(",").map((s) => Number(s.trim().replace(/_/g, "")));
  if (out.some((n) => !Number.isInteger(n) || n < 1)) throw new Error(`BENCH_SCALE_SIZES=${text}: give resource counts such as 1000,10000.`);
  return [...new Set(out)].sort((a, b) => a - b);
}

async function once(project: Project, n: number, args: string[]): Promise<Sample> {
  const m = await measure({ command: process.execPath, args: [project.bin, "infra.ts", ...args], cwd: project.dir, env: project.env(n), probeRss: true, timeoutMs: 30 * 60_000 });
  const s = { wallS: m.wallMs / 1000, rssMb: m.peakRssKb / 1024 };
  process.stderr.write(`  ${args[0]} ${n}: ${s.wallS.toFixed(2)} s, ${Math.round(s.rssMb)} MB\n`);
  return s;
}

/** Every size `runs` times, sizes interleaved so a slow moment of a shared machine spreads over all of them. */
async function measureAll(ns: number[], runs: number): Promise<Map<string, Sample[]>> {
  const project = await createProject();
  const samples = new Map<string, Sample[]>();
  const add = (key: string, s: Sample) => samples.set(key, [...(samples.get(key) ?? []), s]);
  try {
    await once(project, 0, ["up", "--yes"]); // warm-up: not counted
    for (let run = 1; run <= runs; run++) {
      process.stderr.write(`run ${run}/${runs}\n`);
      for (const n of [0, ...ns]) {
        await project.resetState();
        add(`up ${n}`, await once(project, n, ["up", "--yes"]));
        if (n > 0) add(`preview ${n}`, await once(project, n, ["preview", "--expect-no-changes"]));
      }
    }
  } finally {
    await project.remove();
  }
  return samples;
}

function median(samples: Sample[] | undefined): { wallS: number; peakRssMb: number } | undefined {
  if (!samples) return undefined;
  return { wallS: summarize(samples.map((s) => s.wallS), 3).median, peakRssMb: summarize(samples.map((s) => s.rssMb)).median };
}

function points(ns: number[], samples: Map<string, Sample[]>): { empty: ScalePoint["up"]; rows: ScalePoint[] } {
  const empty = median(samples.get("up 0"))!;
  const rows = ns.map((n): ScalePoint => {
    const up = median(samples.get(`up ${n}`))!;
    const preview = median(samples.get(`preview ${n}`));
    return {
      n,
      up,
      ...(preview ? { preview } : {}),
      upOwnS: Number((up.wallS - empty.wallS).toFixed(3)),
      upKbPerResource: Number((((up.peakRssMb - empty.peakRssMb) * 1024) / n).toFixed(2)),
    };
  });
  return { empty, rows };
}

function table(empty: ScalePoint["up"], rows: ScalePoint[]): string {
  const lines = ["| resources | `up` | own cost (− empty) | peak RSS | KB/resource | no-op `preview` | its peak RSS |", "|---|---|---|---|---|---|---|"];
  lines.push(`| empty | ${empty.wallS.toFixed(2)} s | — | ${empty.peakRssMb} MB | — | — | — |`);
  for (const r of rows) {
    lines.push(`| ${r.n.toLocaleString("en")} | ${r.up.wallS.toFixed(2)} s | ${r.upOwnS!.toFixed(2)} s | ${r.up.peakRssMb} MB | ${r.upKbPerResource} | ${r.preview ? `${r.preview.wallS.toFixed(2)} s` : "—"} | ${r.preview ? `${r.preview.peakRssMb} MB` : "—"} |`);
  }
  return lines.join("\n");
}

function plot(rows: ScalePoint[], text: string): string {
  const line = (name: string, color: string, pick: (r: ScalePoint) => number | undefined): Series => ({
    name,
    color,
    points: rows.flatMap((r) => (pick(r) === undefined ? [] : [{ x: r.n, y: pick(r)! }])),
  });
  return plotSvg(
    [
      { title: "Wall time, whole process", unit: "seconds", series: [line("fresh up", "#c0392b", (r) => r.up.wallS), line("no-op preview", "#2471a3", (r) => r.preview?.wallS), line("up − empty program", "#7d3c98", (r) => r.upOwnS)] },
      { title: "Peak memory (RSS)", unit: "MB", series: [line("fresh up", "#c0392b", (r) => r.up.peakRssMb), line("no-op preview", "#2471a3", (r) => r.preview?.peakRssMb)] },
    ],
    text,
  );
}

/** What this script prints on stdout (and `--from` reads back). */
interface ScaleReport {
  date: string;
  nproc: number;
  loadAverage: number;
  node: string;
  git: ReturnType<typeof gitInfo>;
  runs: number;
  empty: ScalePoint["up"];
  rows: ScalePoint[];
}

function caption(r: ScaleReport): string {
  return `cairn bin, Node ${r.node}, ${r.nproc} cores (load ${r.loadAverage}), median of ${r.runs}; commit ${r.git.srcCommit}${r.git.srcDirty ? " + changes" : ""}; ${r.date.slice(0, 10)}`;
}

async function main(): Promise<void> {
  const from = process.argv.indexOf("--from");
  if (from > 0) {
    const report = JSON.parse(await readFile(process.argv[from + 1]!, "utf8")) as ScaleReport;
    await writeFile(PLOT, plot(report.rows, caption(report)));
    return void process.stderr.write(`${table(report.empty, report.rows)}\nWrote ${PLOT}.\n`);
  }
  const ns = sizes(process.env);
  const runs = Number(process.env.BENCH_RUNS ?? 2);
  await ensureFreshDist();
  process.stderr.write(`scale: sizes ${ns.join(", ")}; ${runs} runs each; cairn bin, file state\n`);
  const { empty, rows } = points(ns, await measureAll(ns, runs));
  const git = gitInfo();
  // The load average when the runs ended: other work sharing the cores inflates every wall time.
  const loadAverage = Number(loadavg()[0]!.toFixed(2));
  const report: ScaleReport = { date: new Date().toISOString(), nproc: availableParallelism(), loadAverage, node: process.version, git, runs, empty, rows };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  process.stderr.write(`\n${table(empty, rows)}\n`);
  if (process.argv.includes("--no-plot")) return;
  await writeFile(PLOT, plot(rows, caption(report)));
  process.stderr.write(`Wrote ${PLOT}.\n`);
}

await main().catch((e: unknown) => {
  process.stderr.write(`bench:scale failed: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
});
