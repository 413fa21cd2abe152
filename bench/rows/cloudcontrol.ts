// The Cloud Control row: bench/cloudcontrol.bench.ts (N queues through the real SDK against the fake Cloud
// Control) run once in its own process.
import { join } from "node:path";
import { REPO } from "../lib/config.js";
import { measure } from "../lib/measure.js";

/** What cloudcontrol.bench.ts prints; `retries`: provider calls the engine tried again after a transient failure. */
export interface CloudControlRow {
  resources: number;
  parallel: number;
  up: { ms: number; calls: Record<string, number>; callsPerResource: number; retries: number; pollRounds: number; listCallsPerRound: number };
  destroy: { ms: number; calls: Record<string, number>; callsPerResource: number; retries: number };
  floor: string;
}

/**
 * Runs the Cloud Control bench once (its figures are call counts, and wall times against a local fake).
 * @example const row = await cloudControlRow();
 */
export async function cloudControlRow(): Promise<CloudControlRow> {
  const tsx = join(REPO, "node_modules", ".bin", "tsx");
  const m = await measure({ command: tsx, args: [join("bench", "cloudcontrol.bench.ts")], cwd: REPO, env: {}, keepStdout: true });
  const { bench: _, ...row } = JSON.parse(m.stdout.trim().split("\n").at(-1)!) as CloudControlRow & { bench: string };
  process.stderr.write(`  cloudcontrol: ${row.resources} resources, ${row.up.callsPerResource} calls per resource on up (${row.up.listCallsPerRound} ListResourceRequests per round), ${row.up.retries} + ${row.destroy.retries} retries, up ${row.up.ms} ms, destroy ${row.destroy.ms} ms\n`);
  return row;
}
