// What an `up` allocates, per resource and by the function that allocates it: the bench program
// (bench/programs/infra.ts) run in-process through the built package under V8's sampling heap profiler,
// counting objects the collector has already freed too (what the garbage collector works through, not only
// what stays live). Bytes are sampled (one sample per ~4 KB), so small figures are estimates.
//   npm run build && BENCH_N=10000 TSX_TSCONFIG_PATH=bench/probe/tsconfig.json npx tsx bench/probe/allocations.ts     # PROBE_TOP=30 functions; PROBE_PROMOTED=1 only what outlived the young generation; PROBE_AT=1 with line:column
import { Session } from "node:inspector/promises";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { builtPackage } from "./built-package.js";

const prog = await builtPackage();

const N = Number(process.env.BENCH_N ?? 10_000);
const TOP = Number(process.env.PROBE_TOP ?? 30);
/**
 * PROBE_PROMOTED=1 leaves out what the young generation's collections freed: what is left is what lived long
 * enough to be promoted to the old generation (kept, or freed only by a full collection), which is what
 * the peak memory is made of.
 */
const PROMOTED = process.env.PROBE_PROMOTED === "1";
/** PROBE_AT=1 keys functions by line and column too (a bundled chunk is one line: the column tells its closures apart). */
const AT = process.env.PROBE_AT === "1";

interface SamplingNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SamplingNode[];
}

const session = new Session();
session.connect();
await session.post("HeapProfiler.enable");
const dir = await mkdtemp(join(tmpdir(), "cairn-alloc-"));
try {
  await session.post("HeapProfiler.startSampling", { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: !PROMOTED } as never);
  const up = await prog.stack({ stateDir: dir }).up();
  const { profile } = (await session.post("HeapProfiler.stopSampling")) as unknown as { profile: { head: SamplingNode } };
  if (!up.summary?.ok) throw new Error("the up failed");
  const self = new Map<string, number>();
  const total = walk(profile.head, self);
  console.log(`up of ${N} resources${PROMOTED ? ", promoted or kept:" : ""} allocated ${(total / 1e6).toFixed(1)} MB: ${Math.round(total / N)} B per resource`);
  for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`${String(Math.round(v / N)).padStart(7)} B  ${k}`);
} finally {
  session.disconnect();
  await rm(dir, { recursive: true, force: true });
}

/** Adds each function's own allocations to `self` (by name and place); returns the subtree's total. */
function walk(n: SamplingNode, self: Map<string, number>): number {
  const f = n.callFrame;
  const at = AT ? `:${f.lineNumber + 1}:${(f as { columnNumber?: number }).columnNumber ?? 0}` : "";
  const key = `${f.functionName || "(anonymous)"} ${f.url.replace(/^.*\/(dist|src)\//, "$1/")}${at}`;
  self.set(key, (self.get(key) ?? 0) + n.selfSize);
  return n.children.reduce((sum, c) => sum + walk(c, self), n.selfSize);
}
