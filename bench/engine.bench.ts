// The in-process engine rows of `npm run bench` (bench/run.ts runs this file once per size and run; alone:
// `npx tsx bench/engine.bench.ts`): N resources (N/2 "certificates" + N/2 "records", each record taking one
// certificate's output as an input) planned and applied through the engine from src/ with a zero-latency
// in-memory provider and file state. Prints JSON figures; the target is issue 16's (bytes ≤ 2× final state).
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { hasChanges } from "../src/index.js";
import prog from "./programs/infra.js";

// The same program the whole-process rows run (its size from BENCH_N); imported, not run, so program()
// starts no command line: this file is the entry point.
const N = Number(process.env.BENCH_N ?? 10_000);

const dir = await mkdtemp(join(tmpdir(), "cairn-bench-"));
try {
  const stack = prog.stack({ stateDir: dir, parallel: Number(process.env.BENCH_PARALLEL ?? 10) });
  const t0 = performance.now();
  const up = await stack.up();
  const applyMs = performance.now() - t0;
  if (!up.summary?.ok) throw new Error("apply failed");
  const rssAfterApplyMb = process.resourceUsage().maxRSS / 1024;
  const finalStateBytes = (await stat(join(dir, "stacks", "dev", "state.json"))).size;

  const t1 = performance.now();
  const replan = await stack.preview();
  const noopPlanMs = performance.now() - t1;
  if (hasChanges(replan)) throw new Error("the re-plan should have no changes");

  console.log(
    JSON.stringify(
      {
        resources: N,
        parallel: stack.options.parallel,
        applyWallMs: Math.round(applyMs),
        peakRssMb: Math.round(rssAfterApplyMb),
        stateBytesWritten: up.stateBytesWritten,
        finalStateBytes,
        bytesWrittenOverFinal: Number(((up.stateBytesWritten ?? 0) / finalStateBytes).toFixed(2)),
        noopPlanMs: Math.round(noopPlanMs),
        targets: { bytesWrittenOverFinal: 2 },
      },
      null,
      2,
    ),
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}
