// npm run bench: the table of issue 16, measured. One JSON document on stdout, progress on stderr;
// `--record` (or BENCH_RECORD=1) also appends the figures to bench/RESULTS.md. Knobs: BENCH_SIZES,
// BENCH_BIG, BENCH_RUNS, BENCH_WAITS, BENCH_ONLY, BENCH_RUNTIMES, BENCH_ENTRIES (see lib/config.ts).
import { availableParallelism, loadavg } from "node:os";
import { readConfig, type Group } from "./lib/config.js";
import { ensureFreshDist } from "./lib/dist.js";
import { gitInfo } from "./lib/git.js";
import { appendResults } from "./lib/record.js";
import { TOLERANCE, figuresOf, readBaseline, regressions, saveBaseline } from "./lib/baseline.js";
import type { BenchReport } from "./lib/report.js";

export type { BenchReport } from "./lib/report.js";
import { cliRows } from "./rows/cli.js";
import { engineRows } from "./rows/engine.js";
import { importRow } from "./rows/import.js";
import { runtimeRows } from "./rows/runtimes.js";
import { waitsRow } from "./rows/waits.js";
import { cloudControlRow } from "./rows/cloudcontrol.js";
import { changeRows } from "./rows/change.js";
import { acmRow } from "./rows/acm.js";
import { latencyRow } from "./rows/latency.js";
import { graphRows } from "./rows/graph.js";


async function main(): Promise<void> {
  const config = readConfig(process.argv.slice(2), process.env);
  const { record, ...shown } = config;
  const report: BenchReport = {
    date: new Date().toISOString(),
    nproc: availableParallelism(),
    loadAverage: Number(loadavg()[0]!.toFixed(2)),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    git: gitInfo(),
    config: shown,
  };
  const runs = (group: Group, what: string) => {
    if (config.groups.includes(group)) process.stderr.write(`${what}…\n`);
    return config.groups.includes(group);
  };
  if (["cli", "runtimes", "import", "change"].some((g) => config.groups.includes(g as Group))) await ensureFreshDist();
  if (runs("cli", `whole-process CLI rows (sizes ${config.sizes.join(", ")}; ${config.runs} runs)`)) report.cli = await cliRows(config);
  if (runs("runtimes", `whole-process rows per runtime (${config.runtimes.join(", ")}) and entry point (${config.entries.join(", ")}); sizes ${config.sizes.join(", ")}; ${config.runs} runs`)) {
    report.runtimes = await runtimeRows(config);
  }
  if (runs("import", `import "cairn-iac" from dist/ (${config.runs} runs)`)) report.import = await importRow(config);
  if (runs("engine", `in-process engine rows (${config.runs} runs)`)) report.engine = await engineRows(config);
  if (runs("waits", `${config.waits} concurrent waits (one run, real clock)`)) report.waits = await waitsRow(config);
  if (runs("cloudcontrol", "1,000 Cloud Control resources against the fake (one run)")) report.cloudcontrol = await cloudControlRow();
  if (runs("change", `changes of ${config.changeN} recorded resources (${config.runs} runs)`)) report.change = await changeRows(config);
  if (runs("acm", "AWS calls of 50 certificates, their validation records and waits (one run, mocked SDK)")) report.acm = await acmRow();
  if (runs("latency", "300 Cloud Control creates of 2–10 s in a three-level tree against the fake (one run, in real time unless BENCH_LATENCY_SCALE compresses it)")) report.latency = await latencyRow();
  if (runs("graph", `pictures and page of plans of ${config.sizes.join(", ")} creates (${config.runs} runs each)`)) report.graph = await graphRows(config);
  process.stdout.write(`${toJson(report)}\n`);
  if (record) process.stderr.write(`Appended this run to ${await appendResults(report)}.\n`);
  if (process.argv.includes("--save-baseline")) process.stderr.write(`Wrote this run's figures to ${await saveBaseline(report)}.\n`);
  else await checkBaseline(report);
}

/** Fails the run (exit 1) when a figure grew more than the tolerance over the committed baseline. */
async function checkBaseline(report: BenchReport): Promise<void> {
  const baseline = await readBaseline();
  if (!baseline) return void process.stderr.write("No bench/baseline.json: nothing to compare with (`npm run bench -- --save-baseline` writes one).\n");
  const now = figuresOf(report);
  const compared = Object.keys(now).filter((f) => baseline.figures[f] !== undefined).length;
  const worse = regressions(baseline.figures, now);
  process.stderr.write(`Compared ${compared} figures with the baseline of ${baseline.commit.slice(0, 9)} (${baseline.machine.nproc} cores, ${baseline.machine.node}).\n`);
  if (worse.length === 0) return;
  for (const r of worse) process.stderr.write(`  regressed: ${r.figure}: ${r.baseline} → ${r.now} (+${Math.round((r.now / r.baseline - 1) * 100)}%)\n`);
  process.stderr.write(`${worse.length} figure(s) grew more than ${TOLERANCE * 100}% over the baseline.\n`);
  process.exitCode = 1;
}

/** Indented JSON with arrays of numbers kept on one line, so every row reads at a glance. */
function toJson(report: BenchReport): string {
  return JSON.stringify(report, null, 2).replace(/\[\s+([-\d.,\s]+?)\s+\]/g, (_, items: string) => `[${items.split(/,\s*/).join(", ")}]`);
}

await main().catch((e: unknown) => {
  process.stderr.write(`bench failed: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
});
