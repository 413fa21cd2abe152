// The latency row of `npm run bench` (alone: `npx tsx bench/latency.bench.ts`): 300 queues in a three-level
// dependency tree (20 roots, 2 children each, 6 grandchildren each; a child's redrive policy names its
// parent's ARN), created through the full engine and the real AWS SDK against the fake Cloud Control, each
// create taking 2–10 s (seeded random). The wall time is compared with the critical-path floor: the longest
// root-to-leaf sum of create latencies, below which no scheduler can go.
//
// Real time by default (about 30 s). BENCH_LATENCY_SCALE=n runs the stack's clock (every poll pause and
// back-off) and the fake's latencies n times faster; figures are reported in the simulated time the latencies
// are written in. Compressed, the engine's own CPU time counts n times over, so on a loaded machine the ratio
// then measures the load more than the scheduling (bench/README.md gives a figure).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Program } from "../src/index.js";
import type { Clock } from "../src/provider/provider.js";
import { Provider } from "../src/providers/aws/provider.js";
import { Queue } from "../src/providers/aws/services/sqs.js";
import { serveFakeCloudControl } from "../src/testing/cloudcontrol/fake-server.js";

const SCALE = Number(process.env.BENCH_LATENCY_SCALE ?? 1);
const SEED = Number(process.env.BENCH_LATENCY_SEED ?? 42);
const ROOTS = 20;
const CHILDREN = 2;
const GRANDCHILDREN = 6;

/** A small seeded generator (mulberry32): the same latencies on every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Real time running `scale` times faster: what the engine and the fake both measure by. */
function scaledClock(scale: number): Clock {
  const t0 = Date.now();
  return {
    now: () => t0 + (Date.now() - t0) * scale,
    sleep: (d, signal) =>
      new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const t = setTimeout(() => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        }, d / scale);
        const onAbort = () => {
          clearTimeout(t);
          reject(signal!.reason);
        };
        signal?.addEventListener("abort", onAbort, { once: true });
      }),
  };
}

interface Node {
  name: string;
  latency: number;
  parent?: Node;
}

/** The tree, with each queue's create latency (ms, 2–10 s). */
function tree(): Node[] {
  const rand = seeded(SEED);
  const latency = () => Math.round(2000 + rand() * 8000);
  const nodes: Node[] = [];
  for (let r = 0; r < ROOTS; r++) {
    const root: Node = { name: `r${r}`, latency: latency() };
    nodes.push(root);
    for (let c = 0; c < CHILDREN; c++) {
      const child: Node = { name: `r${r}c${c}`, latency: latency(), parent: root };
      nodes.push(child);
      for (let g = 0; g < GRANDCHILDREN; g++) nodes.push({ name: `r${r}c${c}g${g}`, latency: latency(), parent: child });
    }
  }
  return nodes;
}

const pathLatency = (n: Node): number => n.latency + (n.parent ? pathLatency(n.parent) : 0);

async function main() {
  const nodes = tree();
  const byName = new Map(nodes.map((n) => [`bench-${n.name}`, n]));
  const floorMs = Math.max(...nodes.map(pathLatency));
  const clock = scaledClock(SCALE);
  const dir = await mkdtemp(join(tmpdir(), "cairn-bench-latency-"));
  const fake = await serveFakeCloudControl({
    pollsToFinish: 1,
    clock,
    latency: (op, _type, model) => (op === "CREATE" ? (byName.get(String(model?.QueueName))?.latency ?? 0) : 0),
  });
  try {
    const aws = new Provider("bench-latency", { region: "us-east-1", endpoint: fake.endpoint, credentials: { accessKeyId: "x", secretAccessKey: "x" } });
    const prog = new Program("bench-latency", () => {
      const made = new Map<Node, InstanceType<typeof Queue>>();
      for (const n of nodes) {
        const parent = n.parent ? made.get(n.parent) : undefined;
        made.set(n, new Queue(n.name, { queueName: `bench-${n.name}`, ...(parent ? { redrivePolicy: parent.arn.apply((arn) => ({ deadLetterTargetArn: arn, maxReceiveCount: 5 })) } : {}) }));
      }
    });
    const stack = prog.stack({ stateDir: dir, passphrase: "bench", clock, defaultProviders: { aws } });
    const t0 = performance.now();
    const up = await stack.up();
    const realMs = performance.now() - t0;
    if (!up.summary?.ok) throw new Error(`up failed: ${JSON.stringify(up.summary)}`);
    if (fake.cloud.objects().length !== nodes.length) throw new Error(`expected ${nodes.length} objects, found ${fake.cloud.objects().length}`);
    const calls: Record<string, number> = {};
    for (const c of fake.cloud.calls) calls[c.operation] = (calls[c.operation] ?? 0) + 1;
    const wallMs = Math.round(realMs * SCALE);
    const result = {
      bench: "latency",
      resources: nodes.length,
      levels: 3,
      scale: SCALE,
      up: { ms: wallMs, realMs: Math.round(realMs), calls, callsPerResource: Number((fake.cloud.calls.length / nodes.length).toFixed(2)) },
      floor: floorMs,
      overFloor: Number((wallMs / floorMs).toFixed(3)),
      target: 1.1,
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await fake.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
