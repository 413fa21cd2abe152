// Unit tests of the acm-certificate program: the real engine against mocked AWS, in milliseconds.
// Run them with the rest: npm test (or: npx vitest run examples/acm-certificate)
import { describe, expect, it } from "vitest";
import { minutes } from "cairn-iac";
import type { acm } from "cairn-iac/aws";
import { expectFailure, expectWaitFailed, expectWaitTimedOut, mocks, testProgram } from "cairn-iac/testing";
import app from "./infra.ts";

const ARN = "arn:aws:acm:us-east-1:1:certificate/abc";

/** A mocked certificate: one validation record per domain, then what successive reads (the wait's polls) see. */
function certificate(reads: Partial<acm.CertificateOutputs>[] = [{ status: "ISSUED" }]) {
  return mocks.resource<acm.CertificateInputs, acm.CertificateOutputs>({
    outputs: (inputs) => ({
      arn: ARN,
      status: "PENDING_VALIDATION",
      domainValidationOptions: [inputs.domainName, ...(inputs.subjectAlternativeNames ?? [])].map((d) => ({
        domainName: d,
        resourceRecord: { name: `_v.${d}`, type: "CNAME", value: `_v.${d}.acm-validations.aws` },
      })),
    }),
    reads,
  });
}

/** The program's AWS, mocked: the zone it looks up, the certificate, and the records it creates. */
const aws = (cert = certificate()) => ({
  "aws:acm:Certificate": cert,
  "aws:route53:HostedZone": mocks.lookup({ zoneId: "Z1", name: "example.dev.", nameServers: ["ns-1.example.net"] }),
  "aws:route53:RecordSet": mocks.resource({ outputs: { fqdn: "published.example.dev." } }),
});

describe("examples/acm-certificate", () => {
  it("waits for the certificate before publishing its ARN", async () => {
    const run = await testProgram(app, { mocks: aws(certificate([{ status: "PENDING_VALIDATION" }, { status: "ISSUED" }])) });

    const result = await run.up();

    expect(result.ok).toBe(true);
    expect(result.waits.issued).toMatchObject({ outcome: "satisfied", reads: 2 });
    expect(result.outputs.certificateArn).toBe(ARN);
    // The TXT record was created only after the wait, from the issued certificate's ARN.
    const order = result.calls.filter((c) => c.op !== "check").map((c) => `${c.op} ${c.name}`);
    expect(order.indexOf("create arn-txt")).toBeGreaterThan(order.lastIndexOf("read cert"));
    expect(result.inputs["arn-txt"]).toMatchObject({ zoneId: "Z1", name: "_certificate.registry.example.dev", type: "TXT", records: [ARN] });
  });

  it("creates one validation record per distinct domain, from the certificate's own records", async () => {
    const run = await testProgram(app, { mocks: aws() });

    const result = await run.up();

    expect(result.inputs["validation-registry.example.dev"]).toMatchObject({ zoneId: "Z1", name: "_v.registry.example.dev", type: "CNAME", records: ["_v.registry.example.dev.acm-validations.aws"] });
    expect(result.inputs["validation-www.registry.example.dev"]).toMatchObject({ name: "_v.www.registry.example.dev" });
  });

  it("previews the certificate, its records and the wait before anything exists", async () => {
    const run = await testProgram(app, { mocks: aws() });

    const plan = await run.preview();

    expect(plan.changes).toEqual([
      "create cert", "create validation-registry.example.dev", "create validation-www.registry.example.dev", "wait issued", "create arn-txt",
    ]);
    expect(plan.step("issued", "wait")).toMatchObject({ until: 'cert.status == "ISSUED"', timeoutMs: minutes(75) });
    expect(run.calls.map((c) => c.op)).not.toContain("create");
  });

  it("gives up after 75 minutes on a certificate that stays pending, and publishes nothing", async () => {
    const run = await testProgram(app, { mocks: aws(certificate([{ status: "PENDING_VALIDATION" }])) });

    const result = await run.up();

    const wait = expectWaitTimedOut(result, "issued");
    expect(wait.elapsedMs).toBeGreaterThanOrEqual(minutes(75));
    expect(wait.message).toContain('last observed status = "PENDING_VALIDATION"');
    expect(result.resources["arn-txt"]).toBeUndefined();
    expect(result.resources.cert).toBeDefined(); // the certificate stays, for the next up to wait on again
  });

  it("stops waiting at once when ACM reports the validation failed", async () => {
    const run = await testProgram(app, { mocks: aws(certificate([{ status: "FAILED", failureReason: "CAA_ERROR" }])) });

    const wait = expectWaitFailed(await run.up(), "issued");

    expect(wait).toMatchObject({ reads: 1, reason: "CAA_ERROR" });
  });

  it("reports AccessDenied on the certificate, and creates nothing that needs it", async () => {
    const run = await testProgram(app, { mocks: { ...aws(), "aws:acm:Certificate": mocks.resource({ fail: { create: "AccessDenied" } }) } });

    const failure = await expectFailure(run.up(), { resource: "cert", message: /AccessDenied/ });

    expect(failure).toMatchObject({ op: "create" });
    expect(run.state.resources).toEqual({});
  });

  it("fails the plan when the zone does not exist", async () => {
    const run = await testProgram(app, { mocks: { ...aws(), "aws:route53:HostedZone": mocks.lookup(undefined) } });

    await expectFailure(run.up(), { message: /Lookup "zone".*nothing matches name = "example.dev"/ });
  });

  it("replaces the certificate when the domain changes, and updates the records that use it", async () => {
    const run = await testProgram(app, { mocks: aws() });
    const first = await run.up();

    const second = await run.up({ from: first.state, config: { domain: "api.example.dev" } });

    expect(second.plan.step("cert", "replace")).toMatchObject({ replaceKeys: expect.arrayContaining(["domainName"]) });
    expect(second.ok).toBe(true);
    expect(second.resources.cert?.id).not.toBe(first.resources.cert?.id);
  });
});
