// Where an `up` spends its time, phase by phase: the bench program (bench/programs/infra.ts, N/2
// certificates + N/2 records on a zero-latency provider) run in-process through the built package under V8's
// sampling profiler, then each phase's span (first to last sample with its function on the stack) and the
// functions that cost most inside it. A profile, not a benchmark: the profiler slows the run by ~10–20%, so
// compare runs of this probe with each other, and time whole processes for figures.
//   npm run build && BENCH_N=10000 TSX_TSCONFIG_PATH=bench/probe/tsconfig.json npx tsx bench/probe/phases.ts          # PROBE_TOP=15 functions per phase, PROBE_LINES=1 with lines
import { Session } from "node:inspector/promises";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { builtPackage } from "./built-package.js";

const prog = await builtPackage();

/** The phases of an `up`, by the function that runs each one, in the order they run. */
const PHASES = ["evaluateProgram", "buildGraph", "planProgram", "execute", "compact", "snapshotChunks"] as const;
const TOP = Number(process.env.PROBE_TOP ?? 12);
/** PROBE_LINES=1 keys functions by their line too (tells apart the closures a chunk holds). */
const LINES = process.env.PROBE_LINES === "1";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.setSamplingInterval", { interval: 100 });
const dir = await mkdtemp(join(tmpdir(), "cairn-phases-"));
try {
  await session.post("Profiler.start");
  const t0 = performance.now();
  const up = await prog.stack({ stateDir: dir }).up();
  const wall = performance.now() - t0;
  const { profile } = (await session.post("Profiler.stop")) as unknown as { profile: Profile };
  if (!up.summary?.ok) throw new Error("the up failed");
  report(profile, wall);
} finally {
  session.disconnect();
  await rm(dir, { recursive: true, force: true });
}

/** Prints each phase's span and its costliest functions (self time, ms). */
function report(p: Profile, wall: number): void {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const at: number[] = [];
  let t = p.startTime;
  for (const d of p.timeDeltas) at.push((t += d));
  // A phase spans from the first to the last sample with its function on the stack; every sample in that
  // window counts for it (garbage collection, idle time, and the continuations of its async functions, whose
  // stacks no longer show the phase's function).
  const windows = PHASES.map((phase) => {
    let from = Infinity;
    let to = -Infinity;
    p.samples.forEach((id, i) => {
      if (onStack(id, phase, byId, parent)) {
        from = Math.min(from, at[i]!);
        to = Math.max(to, at[i]!);
      }
    });
    return { phase, from, to, self: new Map<string, number>() };
  }).filter((w) => w.from <= w.to);
  p.samples.forEach((id, i) => {
    const w = windows.findLast((x) => x.from <= at[i]! && at[i]! <= x.to);
    if (!w) return;
    const f = byId.get(id)!.callFrame;
    const line = LINES && f.url ? `:${f.lineNumber + 1}` : "";
    const key = `${f.functionName || "(anonymous)"} ${f.url.replace(/^.*\/(dist|src)\//, "$1/")}${line}`;
    w.self.set(key, (w.self.get(key) ?? 0) + (p.timeDeltas[i + 1] ?? 0) / 1000);
  });
  console.log(`up of ${process.env.BENCH_N ?? 10_000} resources: ${wall.toFixed(0)} ms (profiled)`);
  for (const w of windows) {
    console.log(`\n${w.phase}: ${((w.to - w.from) / 1000).toFixed(0)} ms`);
    for (const [k, v] of [...w.self].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`${v.toFixed(1).padStart(8)}  ${k}`);
  }
}

/** True when a sample's stack holds the function `name`. */
function onStack(id: number, name: string, byId: Map<number, ProfileNode>, parent: Map<number, number>): boolean {
  for (let x: number | undefined = id; x !== undefined; x = parent.get(x)) if (byId.get(x)!.callFrame.functionName === name) return true;
  return false;
}
