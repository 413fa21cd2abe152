// The waits row of `npm run bench` (alone: `npx tsx bench/wait.bench.ts`): K concurrent waits
// (BENCH_WAITS, default 1,000) on one resource type, through the full engine with a real clock.
// Each job becomes READY `FLIP_MS` after its create; every wait then gates one record.
// Prints JSON: provider calls per poll round (batched readMany vs. one read per wait) and the detection
// latency after the flip (target: ≤ min(interval, 5 s)).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Program, defineResource, seconds, wait, type EngineEvent, type Provider } from "../src/index.js";

const K = Number(process.env.BENCH_WAITS ?? 1000);
const FLIP_MS = 3000;
const INTERVAL = seconds(2);

interface JobOut { name: string; createdAt: number; status: "PENDING" | "READY" }
const calls = { read: 0, readMany: 0, targets: 0 };
const createdAt = new Map<string, number>();
const statusOf = (id: string): JobOut["status"] => (Date.now() - createdAt.get(id)! >= FLIP_MS ? "READY" : "PENDING");

const jobProvider: Provider<{ name: string }, JobOut> = {
  async create({ inputs }) {
    const id = `job-${inputs.name}`;
    createdAt.set(id, Date.now());
    return { id, outputs: { name: inputs.name, createdAt: createdAt.get(id)!, status: "PENDING" } };
  },
  async read({ id, outputs }) {
    calls.read++;
    return { ...outputs, status: statusOf(id) };
  },
  async readMany({ targets }) {
    calls.readMany++;
    calls.targets += targets.length;
    return new Map(targets.map((t) => [t.id, { ...t.outputs, status: statusOf(t.id) }]));
  },
  async delete() {},
};
const Job = defineResource<{ name: string }, JobOut>("bench:Job", {
  provider: jobProvider,
  schema: { inputs: { name: { forceNew: true } }, outputs: { name: {}, createdAt: { stable: true }, status: {} } },
});
const Sink = defineResource<{ value: string }, { value: string }>("bench:Sink", {
  provider: { async create({ inputs }) { return { id: inputs.value, outputs: inputs }; }, async read({ outputs }) { return outputs; }, async delete() {} },
  schema: { inputs: { value: {} }, outputs: { value: {} } },
});

async function main() {
  const dir = await mkdtemp(join(tmpdir(), "cairn-bench-wait-"));
  try {
    const prog = new Program("bench-waits", () => {
      for (let i = 0; i < K; i++) {
        const job = new Job(`job${i}`, { name: `j${i}` });
        const ready = wait(job, { until: (j) => j.status.eq("READY"), interval: INTERVAL });
        new Sink(`sink${i}`, { value: ready.name });
      }
      return {};
    }, { dir });
    const stack = prog.stack({ stateDir: join(dir, ".cairn"), parallel: 10 });
    const satisfiedAt = new Map<string, { at: number; reads: number; id: string }>();
    stack.events.subscribe((e: EngineEvent) => {
      if (e.type === "wait-ended" && e.outcome.kind === "satisfied") satisfiedAt.set(e.urn, { at: Date.now(), reads: e.outcome.reads, id: `job-j${e.name.match(/wait\(job(\d+)\)/)![1]}` });
    });
    const t0 = Date.now();
    const r = await stack.up();
    const total = Date.now() - t0;
    if (!r.summary?.ok || satisfiedAt.size !== K) throw new Error(`bench run failed: ${JSON.stringify(r.summary)}`);
    const latencies = [...satisfiedAt.values()].map((s) => s.at - (createdAt.get(s.id)! + FLIP_MS)).sort((a, b) => a - b);
    const reads = [...satisfiedAt.values()].reduce((n, s) => n + s.reads, 0);
    const readsPerWait = reads / K;
    const providerCalls = calls.readMany + calls.read;
    console.log(JSON.stringify({
      bench: "waits",
      waits: K,
      intervalMs: INTERVAL,
      flipAfterMs: FLIP_MS,
      applyMs: total,
      readsPerWait: Number(readsPerWait.toFixed(2)),
      providerCalls,
      callsPerPollRound: Number((providerCalls / readsPerWait).toFixed(2)),
      callsPerPollRoundWithoutBatching: K,
      detectionLatencyMs: { p50: latencies[Math.floor(K / 2)], max: latencies.at(-1), target: Math.min(INTERVAL, 5000) },
    }, null, 2));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
