import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import certificateProgram from "../../examples/acm-certificate/infra.js";
import { renderPlan } from "../../src/cli/render.js";
import type { EngineEvent } from "../../src/apply/events.js";
import { FakeClock } from "../../src/testing/fake-clock.js";
import { fakeAws } from "../providers/aws/fake-aws.js";

let dir: string;
let aws: ReturnType<typeof fakeAws>;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cairn-acm-e2e-"));
  aws = fakeAws({ zoneName: "example.dev" });
});
afterEach(async () => {
  aws.restore();
  await rm(dir, { recursive: true, force: true });
});

const stackOf = () => {
  const stack = certificateProgram.stack({ stateDir: dir, passphrase: "test-pass", clock: new FakeClock({ auto: true }) });
  const events: EngineEvent[] = [];
  stack.events.subscribe((e) => events.push(e));
  return { stack, events };
};

describe("examples/acm-certificate through the engine, with mocked AWS SDK clients", () => {
  it("plans, requests, validates, waits for ISSUED, hands the gated ARN on, converges, and destroys cleanly", async () => {
    const { stack, events } = stackOf();

    // The plan: the zone is read, the certificate and records created, the wait runs, the TXT record waits for it.
    const plan = await stack.preview();
    const text = stripVTControlCharacters(renderPlan(plan)); // CI=true turns colours on
    const urn = (t: string, n: string) => `urn:cairn:dev::acm-certificate::aws:${t}::${n}`;
    expect(text).toContain(`<= read ${urn("route53:HostedZone", "zone")}`);
    expect(text).toContain(`+ create ${urn("acm:Certificate", "cert")}`);
    expect(text).toContain(`+ create ${urn("route53:RecordSet", "validation-registry.example.dev")}`);
    expect(text).toContain(`+ create ${urn("route53:RecordSet", "validation-www.registry.example.dev")}`);
    expect(text).toContain('records: ["(known after apply)"]');
    expect(text).toContain('> issued (until cert.status == "ISSUED")');
    expect(text).toContain('fails at once when cert.status in ["FAILED", "VALIDATION_TIMED_OUT", "REVOKED"]');
    expect(text).toContain(`+ create ${urn("route53:RecordSet", "arn-txt")}`);
    expect(text).toMatch(/Plan: 4 to create, 1 to read, 1 wait\./);
    // Preview reads the zone and nothing else: no certificate is requested.
    expect(aws.names().filter((n) => !n.startsWith("route53 ListHostedZonesByName") && !n.startsWith("route53 GetHostedZone"))).toEqual([]);

    const up = await stack.up();
    expect(up.summary, JSON.stringify(events.filter((e) => e.type === "step-failed"))).toMatchObject({ ok: true, failed: 0 });

    // Order: request → both validation records (one request: they are ready together) → the wait's reads
    // until ISSUED → only then the TXT record.
    const names = aws.names();
    const request = names.indexOf("acm RequestCertificate");
    const changes = aws.calls.map((c, i) => ({ c, i })).filter(({ c }) => c.command === "ChangeResourceRecordSets");
    expect(changes).toHaveLength(2);
    const [validation, txt] = changes;
    expect((validation!.c.input as { ChangeBatch: { Changes: unknown[] } }).ChangeBatch.Changes).toHaveLength(2);
    expect(request).toBeLessThan(validation!.i);
    const issuedAt = aws.calls.findIndex((c, i) => i > validation!.i && (c.command === "DescribeCertificate" || c.command === "ListCertificates"));
    expect(issuedAt).toBeGreaterThan(validation!.i);
    expect(txt!.i).toBeGreaterThan(issuedAt);

    // The validation records are ACM's, matched by domain (the fake answers in reverse request order).
    const cert = [...aws.certs.values()][0]!.detail;
    for (const o of cert.DomainValidationOptions!) {
      expect(aws.records.get(`${o.ResourceRecord!.Name}|CNAME`)?.ResourceRecords).toEqual([{ Value: o.ResourceRecord!.Value!.replace(/\.$/, "") }]);
    }
    expect(cert.Status).toBe("ISSUED");

    // The gated ARN reached the downstream record, and the stack outputs.
    const arn = cert.CertificateArn!;
    expect(aws.records.get("_certificate.registry.example.dev.|TXT")?.ResourceRecords).toEqual([{ Value: `"${arn}"` }]);
    expect(up.outputs).toMatchObject({ certificateArn: arn, publishedAt: "_certificate.registry.example.dev.", nameServers: ["ns-1.awsdns-00.org", "ns-2.awsdns-00.net"] });
    expect(events.some((e) => e.type === "wait-ended" && e.outcome.kind === "satisfied")).toBe(true);
    // The request carried the URN-derived idempotency token and the URN tag.
    const req = aws.calls[request]!.input as { IdempotencyToken: string; Tags: { Key: string; Value: string }[] };
    expect(req.IdempotencyToken).toMatch(/^\w{1,32}$/);
    expect(req.Tags).toContainEqual({ Key: "cairn:urn", Value: "urn:cairn:dev::acm-certificate::aws:acm:Certificate::cert" });

    // Settled: nothing to do, and the wait is not needed.
    const again = await stack.preview();
    expect(again.steps.filter((s) => s.kind !== "same" && s.kind !== "read" && !(s.kind === "wait" && !s.needed))).toEqual([]);
    expect(stripVTControlCharacters(renderPlan(again))).toContain('> issued (until cert.status == "ISSUED")  not needed');

    // Destroy: records and certificate deleted, the looked-up zone left alone.
    const before = aws.calls.length;
    const down = await stack.destroy();
    expect(down.summary).toMatchObject({ ok: true, failed: 0 });
    const destroyCalls = aws.calls.slice(before);
    const deletes = destroyCalls.filter((c) => c.command === "ChangeResourceRecordSets").flatMap((c) => (c.input as { ChangeBatch: { Changes: { Action: string }[] } }).ChangeBatch.Changes.map((ch) => ch.Action));
    expect(deletes).toEqual(["DELETE", "DELETE", "DELETE"]);
    // The certificate goes last: its records (and the TXT that used its ARN) first.
    const lastRecordDelete = destroyCalls.map((c) => c.command).lastIndexOf("ChangeResourceRecordSets");
    expect(destroyCalls.findIndex((c) => c.command === "DeleteCertificate")).toBeGreaterThan(lastRecordDelete);
    expect(aws.records.size).toBe(0);
    expect([...aws.certs.values()].every((c) => c.deleted)).toBe(true);
    expect(destroyCalls.some((c) => c.command.includes("HostedZone") && c.command.startsWith("Delete"))).toBe(false);
  });

  it("Certificate.get reads an existing certificate by ARN without managing it, and a wait on it reads it again", async () => {
    const { program, wait } = await import("../../src/index.js");
    const { acm } = await import("../../src/providers/aws/index.js");
    const seed = await stackOf().stack.up();
    const arn = String(seed.outputs!.certificateArn);
    const before = aws.calls.length;
    const reader = program("cert-reader", () => {
      const existing = acm.Certificate.get("existing", arn);
      const ready = wait(existing, { until: (c) => c.status.eq(acm.Certificate.Status.Issued) });
      return { domain: existing.domainName, status: ready.status };
    }).stack({ stateDir: join(dir, "reader"), passphrase: "test-pass", clock: new FakeClock({ auto: true }) });
    const up = await reader.up();
    expect(up.summary).toMatchObject({ ok: true, failed: 0 });
    expect(up.outputs).toEqual({ domain: "registry.example.dev", status: "ISSUED" });
    const calls = aws.names().slice(before);
    expect(calls.filter((c) => c.startsWith("acm Request") || c.startsWith("acm Delete") || c.includes("Tags"))).toEqual(calls.filter((c) => c.includes("ListTags")));
    await reader.destroy();
    expect([...aws.certs.values()][0]!.deleted).toBeUndefined();
  });
});
