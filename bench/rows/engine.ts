// In-process engine rows: bench/engine.bench.ts (the engine from src/, no CLI, no tsx start-up in the
// figures) in a fresh process per run, so each run's peak RSS is its own. Includes bytes written to state
// over the final state's size.
import { join } from "node:path";
import { REPO, type BenchConfig } from "../lib/config.js";
import { measure } from "../lib/measure.js";
import { summarize, type Summary } from "../lib/stats.js";

/** One engine row (medians and mins over runs). */
export interface EngineRow {
  n: number;
  applyWallMs: Summary;
  noopPlanMs: Summary;
  peakRssMb: Summary;
  stateBytesWritten: Summary;
  finalStateBytes: Summary;
  bytesWrittenOverFinal: Summary;
  target: { bytesWrittenOverFinal: number };
}

/** What engine.bench.ts prints. */
interface EngineFigures {
  applyWallMs: number;
  noopPlanMs: number;
  peakRssMb: number;
  stateBytesWritten: number;
  finalStateBytes: number;
  bytesWrittenOverFinal: number;
}

/**
 * One row per size, each run `config.runs` times.
 * @example const rows = await engineRows(readConfig([], process.env));
 */
export async function engineRows(config: BenchConfig): Promise<EngineRow[]> {
  const rows: EngineRow[] = [];
  for (const n of config.sizes) {
    const runs: EngineFigures[] = [];
    for (let run = 1; run <= config.runs; run++) runs.push(await engineRun(n, `run ${run}/${config.runs}`));
    const s = (key: keyof EngineFigures, digits = 0) => summarize(runs.map((r) => r[key]), digits);
    rows.push({
      n,
      applyWallMs: s("applyWallMs"),
      noopPlanMs: s("noopPlanMs"),
      peakRssMb: s("peakRssMb"),
      stateBytesWritten: s("stateBytesWritten"),
      finalStateBytes: s("finalStateBytes"),
      bytesWrittenOverFinal: s("bytesWrittenOverFinal", 2),
      target: { bytesWrittenOverFinal: 2 },
    });
  }
  return rows;
}

async function engineRun(n: number, label: string): Promise<EngineFigures> {
  const tsx = join(REPO, "node_modules", ".bin", "tsx");
  const m = await measure({ command: tsx, args: [join("bench", "engine.bench.ts")], cwd: REPO, env: { BENCH_N: String(n) }, keepStdout: true });
  const f = JSON.parse(m.stdout) as EngineFigures;
  process.stderr.write(`  engine ${label}: ${n} resources applied in ${f.applyWallMs} ms, ${f.peakRssMb} MB, re-plan ${f.noopPlanMs} ms, ${f.bytesWrittenOverFinal}× state\n`);
  return f;
}
