// npm run bench: the table of issue 16, measured. One JSON document on stdout, progress on stderr;
// `--record` (or BENCH_RECORD=1) also appends the figures to bench/RESULTS.md. Knobs: BENCH_SIZES,
// BENCH_BIG, BENCH_RUNS, BENCH_WAITS, BENCH_ONLY, BENCH_RUNTIMES, BENCH_ENTRIES (see lib/config.ts).
import { availableParallelism, loadavg } from "node:os";
import { readConfig, type BenchConfig, type Group } from "./lib/config.js";
import { ensureFreshDist } from "./lib/dist.js";
import { gitInfo, type GitInfo } from "./lib/git.js";
import { appendResults } from "./lib/record.js";
import { cliRows, type CliRows } from "./rows/cli.js";
import { engineRows, type EngineRow } from "./rows/engine.js";
import { importRow, type ImportRow } from "./rows/import.js";
import { runtimeRows, type RuntimeEntryRow } from "./rows/runtimes.js";
import { waitsRow, type WaitsRow } from "./rows/waits.js";
import { cloudControlRow, type CloudControlRow } from "./rows/cloudcontrol.js";
import { changeRows, type ChangeRows } from "./rows/change.js";
import { acmRow, type AcmRow } from "./rows/acm.js";

/** The whole report: where and what was measured, then each row group run (absent when not run). */
export interface BenchReport {
  date: string;
  nproc: number;
  /** One-minute load average when the run started: other work on a shared machine skews every figure. */
  loadAverage: number;
  node: string;
  platform: string;
  git: GitInfo;
  config: Omit<BenchConfig, "record">;
  cli?: CliRows;
  /** The same program on each Node runtime through each entry point (`node`, `npx cairn`, `npx tsx`). */
  runtimes?: RuntimeEntryRow[];
  import?: ImportRow;
  engine?: EngineRow[];
  waits?: WaitsRow;
  cloudcontrol?: CloudControlRow;
  /** A 0.1%, 1% and 10% change of a recorded stack against its fresh `up`. */
  change?: ChangeRows;
  /** AWS calls of the 50-certificate flow (aws-sdk-client-mock) against their floor. */
  acm?: AcmRow;
}

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
  if (runs("import", `import "cairn" from dist/ (${config.runs} runs)`)) report.import = await importRow(config);
  if (runs("engine", `in-process engine rows (${config.runs} runs)`)) report.engine = await engineRows(config);
  if (runs("waits", `${config.waits} concurrent waits (one run, real clock)`)) report.waits = await waitsRow(config);
  if (runs("cloudcontrol", "1,000 Cloud Control resources against the fake (one run)")) report.cloudcontrol = await cloudControlRow();
  if (runs("change", `changes of ${config.changeN} recorded resources (${config.runs} runs)`)) report.change = await changeRows(config);
  if (runs("acm", "AWS calls of 50 certificates, their validation records and waits (one run, mocked SDK)")) report.acm = await acmRow();
  process.stdout.write(`${toJson(report)}\n`);
  if (record) process.stderr.write(`Appended this run to ${await appendResults(report)}.\n`);
}

/** Indented JSON with arrays of numbers kept on one line, so every row reads at a glance. */
function toJson(report: BenchReport): string {
  return JSON.stringify(report, null, 2).replace(/\[\s+([-\d.,\s]+?)\s+\]/g, (_, items: string) => `[${items.split(/,\s*/).join(", ")}]`);
}

await main().catch((e: unknown) => {
  process.stderr.write(`bench failed: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
});
