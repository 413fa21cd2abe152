import { describe, expect, it } from "vitest";
import type { Change } from "@aws-sdk/client-route-53";
import { callFloor, certificateFlow } from "./certificate-flow.js";

// Issue 26: 50 certificates + 50 validation records + 50 waits in at most 1.2 × the call floor the issue
// measured (113), i.e. 136 calls; counts and contents, never time.
const LIMIT = 136;

describe("50 DNS-validated certificates, their validation records and a wait each, through the engine", () => {
  it("up makes at most 136 AWS calls: one ChangeResourceRecordSets for the zone, no tag reads, one ListCertificates round", async () => {
    const r = await certificateFlow({ certificates: 50, parallel: 10 });
    expect(r.up.floor).toBe(callFloor(50).up);
    expect(r.up.total).toBeLessThanOrEqual(LIMIT);
    expect(r.up.byCommand["acm RequestCertificate"]).toBe(50);
    expect(r.up.byCommand["acm ListTagsForCertificate"]).toBeUndefined();
    expect(r.up.retries).toBe(0); // nothing failed, so the engine tried no call twice

    // One request for the zone's 50 records, each the validation record ACM gave its certificate.
    const changes = r.up.calls.filter((c) => c.command === "ChangeResourceRecordSets");
    expect(changes).toHaveLength(1);
    const batch = (changes[0]!.input as { HostedZoneId: string; ChangeBatch: { Changes: Change[] } });
    expect(batch.HostedZoneId).toBe("Z0FAKE123");
    expect(batch.ChangeBatch.Changes).toHaveLength(50);
    expect(batch.ChangeBatch.Changes.every((c) => c.Action === "CREATE" && c.ResourceRecordSet?.Type === "CNAME")).toBe(true);
    expect(new Set(batch.ChangeBatch.Changes.map((c) => c.ResourceRecordSet!.Name)).size).toBe(50);
    expect(r.up.byCommand["route53 GetChange"]).toBe(1);

    // The waits: one filtered ListCertificates round answers all 50 (none described one by one).
    const lists = r.up.calls.filter((c) => c.command === "ListCertificates");
    expect(lists).toHaveLength(1);
    expect(lists[0]!.input.CertificateStatuses).toEqual(["ISSUED", "PENDING_VALIDATION"]);
    const firstList = r.up.calls.indexOf(lists[0]!);
    expect(r.up.calls.slice(firstList).filter((c) => c.command === "DescribeCertificate")).toEqual([]);
  });

  it("destroy deletes the zone's 50 records in one request, before the certificates", async () => {
    const r = await certificateFlow({ certificates: 50, parallel: 10 });
    expect(r.destroy.total).toBeLessThanOrEqual(Math.ceil(1.2 * r.destroy.floor));
    const changes = r.destroy.calls.filter((c) => c.command === "ChangeResourceRecordSets");
    expect(changes).toHaveLength(1);
    const deletes = (changes[0]!.input as { ChangeBatch: { Changes: Change[] } }).ChangeBatch.Changes;
    expect(deletes.map((c) => c.Action)).toEqual(Array(50).fill("DELETE"));
    expect(r.destroy.calls.findIndex((c) => c.command === "DeleteCertificate")).toBeGreaterThan(r.destroy.calls.indexOf(changes[0]!));
    expect(r.destroy.byCommand["acm DeleteCertificate"]).toBe(50);
  });
});
