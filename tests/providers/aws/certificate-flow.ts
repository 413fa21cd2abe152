// The 50-certificate flow of issue 26, against the in-memory AWS of fake-aws.ts: N DNS-validated
// certificates, one validation record each in one zone, and a wait per certificate until it is ISSUED;
// `up`, then `destroy`, every SDK call recorded. Shared by its unit test and `npm run bench` (acm row).
import { program, wait } from "../../../src/index.js";
import { acm, route53 } from "../../../src/providers/aws/index.js";
import { FakeClock } from "../../../src/testing/fake-clock.js";
import { fakeAws, type FakeCall } from "./fake-aws.js";

const ZONE_ID = "Z0FAKE123";

/** The calls of one command: all of them in order, and how many of each (`acm RequestCertificate`: 50). */
export interface FlowCalls {
  calls: FakeCall[];
  total: number;
  byCommand: Record<string, number>;
}

/**
 * What the flow did: the calls of `up` and of `destroy`, each with the floor it is compared to and the
 * provider calls the engine retried (its `step-retrying` events: a transient failure, then another try).
 */
export interface FlowResult {
  certificates: number;
  parallel: number;
  up: FlowCalls & { floor: number; retries: number };
  destroy: FlowCalls & { floor: number; retries: number };
}

/**
 * The fewest calls `up` can make: per certificate a RequestCertificate and one DescribeCertificate (its
 * validation record is only known from it); for all records one ChangeResourceRecordSets and one GetChange
 * (per 1,000 records); for all waits one ListCertificates. `destroy`: a DeleteCertificate each and one
 * ChangeResourceRecordSets per 1,000 records.
 *
 * @example callFloor(50) // { up: 103, destroy: 51 }
 */
export function callFloor(certificates: number): { up: number; destroy: number } {
  const batches = Math.ceil(certificates / 1000);
  return { up: 2 * certificates + 2 * batches + 1, destroy: certificates + batches };
}

function counted(calls: FakeCall[]): FlowCalls {
  const byCommand: Record<string, number> = {};
  for (const c of calls) byCommand[`${c.service} ${c.command}`] = (byCommand[`${c.service} ${c.command}`] ?? 0) + 1;
  return { calls, total: calls.length, byCommand };
}

/**
 * Runs the flow: `up` then `destroy` of `certificates` certificates (default 50) at `parallel` (default 10).
 *
 * @example const r = await certificateFlow({ certificates: 50 }); r.up.total // ≤ 136
 */
export async function certificateFlow(opts: { certificates?: number; parallel?: number } = {}): Promise<FlowResult> {
  const n = opts.certificates ?? 50;
  const parallel = opts.parallel ?? 10;
  const aws = fakeAws({ zoneName: "example.dev", zoneId: ZONE_ID });
  try {
    const prog = program("certificates", () => {
      for (let i = 0; i < n; i++) {
        const cert = new acm.Certificate(`cert-${i}`, { domainName: `d${i}.example.dev`, validationMethod: "DNS", tags: { flow: "50" } });
        const rec = cert.validationRecordFor(`d${i}.example.dev`);
        const record = new route53.RecordSet(`validation-${i}`, { zoneId: ZONE_ID, name: rec.name, type: rec.type, ttl: 60, records: [rec.value] });
        wait(cert, { name: `issued-${i}`, until: (c) => c.status.eq(acm.Certificate.Status.Issued), dependsOn: [record] });
      }
    });
    // State in memory: the figures are calls, and a busy disk's fsync pauses would only split the batch
    // windows of the records (one more request each time), not change what the providers ask for.
    const stack = prog.stack({ backend: "memory://", passphrase: "flow", parallel, clock: new FakeClock({ auto: true }) });
    let retries = 0;
    stack.events.subscribe((e) => void (e.type === "step-retrying" && retries++));
    const up = await stack.up();
    if (!up.summary?.ok) throw new Error(`up failed: ${JSON.stringify(up.summary)}`);
    const upCalls = aws.calls.splice(0);
    const upRetries = retries;
    const down = await stack.destroy();
    if (!down.summary?.ok) throw new Error(`destroy failed: ${JSON.stringify(down.summary)}`);
    const floor = callFloor(n);
    return {
      certificates: n,
      parallel,
      up: { ...counted(upCalls), floor: floor.up, retries: upRetries },
      destroy: { ...counted(aws.calls.splice(0)), floor: floor.destroy, retries: retries - upRetries },
    };
  } finally {
    aws.restore();
  }
}
