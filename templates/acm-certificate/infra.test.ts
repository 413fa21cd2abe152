// Unit tests of infra.ts: Cairn's real engine (plan, apply, waits) against mocked AWS, with state in memory
// and a fake clock, so no AWS call is made and the 75-minute wait takes milliseconds.
import { describe, expect, it } from "vitest";
import { minutes } from "cairn-iac";
import type { acm } from "cairn-iac/aws";
import { expectFailure, expectWaitTimedOut, mocks, testProgram } from "cairn-iac/testing";
import app from "./infra.ts";

const ARN = "arn:aws:acm:us-east-1:111122223333:certificate/abc";

/** A mocked certificate with one validation record per domain; `reads` is what the wait's polls see, in turn. */
function certificate(reads: Partial<acm.CertificateOutputs>[]) {
  return mocks.resource<acm.CertificateInputs, acm.CertificateOutputs>({
    outputs: (inputs) => ({
      arn: ARN,
      domainValidationOptions: [inputs.domainName, ...(inputs.subjectAlternativeNames ?? [])].map((d) => ({
        domainName: d,
        resourceRecord: { name: `_v.${d}`, type: "CNAME", value: `_v.${d}.acm-validations.aws` },
      })),
    }),
    reads,
  });
}

/** Every AWS type of the program, mocked: the zone it looks up, the certificate, the records. */
const aws = (cert = certificate([{ status: "PENDING_VALIDATION" }, { status: "ISSUED" }])) => ({
  "aws:acm:Certificate": cert,
  "aws:route53:HostedZone": mocks.lookup({ zoneId: "Z1", name: "example.dev." }),
  "aws:route53:RecordSet": mocks.resource(),
});

describe("{{name}}", () => {
  it("waits for the certificate before publishing its ARN", async () => {
    const run = await testProgram(app, { mocks: aws() });

    const result = await run.up();

    expect(result.waits.issued).toMatchObject({ outcome: "satisfied", reads: 2 });
    expect(result.outputs.certificateArn).toBe(ARN);
    expect(result.inputs["validation-app.example.dev"]).toMatchObject({ zoneId: "Z1", name: "_v.app.example.dev", type: "CNAME" });
    expect(result.inputs["arn-txt"]).toMatchObject({ type: "TXT", records: [ARN] });
  });

  it("gives up after 75 minutes on a certificate that is never issued, and publishes nothing", async () => {
    const run = await testProgram(app, { mocks: aws(certificate([{ status: "PENDING_VALIDATION" }])) });

    const result = await run.up();

    expect(expectWaitTimedOut(result, "issued").elapsedMs).toBeGreaterThanOrEqual(minutes(75));
    expect(result.resources["arn-txt"]).toBeUndefined();
  });

  it("reports AccessDenied on the certificate", async () => {
    const run = await testProgram(app, { mocks: { ...aws(), "aws:acm:Certificate": mocks.resource({ fail: { create: "AccessDenied" } }) } });

    await expectFailure(run.up(), { resource: "cert", message: /AccessDenied/ });
  });

  it("replaces the certificate when the domain changes", async () => {
    const first = await (await testProgram(app, { mocks: aws() })).up();

    const run = await testProgram(app, { mocks: aws(), from: first.state, config: { domain: "api.example.dev" } });
    const second = await run.up();

    expect(second.plan.step("cert").op).toBe("replace");
    expect(second.ok).toBe(true);
  });
});
