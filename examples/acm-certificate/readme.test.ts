// examples/acm-certificate/readme.test.ts: the testing guide's "A complete example" shows this file, whole.
import { describe, expect, it } from "vitest";
import { minutes } from "cairn-iac";
import type { acm } from "cairn-iac/aws";
import { expectWaitTimedOut, mocks, testProgram } from "cairn-iac/testing";
import app from "./infra.ts";

const ARN = "arn:aws:acm:us-east-1:111122223333:certificate/abc";

/** AWS, mocked: the zone the program looks up, its records, and a certificate whose reads show `statuses` in turn. */
function aws(...statuses: acm.CertificateStatus[]) {
  return {
    "aws:route53:HostedZone": mocks.lookup({ zoneId: "Z1", name: "example.dev." }),
    "aws:route53:RecordSet": mocks.resource(),
    "aws:acm:Certificate": mocks.resource<acm.CertificateInputs, acm.CertificateOutputs>({
      outputs: (inputs) => ({
        arn: ARN,
        domainValidationOptions: [inputs.domainName, ...(inputs.subjectAlternativeNames ?? [])].map((d) => ({
          domainName: d,
          resourceRecord: { name: `_v.${d}`, type: "CNAME", value: `_v.${d}.acm-validations.aws` },
        })),
      }),
      reads: statuses.map((status) => ({ status })),
    }),
  };
}

describe("acm-certificate", () => {
  it("creates the certificate, waits until it is issued, then publishes its ARN", async () => {
    const run = await testProgram(app, { mocks: aws("PENDING_VALIDATION", "ISSUED") });

    const result = await run.up();

    expect(result.waits.issued).toMatchObject({ outcome: "satisfied", reads: 2 });
    expect(result.outputs.certificateArn).toBe(ARN);
    expect(result.inputs["arn-txt"]).toMatchObject({ type: "TXT", records: [ARN] });
  });

  it("gives up after 75 minutes when the certificate is never issued, and publishes nothing", async () => {
    const run = await testProgram(app, { mocks: aws("PENDING_VALIDATION") });

    const result = await run.up(); // 75 minutes of polling on a fake clock: milliseconds

    expect(expectWaitTimedOut(result, "issued").elapsedMs).toBeGreaterThanOrEqual(minutes(75));
    expect(result.resources["arn-txt"]).toBeUndefined();
  });

  it("replaces the certificate when the domain changes, starting from the first run's state", async () => {
    const first = await (await testProgram(app, { mocks: aws("ISSUED") })).up();

    const run = await testProgram(app, { mocks: aws("ISSUED"), from: first.state, config: { domain: "api.example.dev" } });
    const second = await run.up();

    expect(second.plan.step("cert")).toMatchObject({ op: "replace", replaceKeys: ["domainName", "subjectAlternativeNames"] });
    expect(second.resources.cert?.id).not.toBe(first.resources.cert?.id);
    expect(second.outputs.certificateArn).toBe(ARN);
  });
});
