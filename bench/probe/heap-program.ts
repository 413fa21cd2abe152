// The program of bench/probe/apply-heap.ts, in a module of its own so program() starts no command line.
import { defineResource, program, type Provider } from "../../src/index.js";

/** Resources in the program (`BENCH_N`). */
export const N = Number(process.env.BENCH_N ?? 10_000);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with --expose-gc");
let created = 0;
/** The live heap (MiB) after a full GC half-way through the creates. */
export const reading = { heapMidApplyMb: 0 };
const provider: Provider<{ name: string }, { name: string }> = {
  async create({ inputs }) {
    if (++created === N / 2) {
      gc();
      reading.heapMidApplyMb = Math.round(process.memoryUsage().heapUsed / 1024 / 1024);
    }
    return { id: `obj-${created}`, outputs: { ...inputs } };
  },
  async read({ outputs }) {
    return outputs;
  },
  async delete() {},
};
const Thing = defineResource<{ name: string }, { name: string }>("bench:Thing", { provider, schema: { inputs: { name: { forceNew: true } }, outputs: { name: {} } } });
/** N resources whose provider takes a heap reading half-way through the creates. */
export const prog = program("heap", () => {
  for (let i = 0; i < N; i++) new Thing(`t-${i}`, { name: `n${i}` });
});
