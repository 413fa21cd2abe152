// The AWS-calls row of `npm run bench` (bench/run.ts runs this file; alone: `npx tsx bench/acm.bench.ts`):
// the 50-certificate flow of issue 26 (50 DNS-validated certificates, a validation record each, a wait
// each) through the engine against the in-memory AWS of tests/providers/aws/fake-aws.ts (aws-sdk-client-mock),
// every SDK call recorded. Prints JSON: calls of up and destroy by command, with their floors, and the
// provider calls the engine retried.
import { certificateFlow } from "../tests/providers/aws/certificate-flow.js";

const certificates = Number(process.env.BENCH_CERTIFICATES ?? 50);
const r = await certificateFlow({ certificates, parallel: Number(process.env.BENCH_PARALLEL ?? 10) });
const changesPerRequest = r.up.calls.filter((c) => c.command === "ChangeResourceRecordSets").map((c) => ((c.input as { ChangeBatch?: { Changes?: unknown[] } }).ChangeBatch?.Changes ?? []).length);
console.log(
  JSON.stringify({
    certificates,
    parallel: r.parallel,
    up: { calls: r.up.total, floor: r.up.floor, retries: r.up.retries, byCommand: r.up.byCommand, changesPerRequest },
    destroy: { calls: r.destroy.total, floor: r.destroy.floor, retries: r.destroy.retries, byCommand: r.destroy.byCommand },
  }),
);
