// Whole-process rows, as a user runs them: `tsx infra.ts up --yes` (and `preview`) in a throw-away
// project on the built package, file state, zero-latency in-process provider. Wall clock from outside,
// peak RSS of the program's node process.
import { measure } from "../lib/measure.js";
import { createProject, type Project } from "../lib/project.js";
import { summarize, type Summary } from "../lib/stats.js";
import type { BenchConfig } from "../lib/config.js";

/** One whole-process row: resources, wall clock (ms), peak RSS (MB) and the target. */
export interface CliRow {
  n: number;
  wallMs: Summary;
  peakRssMb: Summary;
  target: { wallMs: number; peakRssMb?: number } | null;
}

/** Cost per 1,000 extra resources between two consecutive sizes (medians), to show linearity. */
export interface Slope {
  from: number;
  to: number;
  msPer1k: number;
  mbPer1k: number;
}

/** The whole-process rows. */
export interface CliRows {
  command: string;
  emptyProgram: CliRow;
  up: CliRow[];
  slopes: Slope[];
  noopPreview: CliRow;
  /** The same program through Cairn's own bin (`npx cairn infra.ts …`), which loads tsx in-process. */
  viaBin: { command: string; emptyProgram: CliRow; up: CliRow; noopPreview: CliRow };
}

const UP_TARGETS: Record<number, CliRow["target"]> = {
  10_000: { wallMs: 1_500, peakRssMb: 200 },
  100_000: { wallMs: 12_000, peakRssMb: 1_536 },
};
const PREVIEW_TARGETS: Record<number, CliRow["target"]> = { 10_000: { wallMs: 500 } };

interface Sample { wallMs: number; rssMb: number }

/**
 * Runs every size `config.runs` times (sizes interleaved, so slow moments of a shared machine spread
 * over all rows), after one unmeasured warm-up that fills tsx's compile cache as a user's second run would.
 * @example const rows = await cliRows(readConfig([], process.env));
 */
export async function cliRows(config: BenchConfig): Promise<CliRows> {
  const project = await createProject();
  const samples = new Map<string, Sample[]>();
  const add = (key: string, s: Sample) => samples.set(key, [...(samples.get(key) ?? []), s]);
  try {
    await tsx(project, 0, ["up", "--yes"], "warm-up (not measured)");
    for (let run = 1; run <= config.runs; run++) {
      for (const n of [0, ...config.sizes]) {
        await project.resetState();
        add(`up ${n}`, await tsx(project, n, ["up", "--yes"], `run ${run}/${config.runs}: up ${n}`));
        if (n === config.previewN) add("preview", await tsx(project, n, ["preview", "--expect-no-changes"], `run ${run}/${config.runs}: no-op preview ${n}`));
      }
      for (const n of [0, config.previewN]) {
        await project.resetState();
        add(`bin up ${n}`, await bin(project, n, ["up", "--yes"], `run ${run}/${config.runs}: bin up ${n}`));
      }
      add("bin preview", await bin(project, config.previewN, ["preview", "--expect-no-changes"], `run ${run}/${config.runs}: bin no-op preview ${config.previewN}`));
    }
  } finally {
    await project.remove();
  }
  const row = (n: number, key: string, target: CliRow["target"]): CliRow => ({ n, ...summarizeSamples(samples.get(key)!), target });
  const up = config.sizes.map((n) => row(n, `up ${n}`, UP_TARGETS[n] ?? null));
  const emptyProgram = row(0, "up 0", null);
  return {
    command: "tsx infra.ts up --yes (node_modules/.bin/tsx, as npx runs it)",
    emptyProgram,
    up,
    slopes: slopes([emptyProgram, ...up]),
    noopPreview: row(config.previewN, "preview", PREVIEW_TARGETS[config.previewN] ?? null),
    viaBin: {
      command: "node node_modules/cairn-iac/dist/cli/bin.js infra.ts up --yes (the cairn bin, as npx cairn runs it)",
      emptyProgram: row(0, "bin up 0", null),
      up: row(config.previewN, `bin up ${config.previewN}`, UP_TARGETS[config.previewN] ?? null),
      noopPreview: row(config.previewN, "bin preview", PREVIEW_TARGETS[config.previewN] ?? null),
    },
  };
}

function tsx(project: Project, n: number, args: string[], label: string): Promise<Sample> {
  return run(project, n, project.tsx, ["infra.ts", ...args], label);
}

function bin(project: Project, n: number, args: string[], label: string): Promise<Sample> {
  return run(project, n, process.execPath, [project.bin, "infra.ts", ...args], label);
}

async function run(project: Project, n: number, command: string, args: string[], label: string): Promise<Sample> {
  const m = await measure({ command, args, cwd: project.dir, env: project.env(n), probeRss: true });
  const sample = { wallMs: m.wallMs, rssMb: m.peakRssKb / 1024 };
  process.stderr.write(`  cli ${label}: ${Math.round(sample.wallMs)} ms, ${Math.round(sample.rssMb)} MB\n`);
  return sample;
}

function summarizeSamples(s: Sample[]): Pick<CliRow, "wallMs" | "peakRssMb"> {
  return { wallMs: summarize(s.map((x) => x.wallMs)), peakRssMb: summarize(s.map((x) => x.rssMb)) };
}

function slopes(rows: CliRow[]): Slope[] {
  return rows.slice(1).map((to, i) => {
    const from = rows[i]!;
    const per1k = (to.n - from.n) / 1_000;
    return {
      from: from.n,
      to: to.n,
      msPer1k: Math.round((to.wallMs.median - from.wallMs.median) / per1k),
      mbPer1k: Number(((to.peakRssMb.median - from.peakRssMb.median) / per1k).toFixed(1)),
    };
  });
}
