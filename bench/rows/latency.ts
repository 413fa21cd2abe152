// The latency row: bench/latency.bench.ts (300 Cloud Control resources in a three-level tree, creates taking
// 2–10 s on the fake) run once in its own process.
import { join } from "node:path";
import { REPO } from "../lib/config.js";
import { measure } from "../lib/measure.js";

/** What latency.bench.ts prints: wall time (simulated ms) against the critical-path floor, and calls. */
export interface LatencyRow {
  resources: number;
  levels: number;
  /** How many times faster than real time the run's clock and latencies went. */
  scale: number;
  up: { ms: number; realMs: number; calls: Record<string, number>; callsPerResource: number };
  /** The longest root-to-leaf sum of create latencies (ms). */
  floor: number;
  overFloor: number;
  target: number;
}

/**
 * Runs the latency bench once.
 * @example const row = await latencyRow();
 */
export async function latencyRow(): Promise<LatencyRow> {
  const tsx = join(REPO, "node_modules", ".bin", "tsx");
  const m = await measure({ command: tsx, args: [join("bench", "latency.bench.ts")], cwd: REPO, env: {}, keepStdout: true });
  const { bench: _, ...row } = JSON.parse(m.stdout.trim().split("\n").at(-1)!) as LatencyRow & { bench: string };
  process.stderr.write(`  latency: ${row.resources} resources, up ${(row.up.ms / 1000).toFixed(1)} s against a floor of ${(row.floor / 1000).toFixed(1)} s (${row.overFloor}×, goal ≤ ${row.target}×), ${row.up.callsPerResource} calls per resource\n`);
  return row;
}
