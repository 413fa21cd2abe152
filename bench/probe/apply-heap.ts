// The heap that stays live while an `up` applies: N resources (as bench/programs/infra.ts), and half-way
// through the creates a full GC and a heap reading. What planning left reachable shows here (the issue's
// ~40 MB planning context, kept by the stall detector's listener). Run:
//   BENCH_N=100000 npx tsx --expose-gc bench/probe/apply-heap.ts
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { N, prog, reading } from "./heap-program.js";

const dir = await mkdtemp(join(tmpdir(), "cairn-heap-"));
try {
  const up = await prog.stack({ stateDir: dir }).up();
  if (!up.summary?.ok) throw new Error("apply failed");
  console.log(JSON.stringify({ resources: N, heapMidApplyMb: reading.heapMidApplyMb, peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024) }));
} finally {
  await rm(dir, { recursive: true, force: true });
}
