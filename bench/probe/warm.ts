// How much of an `up` is V8 warming up: the bench program (bench/programs/infra.ts) applied to a fresh stack
// several times in one process through the built package. The first run is what a user's process pays
// (functions not yet optimised); the later ones what the same work costs once V8 has optimised it. A probe,
// not a benchmark: compare its runs with each other.
//   npm run build && BENCH_N=10000 TSX_TSCONFIG_PATH=bench/probe/tsconfig.json npx tsx bench/probe/warm.ts       # PROBE_RUNS=3
//   … node --no-opt --import tsx bench/probe/warm.ts: the same without the optimising compiler
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { builtPackage } from "./built-package.js";

const prog = await builtPackage();
const runs = Number(process.env.PROBE_RUNS ?? 3);
for (let r = 1; r <= runs; r++) {
  const dir = await mkdtemp(join(tmpdir(), "cairn-warm-"));
  try {
    const t0 = performance.now();
    const up = await prog.stack({ stateDir: dir }).up();
    if (!up.summary?.ok) throw new Error("the up failed");
    console.log(`run ${r} of ${runs}: up of ${process.env.BENCH_N ?? 10_000} resources in ${(performance.now() - t0).toFixed(0)} ms`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
