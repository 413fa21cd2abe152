// The program the whole-process bench rows run as a user would (`npx tsx infra.ts up --yes`): N resources,
// N/2 "certificates" and N/2 "records" each taking one certificate's ARN, on a zero-latency in-process
// provider. It imports the built package ("cairn" resolves to this repository's dist/ by self-reference).
import { program, defineResource, type Provider } from "cairn";

const N = Number(process.env.BENCH_N ?? 10_000);

function memory<I extends object, O extends object>(outputs: (i: I, id: string) => O): Provider<I, O> {
  let next = 0;
  return {
    async create({ inputs }) {
      const id = `obj-${next++}`;
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
    const c = new Cert(`cert-${i}`, { domainName: `d${i}.example.dev` });
    new Record(`record-${i}`, { name: `_v${i}.example.dev`, value: c.arn });
  }
});
