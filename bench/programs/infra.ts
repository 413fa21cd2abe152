// The program the whole-process bench rows run as a user would (`npx tsx infra.ts up --yes`): N resources,
// N/2 "certificates" and N/2 "records" each taking one certificate's ARN, on a zero-latency in-process
// provider. It imports the built package ("cairn-iac" resolves to this repository's dist/ by self-reference).
import { program, defineResource, type Provider } from "cairn-iac";

const N = Number(process.env.BENCH_N ?? 10_000);
// BENCH_CHANGE_PCT: the percentage of resources a run changes against a stack applied without it (every
// k-th certificate gets a new domain: it is replaced, and its record updates with the new ARN), so the change
// rows measure a plan whose size is that percentage of the stack.
const CHANGE_PCT = Number(process.env.BENCH_CHANGE_PCT ?? 0);
const every = CHANGE_PCT > 0 ? Math.max(1, Math.round(100 / CHANGE_PCT)) : 0;

// Ids carry this process's start time: a later run (a change to a recorded stack) must not hand out an id
// a replaced object still holds.
const RUN = Date.now().toString(36);

function memory<I extends object, O extends object>(outputs: (i: I, id: string) => O): Provider<I, O> {
  let next = 0;
  return {
    async create({ inputs }) {
      const id = `obj-${RUN}-${next++}`;
      return { id, outputs: outputs(inputs, id) };
    },
    async read({ outputs }) {
      return outputs;
    },
    async update({ news, id }) {
      return outputs(news, id);
    },
    async delete() {},
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

export default program("bench", () => {
  for (let i = 0; i < N / 2; i++) {
    const changed = every > 0 && i % every === 0;
    const c = new Cert(`cert-${i}`, { domainName: changed ? `d${i}.changed.example.dev` : `d${i}.example.dev` });
    new Record(`record-${i}`, { name: `_v${i}.example.dev`, value: c.arn });
  }
});
