// The change rows: `tsx infra.ts up --yes` on a stack of N recorded resources whose program changes a
// percentage of them (BENCH_CHANGE_PCT), against a fresh `up` of the same N. The goal: a change costs no
// more than a fresh `up`, and its cost grows with the changed resources, not with the stack.
import { cp, rm } from "node:fs/promises";
import { measure } from "../lib/measure.js";
import { createProject, type Project } from "../lib/project.js";
import { summarize, type Summary } from "../lib/stats.js";
import type { BenchConfig } from "../lib/config.js";

/** Percentages of the stack each change row changes. */
export const CHANGE_PCTS = [0.1, 1, 10] as const;

/** One change row: the percentage changed, how many resources that is, wall clock and peak RSS. */
export interface ChangeRow {
  pct: number;
  changedResources: number;
  wallMs: Summary;
  peakRssMb: Summary;
}

/** The change rows of one stack size, with the fresh `up` they are compared to. */
export interface ChangeRows {
  n: number;
  command: string;
  freshUp: { wallMs: Summary; peakRssMb: Summary };
  changes: ChangeRow[];
  /** The 1% change is to cost no more than the fresh `up` (time and memory). */
  target: { onePctWallMsAtMost: number; onePctPeakRssMbAtMost: number };
}

/**
 * Applies N resources once, keeps that state, then for every run and percentage restores it and measures
 * the changed program's `up` (a fresh `up` is measured in the same runs, so both see the same machine).
 * @example const rows = await changeRows(readConfig([], process.env));
 */
export async function changeRows(config: BenchConfig): Promise<ChangeRows> {
  const n = config.changeN;
  const project = await createProject();
  const base = `${project.stateDir}.base`;
  const fresh: Sample[] = [];
  const byPct = new Map<number, Sample[]>(CHANGE_PCTS.map((p) => [p, []]));
  try {
    for (let run = 1; run <= config.runs; run++) {
      await project.resetState();
      fresh.push(await up(project, n, 0, `run ${run}/${config.runs}: fresh up ${n}`));
      if (run === 1) await cp(project.stateDir, base, { recursive: true });
      for (const pct of CHANGE_PCTS) {
        await project.resetState();
        await cp(base, project.stateDir, { recursive: true });
        byPct.get(pct)!.push(await up(project, n, pct, `run ${run}/${config.runs}: ${pct}% change of ${n}`));
      }
    }
  } finally {
    await rm(base, { recursive: true, force: true });
    await project.remove();
  }
  const freshUp = summarizeSamples(fresh);
  return {
    n,
    command: "BENCH_CHANGE_PCT=p tsx infra.ts up --yes on the state a fresh up of N left",
    freshUp,
    changes: CHANGE_PCTS.map((pct) => ({ pct, changedResources: changedResources(n, pct), ...summarizeSamples(byPct.get(pct)!) })),
    target: { onePctWallMsAtMost: freshUp.wallMs.median, onePctPeakRssMbAtMost: freshUp.peakRssMb.median },
  };
}

/**
 * Resources a `pct` change of infra.ts touches: every k-th certificate is replaced and its record updated.
 * @example changedResources(100_000, 1); // 1000
 */
export function changedResources(n: number, pct: number): number {
  const every = Math.max(1, Math.round(100 / pct));
  return 2 * Math.ceil(n / 2 / every);
}

interface Sample { wallMs: number; rssMb: number }

async function up(project: Project, n: number, pct: number, label: string): Promise<Sample> {
  const env = { ...project.env(n), ...(pct > 0 ? { BENCH_CHANGE_PCT: String(pct) } : {}) };
  const m = await measure({ command: project.tsx, args: ["infra.ts", "up", "--yes"], cwd: project.dir, env, probeRss: true });
  const sample = { wallMs: m.wallMs, rssMb: m.peakRssKb / 1024 };
  process.stderr.write(`  change ${label}: ${Math.round(sample.wallMs)} ms, ${Math.round(sample.rssMb)} MB\n`);
  return sample;
}

function summarizeSamples(s: Sample[]): { wallMs: Summary; peakRssMb: Summary } {
  return { wallMs: summarize(s.map((x) => x.wallMs)), peakRssMb: summarize(s.map((x) => x.rssMb)) };
}
