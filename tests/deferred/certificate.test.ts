// Deferred resources against the in-memory AWS of fake-aws.ts (issue 27's conformance test): a certificate
// with three names whose validation records are declared per validation option inside apply(), and a wait
// until it is ISSUED that depends on those records.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { program, wait } from "../../src/index.js";
import { acm, route53 } from "../../src/providers/aws/index.js";
import { FakeClock } from "../../src/testing/fake-clock.js";
import { fakeAws } from "../providers/aws/fake-aws.js";

const ZONE = "Z0FAKE123";
const names = { list: ["app.example.dev", "www.app.example.dev", "api.app.example.dev"] };

const certificateProgram = () =>
  program("deferred-cert", () => {
    const [domainName, ...subjectAlternativeNames] = names.list;
    const cert = new acm.Certificate("cert", { domainName: domainName!, subjectAlternativeNames, validationMethod: "DNS" });
    const records = cert.domainValidationOptions.apply((options) =>
      options.map((o) => new route53.RecordSet(`validation-${o.domainName}`, {
        zoneId: ZONE, name: o.resourceRecord!.name, type: o.resourceRecord!.type, ttl: 60, records: [o.resourceRecord!.value],
      })),
    );
    const issued = wait(cert, { name: "issued", until: (c) => c.status.eq(acm.Certificate.Status.Issued), dependsOn: records });
    return { arn: issued.arn };
  });

let aws: ReturnType<typeof fakeAws>;
let dir: string;
beforeEach(async () => {
  aws = fakeAws({ zoneName: "example.dev", zoneId: ZONE });
  dir = await mkdtemp(join(tmpdir(), "cairn-deferred-"));
  names.list = ["app.example.dev", "www.app.example.dev", "api.app.example.dev"];
});
afterEach(async () => {
  aws.restore();
  await rm(dir, { recursive: true, force: true });
});

/** A fresh program and stack on the same state folder: what a new process would see. */
const stack = () => certificateProgram().stack({ stack: "dev", backend: `file://${dir}`, passphrase: "p", clock: new FakeClock({ auto: true }) });
const recordNames = () => [...aws.records.values()].map((r) => r.Name).sort();
const live = () => [...aws.certs.values()].filter((c) => !c.deleted);

describe("deferred validation records of a certificate with three names", () => {
  it("preview shows the three records as deferred, by name, and the wait that reads them", async () => {
    const plan = await stack().preview();
    expect(plan.diagnostics).toEqual([]);
    expect(plan.steps.map((s) => s.kind)).toEqual(["create"]);
    expect(plan.deferred?.map((d) => `${d.kind} ${d.name}`)).toEqual([
      "declared validation-app.example.dev",
      "declared validation-www.app.example.dev",
      "declared validation-api.app.example.dev",
      "node issued",
    ]);
    expect(new Set(plan.deferred?.map((d) => d.waitsFor))).toEqual(new Set(["cert.domainValidationOptions"]));
    expect(aws.names().filter((n) => !n.startsWith("route53 ListHostedZones"))).toEqual([]); // preview calls nothing that changes the cloud
  });

  it("one up creates the certificate, then the three records, then passes the wait; nothing is left to do", async () => {
    const r = await stack().up();
    expect(r.summary?.ok).toBe(true);
    expect(r.rounds?.map((x) => x.plan.steps.filter((s) => s.kind !== "same").map((s) => s.kind).sort())).toEqual([["create"], ["create", "create", "create", "wait"]]);
    expect(live().length).toBe(1);
    expect(live()[0]!.detail.Status).toBe("ISSUED");
    expect(aws.records.size).toBe(3);
    const order = aws.names().filter((n) => n === "acm RequestCertificate" || n === "route53 ChangeResourceRecordSets");
    expect(order[0]).toBe("acm RequestCertificate");
    expect(order.slice(1).every((n) => n === "route53 ChangeResourceRecordSets")).toBe(true);
    expect(r.outputs?.arn).toBe(live()[0]!.detail.CertificateArn);
    const again = await stack().preview();
    expect(again.deferred).toBeUndefined();
    expect(again.steps.filter((s) => s.kind !== "same" && !(s.kind === "wait" && !s.needed))).toEqual([]);
  });

  it("removing a name replaces the certificate, keeps the records meanwhile, then deletes exactly one", async () => {
    await stack().up();
    const before = recordNames();
    names.list = ["app.example.dev", "www.app.example.dev"];
    const plan = await stack().preview();
    expect(plan.steps.filter((s) => s.kind === "delete")).toEqual([]);
    expect(plan.deferred?.filter((d) => d.kind === "kept").map((d) => d.name).sort()).toEqual(["validation-api.app.example.dev", "validation-app.example.dev", "validation-www.app.example.dev"]);
    const r = await stack().up();
    expect(r.summary?.ok).toBe(true);
    expect(aws.records.size).toBe(2);
    expect(before.filter((n) => !recordNames().includes(n))).toEqual([expect.stringMatching(/\.api\.app\.example\.dev\.$/)]);
    expect(live().length).toBe(1);
    expect(live()[0]!.detail.SubjectAlternativeNames).toEqual(["app.example.dev", "www.app.example.dev"]);
  });

  it("stopped between rounds, a new run converges without duplicates", async () => {
    // The first round is applied and recorded; the run stops before the second (as a kill would).
    const first = await stack().up({ confirm: async (_plan, info) => (info?.round ?? 1) === 1 });
    expect(first.rounds?.length).toBe(2);
    expect(live().length).toBe(1);
    expect(aws.records.size).toBe(0);
    const r = await stack().up();
    expect(r.summary?.ok).toBe(true);
    expect(r.rounds).toBeUndefined(); // the values are known now: one round plans it all
    expect(aws.names().filter((n) => n === "acm RequestCertificate").length).toBe(1);
    expect(live().length).toBe(1);
    expect(aws.records.size).toBe(3);
  });
});
