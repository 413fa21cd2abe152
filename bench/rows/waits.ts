// The waits row: bench/wait.bench.ts (K concurrent waits on one type, real clock) run once in its own
// process with BENCH_WAITS = config.waits.
import { join } from "node:path";
import { REPO, type BenchConfig } from "../lib/config.js";
import { measure } from "../lib/measure.js";

/** What wait.bench.ts prints, plus the target for calls per poll round. */
export interface WaitsRow {
  waits: number;
  intervalMs: number;
  applyMs: number;
  readsPerWait: number;
  providerCalls: number;
  callsPerPollRound: number;
  callsPerPollRoundWithoutBatching: number;
  detectionLatencyMs: { p50: number; max: number; target: number };
  target: { callsPerPollRound: number; detectionLatencyMs: number };
}

/**
 * Runs the wait bench once (its figures are counts and latencies after a fixed flip, not a race).
 * @example const row = await waitsRow(readConfig([], process.env));
 */
export async function waitsRow(config: BenchConfig): Promise<WaitsRow> {
  const tsx = join(REPO, "node_modules", ".bin", "tsx");
  const m = await measure({ command: tsx, args: [join("bench", "wait.bench.ts")], cwd: REPO, env: { BENCH_WAITS: String(config.waits) }, keepStdout: true });
  const { bench: _, ...figures } = JSON.parse(m.stdout) as Omit<WaitsRow, "target"> & { bench: string };
  process.stderr.write(`  waits: ${figures.waits} waits, ${figures.callsPerPollRound} provider calls per poll round, detection p50 ${figures.detectionLatencyMs.p50} ms / max ${figures.detectionLatencyMs.max} ms\n`);
  return { ...figures, target: { callsPerPollRound: 1, detectionLatencyMs: figures.detectionLatencyMs.target } };
}
