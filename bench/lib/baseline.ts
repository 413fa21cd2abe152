// The committed baseline (bench/baseline.json) and the check that fails a run whose figures regressed.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { REPO } from "./config.js";
import type { BenchReport } from "./report.js";

/** Where the baseline lives. */
export const BASELINE_FILE = join(REPO, "bench", "baseline.json");

/** A figure may grow this much over its baseline before the run fails. */
export const TOLERANCE = 0.25;

/** The figures of one or more runs, and where they were measured. */
export interface Baseline {
  recordedAt: string;
  commit: string;
  machine: { nproc: number; node: string; platform: string };
  /** Figure path → value; every figure is one where lower is better (time, memory, bytes, calls). */
  figures: Record<string, number>;
}

/** One figure that grew past {@link TOLERANCE}. */
export interface Regression {
  figure: string;
  baseline: number;
  now: number;
}

const GROUPS = ["cli", "runtimes", "import", "engine", "waits", "cloudcontrol", "change", "acm", "latency", "graph"] as const;

/** A leaf named like this is a cost (lower is better); targets and floors are limits, not measurements. */
const COST = /(Ms|ms|Mb|Bytes|OverFinal|^calls$|callsPerResource|pollRounds|listCallsPerRound)$/;
const LIMIT = /^(target|floor|slopes)$/;

/** What names an element of a list of rows (so a figure keeps its name when rows are added or reordered). */
function keyOf(row: Record<string, unknown>, i: number): string {
  const parts = ["runtime", "entry", "n", "pct"].filter((k) => row[k] !== undefined).map((k) => `${k}=${String(row[k])}`);
  return parts.length ? parts.join(",") : String(i);
}

function isSummary(v: unknown): v is { median: number } {
  return typeof v === "object" && v !== null && typeof (v as { median?: unknown }).median === "number" && Array.isArray((v as { runs?: unknown }).runs);
}

function walk(v: unknown, path: string[], out: Record<string, number>, inCalls: boolean): void {
  const name = path.at(-1) ?? "";
  if (LIMIT.test(name)) return;
  if (isSummary(v)) {
    if (COST.test(name)) out[path.join(".")] = v.median;
    return;
  }
  if (typeof v === "number") {
    if (inCalls || COST.test(name)) out[path.join(".")] = v;
    return;
  }
  if (Array.isArray(v)) {
    v.forEach((x, i) => typeof x === "object" && x !== null && walk(x, [...path, keyOf(x as Record<string, unknown>, i)], out, false));
    return;
  }
  if (typeof v !== "object" || v === null) return;
  for (const [k, x] of Object.entries(v)) walk(x, [...path, k], out, name === "calls" || name === "byCommand");
}

/**
 * The cost figures of a report, by path: medians of timed runs, memory, bytes and provider calls.
 * @example figuresOf(report)["engine.n=10000.applyWallMs"] // 1234; figuresOf(report)["change.n=100000.changes.pct=1.wallMs"] // 3030
 */
export function figuresOf(report: BenchReport): Record<string, number> {
  const out: Record<string, number> = {};
  // The change rows are named by the size of their stack, as the other groups' rows are: a run at 100,000
  // is not compared with a baseline at 10,000.
  for (const g of GROUPS) if (report[g] !== undefined) walk(report[g], g === "change" && report.change ? [g, `n=${report.change.n}`] : [g], out, false);
  return out;
}

/**
 * The figures measured in both that grew by more than {@link TOLERANCE} (and by more than noise: 10 ms,
 * 2 MB; a call count by any amount over the tolerance).
 *
 * @example regressions({ "acm.up.calls": 103 }, { "acm.up.calls": 140 }) // [{ figure: "acm.up.calls", baseline: 103, now: 140 }]
 */
export function regressions(baseline: Record<string, number>, now: Record<string, number>): Regression[] {
  const slack = (figure: string) => (/Ms$|ms$/.test(figure) ? 10 : /Mb$/.test(figure) ? 2 : 0);
  return Object.entries(now).flatMap(([figure, value]) => {
    const base = baseline[figure];
    if (base === undefined || base <= 0) return [];
    return value > base * (1 + TOLERANCE) && value - base > slack(figure) ? [{ figure, baseline: base, now: value }] : [];
  });
}

/** The committed baseline, or undefined when there is none. */
export async function readBaseline(): Promise<Baseline | undefined> {
  const text = await readFile(BASELINE_FILE, "utf8").catch((e: NodeJS.ErrnoException) => (e.code === "ENOENT" ? undefined : Promise.reject(e)));
  return text === undefined ? undefined : (JSON.parse(text) as Baseline);
}

/**
 * Writes this run's figures as the baseline, keeping the figures of groups this run did not measure.
 * @example await saveBaseline(report); // `npm run bench -- --save-baseline`
 */
export async function saveBaseline(report: BenchReport): Promise<string> {
  const old = await readBaseline();
  const baseline: Baseline = {
    recordedAt: report.date,
    commit: report.git.head,
    machine: { nproc: report.nproc, node: report.node, platform: report.platform },
    figures: Object.fromEntries(Object.entries({ ...old?.figures, ...figuresOf(report) }).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
  };
  await writeFile(BASELINE_FILE, `${JSON.stringify(baseline, null, 2)}\n`);
  return BASELINE_FILE;
}
