// The Cloud Control row of `npm run bench` (alone: `npx tsx bench/cloudcontrol.bench.ts`): N queues
// (BENCH_CC, default 1,000) created through the full engine and the real AWS SDK against the fake Cloud
// Control on 127.0.0.1 (requests finish after one status report), then destroyed. Prints JSON: Cloud Control
// calls by operation, calls per resource, ListResourceRequests calls per polling round, provider calls the
// engine retried (`step-retrying` events), and wall times.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Program } from "../src/index.js";
import { Provider } from "../src/providers/aws/provider.js";
import { Queue } from "../src/providers/aws/services/sqs.js";
import { serveFakeCloudControl } from "../src/testing/cloudcontrol/fake-server.js";
import { pollerFor } from "../src/providers/aws/cloudcontrol/requests.js";
import { cloudControl } from "../src/providers/aws/cloudcontrol/client.js";
import { realClock } from "../src/stack/clock.js";

const N = Number(process.env.BENCH_CC ?? 1000);
const PARALLEL = Number(process.env.BENCH_CC_PARALLEL ?? 10);

function byOperation(calls: readonly { operation: string }[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of calls) out[c.operation] = (out[c.operation] ?? 0) + 1;
  return out;
}

async function main() {
  const dir = await mkdtemp(join(tmpdir(), "cairn-bench-cc-"));
  const fake = await serveFakeCloudControl({ pollsToFinish: 1 });
  try {
    const aws = new Provider("bench-fake", { region: "us-east-1", endpoint: fake.endpoint, credentials: { accessKeyId: "x", secretAccessKey: "x" } });
    // new Program, not program(): this file is the entry point, and program() would run the CLI.
    const prog = new Program("bench-cc", () => {
      for (let i = 0; i < N; i++) new Queue(`q${i}`, { queueName: `bench-q${i}`, visibilityTimeout: 30 });
    });
    const stack = prog.stack({ stateDir: dir, passphrase: "bench", parallel: PARALLEL, defaultProviders: { aws } });
    const poller = pollerFor(await cloudControl({ provider: aws }), realClock); // the stack polls on the real clock
    let retries = 0;
    stack.events.subscribe((e) => void (e.type === "step-retrying" && retries++));
    const t0 = performance.now();
    const up = await stack.up();
    const upMs = Math.round(performance.now() - t0);
    if (!up.summary?.ok) throw new Error(`up failed: ${JSON.stringify(up.summary)}`);
    const upCalls = byOperation(fake.cloud.calls);
    const upRounds = poller.stats.rounds;
    const upRetries = retries;
    const mark = fake.cloud.calls.length;
    const t1 = performance.now();
    await stack.destroy();
    const destroyMs = Math.round(performance.now() - t1);
    if (fake.cloud.objects().length !== 0) throw new Error(`destroy left ${fake.cloud.objects().length} objects`);
    const downCalls = byOperation(fake.cloud.calls.slice(mark));
    const perResource = (calls: Record<string, number>) => Number((Object.values(calls).reduce((a, b) => a + b, 0) / N).toFixed(2));
    const result = {
      bench: "cloudcontrol",
      resources: N,
      parallel: PARALLEL,
      up: { ms: upMs, calls: upCalls, callsPerResource: perResource(upCalls), retries: upRetries, pollRounds: upRounds, listCallsPerRound: Number(((upCalls.ListResourceRequests ?? 0) / Math.max(1, upRounds)).toFixed(2)) },
      destroy: { ms: destroyMs, calls: downCalls, callsPerResource: perResource(downCalls), retries: retries - upRetries },
      floor: "per resource: CreateResource + GetResource (read back) on up, DeleteResource on destroy; plus ListResourceRequests once per polling round",
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await fake.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
