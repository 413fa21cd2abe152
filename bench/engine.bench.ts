// The in-process engine rows of `npm run bench` (bench/run.ts runs this file once per size and run; alone:
// `npx tsx bench/engine.bench.ts`): N resources (N/2 "certificates" + N/2 "records", each record taking one
// certificate's output as an input) planned and applied through the engine from src/ with a zero-latency
// in-memory provider and file state. Prints JSON figures; the target is issue 16's (bytes ≤ 2× final state).
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Program, defineResource, hasChanges, type Provider } from "../src/index.js";

const N = Number(process.env.BENCH_N ?? 10_000);

function memory<I extends object, O extends object>(outputs: (i: I, id: string) => O): Provider<I, O> {
  const objects = new Map<string, O>();
  let next = 0;
  return {
    async create({ inputs }) {
      const id = `obj-${next++}`;
      const o = outputs(inputs, id);
      objects.set(id, o);
      return { id, outputs: o };
    },
    async read({ id }) {
      return objects.get(id);
    },
    async update({ id, news }) {
      const o = outputs(news, id);
      objects.set(id, o);
      return o;
    },
    async delete({ id }) {
      objects.delete(id);
    },
  };
}

const Cert = defineResource<{ domainName: string }, { domainName: string; arn: string }>("bench:Certificate", {
  provider: memory((i, id) => ({ domainName: i.domainName, arn: `arn:aws:acm:us-east-1:000000000000:certificate/${id}` })),
  schema: { inputs: { domainName: { forceNew: true } }, outputs: { domainName: {}, arn: { stable: true } } },
});
const Record = defineResource<{ name: string; value: string }, { name: string; value: string }>("bench:Record", {
  provider: memory((i) => ({ ...i })),
  schema: { inputs: { name: { forceNew: true }, value: {} }, outputs: { name: {}, value: {} } },
});

// Built with the Program constructor rather than program(): this file is the entry point, and program()
// would run the CLI on it.
const prog = new Program("bench", () => {
  for (let i = 0; i < N / 2; i++) {
    const c = new Cert(`cert-${i}`, { domainName: `d${i}.example.dev` });
    new Record(`record-${i}`, { name: `_v${i}.example.dev`, value: c.arn });
  }
}, { dir: process.cwd(), command: "bench" });

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
