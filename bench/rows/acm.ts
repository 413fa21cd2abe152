// The AWS-calls row: bench/acm.bench.ts (the 50-certificate flow against aws-sdk-client-mock) run once in
// its own process. Its figures are counts, so one run is enough.
import { join } from "node:path";
import { REPO } from "../lib/config.js";
import { measure } from "../lib/measure.js";

/** Calls of one command of the flow, by command, with the floor they are compared to and the calls retried. */
export interface FlowCalls {
  calls: number;
  floor: number;
  /** Provider calls the engine tried again after a transient failure (`step-retrying` events). */
  retries: number;
  byCommand: Record<string, number>;
}

/** What acm.bench.ts prints, plus the limit (1.2 × the 113-call floor it measured for up). */
export interface AcmRow {
  certificates: number;
  parallel: number;
  up: FlowCalls & { changesPerRequest: number[] };
  destroy: FlowCalls;
  target: { upCallsAtMost: number; destroyCallsAtMost: number };
}

/**
 * Runs the flow once and reads its counts.
 * @example const row = await acmRow(); row.up.calls // 103
 */
export async function acmRow(): Promise<AcmRow> {
  const tsx = join(REPO, "node_modules", ".bin", "tsx");
  const m = await measure({ command: tsx, args: [join("bench", "acm.bench.ts")], cwd: REPO, keepStdout: true });
  const figures = JSON.parse(m.stdout) as Omit<AcmRow, "target">;
  process.stderr.write(`  acm: up ${figures.up.calls} calls (floor ${figures.up.floor}, ${figures.up.retries} retries), destroy ${figures.destroy.calls} (floor ${figures.destroy.floor}, ${figures.destroy.retries} retries)\n`);
  return { ...figures, target: { upCallsAtMost: 136, destroyCallsAtMost: Math.ceil(1.2 * figures.destroy.floor) } };
}
