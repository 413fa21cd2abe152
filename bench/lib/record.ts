// bench/RESULTS.md: one dated section per recorded run, a table of the issue-16 rows with their targets.
import { appendFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { REPO } from "./config.js";
import type { BenchReport } from "./report.js";
import type { Summary } from "./stats.js";
import type { CliRow, CliRows } from "../rows/cli.js";
import { RUNTIME_TARGETS, type Cell } from "../rows/runtimes.js";

const FILE = join(REPO, "bench", "RESULTS.md");
const HEADER = `# Bench results

Recorded with \`npm run bench -- --record\` (see bench/README.md). Each section is one run on the
machine it names; times are "median (min)" over the runs, RSS is the median peak of the program's node
process in MiB. Whole-process rows run \`tsx infra.ts …\` on the built package in a throw-away project; the
per-runtime table (from 2026-11-25) runs the same program on Node 20, 22 and 24 through each entry point.
`;

/**
 * Appends the report as a markdown section (creating the file with its header) and returns the path.
 * @example await appendResults(report);
 */
export async function appendResults(report: BenchReport): Promise<string> {
  const exists = await readFile(FILE, "utf8").then(() => true, () => false);
  if (!exists) await writeFile(FILE, HEADER);
  await appendFile(FILE, `\n${section(report).join("\n")}\n`);
  return FILE;
}

/**
 * The markdown lines for one run.
 * @example section(report).join("\n");
 */
export function section(r: BenchReport): string[] {
  const src = `src ${r.git.srcCommit}${r.git.srcDirty ? " + uncommitted changes" : ""}`;
  const rows = [...cliLines(r), ...importLines(r), ...engineLines(r), ...waitsLines(r), ...changeLines(r), ...acmLines(r), ...latencyLines(r), ...graphLines(r)];
  return [
    `## ${r.date.slice(0, 10)} · ${src} (HEAD ${r.git.head}) · nproc ${r.nproc} (load ${r.loadAverage}) · node ${r.node} · ${r.config.runs} runs`,
    ...(rows.length ? ["", "| work | measured | peak RSS | target |", "|---|---|---|---|", ...rows] : []),
    ...runtimeLines(r),
  ];
}

const count = (n: number) => n.toLocaleString("en-US");
const secs = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`);
const timed = (s: Summary) => `${secs(s.median)} (${secs(s.min)})`;
const limit = (ms: number) => (ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`);

function cliLines(r: BenchReport): string[] {
  if (!r.cli) return [];
  const { emptyProgram, up, slopes, noopPreview } = r.cli;
  const target = (t: { wallMs: number; peakRssMb?: number } | null) =>
    t ? [`≤ ${limit(t.wallMs)}`, ...(t.peakRssMb ? [`≤ ${count(t.peakRssMb)} MB`] : [])].join(", ") : "—";
  return [
    `| \`up\` of an empty program (start-up floor) | ${timed(emptyProgram.wallMs)} | ${count(emptyProgram.peakRssMb.median)} MB | — |`,
    ...up.map((row) => `| \`up\` of ${count(row.n)} new resources | ${timed(row.wallMs)} | ${count(row.peakRssMb.median)} MB | ${target(row.target)} |`),
    `| slope per 1,000 resources | ${slopes.map((s) => `${count(s.from)}→${count(s.to)}: ${s.msPer1k} ms, ${s.mbPer1k} MB`).join("; ")} | | linear |`,
    `| no-op \`preview\` of ${count(noopPreview.n)} recorded resources | ${timed(noopPreview.wallMs)} | ${count(noopPreview.peakRssMb.median)} MB | ${target(noopPreview.target)} |`,
    ...binLines(r.cli.viaBin, target),
  ];
}

/** The rows run through the cairn bin (absent in results recorded before it was measured). */
function binLines(b: CliRows["viaBin"] | undefined, target: (t: CliRow["target"]) => string): string[] {
  if (!b) return [];
  const line = (what: string, row: CliRow) => `| ${what}, through the \`cairn\` bin | ${timed(row.wallMs)} | ${count(row.peakRssMb.median)} MB | ${target(row.target)} |`;
  return [line("`up` of an empty program", b.emptyProgram), line(`\`up\` of ${count(b.up.n)} new resources`, b.up), line(`no-op \`preview\` of ${count(b.noopPreview.n)}`, b.noopPreview)];
}

function importLines(r: BenchReport): string[] {
  if (!r.import) return [];
  const i = r.import;
  const processes = `process ${secs(i.wallMs.median)} vs ${secs(i.baselineWallMs.median)}`;
  return [`| \`import "cairn-iac"\` cold, built dist | ${i.importMs} ms over \`node -e 0\` (${processes}); ${timed(i.inProcessMs)} timed in-process | | ≤ ${limit(i.target.importMs)} |`];
}

function engineLines(r: BenchReport): string[] {
  if (!r.engine) return [];
  const bytes = r.engine.map((e) => `${count(e.n)}: ${e.bytesWrittenOverFinal.median}×`).join("; ");
  return [
    `| bytes written to state ÷ final state (in-process) | ${bytes} | | ≤ ${r.engine[0]?.target.bytesWrittenOverFinal ?? 2}× |`,
    ...r.engine.map((e) => `| engine in-process, ${count(e.n)}: apply / no-op plan | ${timed(e.applyWallMs)} / ${timed(e.noopPlanMs)} | ${count(e.peakRssMb.median)} MB | — |`),
  ];
}

function waitsLines(r: BenchReport): string[] {
  if (!r.waits) return [];
  const w = r.waits;
  const latency = `detection p50 ${w.detectionLatencyMs.p50} ms, max ${w.detectionLatencyMs.max} ms`;
  return [`| ${count(w.waits)} concurrent waits on one type | ${w.callsPerPollRound} provider call(s) per poll round (${w.callsPerPollRoundWithoutBatching} unbatched); ${latency} | | ${w.target.callsPerPollRound} call; ≤ ${limit(w.target.detectionLatencyMs)} |`];
}

function changeLines(r: BenchReport): string[] {
  if (!r.change) return [];
  const c = r.change;
  return [
    `| fresh \`up\` of ${count(c.n)} (what a change is compared to) | ${timed(c.freshUp.wallMs)} | ${count(c.freshUp.peakRssMb.median)} MB | — |`,
    ...c.changes.map((x) => {
      const target = x.pct === 1 ? `≤ ${secs(c.target.onePctWallMsAtMost)}, ≤ ${count(c.target.onePctPeakRssMbAtMost)} MB (the fresh \`up\`)` : "grows with the change";
      return `| \`up\` changing ${x.pct}% of ${count(c.n)} (${count(x.changedResources)} resources) | ${timed(x.wallMs)} | ${count(x.peakRssMb.median)} MB | ${target} |`;
    }),
  ];
}

function acmLines(r: BenchReport): string[] {
  if (!r.acm) return [];
  const a = r.acm;
  const by = (b: Record<string, number>) => Object.entries(b).map(([k, v]) => `${k.split(" ")[1]} ${v}`).join(", ");
  return [
    `| AWS calls, \`up\` of ${a.certificates} certificates + records + waits | ${a.up.calls} (floor ${a.up.floor}): ${by(a.up.byCommand)} | | ≤ ${a.target.upCallsAtMost} |`,
    `| AWS calls, \`destroy\` of the same | ${a.destroy.calls} (floor ${a.destroy.floor}): ${by(a.destroy.byCommand)} | | ≤ ${a.target.destroyCallsAtMost} |`,
  ];
}

function latencyLines(r: BenchReport): string[] {
  if (!r.latency) return [];
  const l = r.latency;
  const calls = Object.entries(l.up.calls).map(([k, v]) => `${k} ${v}`).join(", ");
  return [
    `| \`up\` of ${l.resources} Cloud Control resources in a ${l.levels}-level tree, creates of 2–10 s (clock ×${l.scale}) | ${secs(l.up.ms)}, ${l.overFloor}× the critical-path floor of ${secs(l.floor)}; ${l.up.callsPerResource} calls per resource (${calls}) | | ≤ ${l.target}× the floor |`,
  ];
}

function graphLines(r: BenchReport): string[] {
  const kb = (b: number) => `${count(Math.round(b / 1024))} KB`;
  return (r.graph ?? []).map((g) => {
    const svg = g.svg.selected ? `SVG of --target --depth 2 (${count(g.svg.nodes)} nodes)` : "SVG";
    return `| picture and page of a plan of ${count(g.n)} creates (${count(g.nodes)} nodes) | DOT ${secs(g.dot.ms)}, ${kb(g.dot.bytes)}; Mermaid ${secs(g.mermaid.ms)}, ${kb(g.mermaid.bytes)}; ${svg} ${secs(g.svg.ms)}, ${kb(g.svg.bytes)}; page ${secs(g.html.ms)}, ${kb(g.html.bytes)} | ${count(g.peakRssMb)} MB | — |`;
  });
}

/** The runtimes rows: one column per runtime and entry point, one row per work item (median (min), peak RSS). */
function runtimeLines(r: BenchReport): string[] {
  if (!r.runtimes?.length) return [];
  const columns = r.runtimes;
  const cell = (c: Cell) => `${timed(c.wallMs)}, ${count(c.peakRssMb.median)} MB`;
  const row = (what: string, pick: (col: (typeof columns)[number]) => Cell | undefined) =>
    `| ${what} | ${columns.map((col) => { const c = pick(col); return c ? cell(c) : "—"; }).join(" | ")} |`;
  const sizes = columns[0]!.sizes.map((s) => s.n);
  return [
    "",
    `Per runtime and entry point (whole process, without npx's own start-up; targets for Node 22 \`node infra.ts\`: empty program ≤ ${limit(RUNTIME_TARGETS.emptyProgramMs)}, \`up\` of 10,000 ≤ ${limit(RUNTIME_TARGETS.up10kMs)}):`,
    "",
    `| work | ${columns.map((c) => `${c.version} \`${c.command}\``).join(" | ")} |`,
    `|---|${columns.map(() => "---|").join("")}`,
    row("`up` of an empty program", (c) => c.emptyProgram),
    ...sizes.flatMap((n) => [
      row(`\`up\` of ${count(n)} new resources`, (c) => c.sizes.find((s) => s.n === n)?.up),
      row(`no-op \`preview\` of ${count(n)}`, (c) => c.sizes.find((s) => s.n === n)?.noopPreview),
    ]),
  ];
}
