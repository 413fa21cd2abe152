import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mockClient } from "aws-sdk-client-mock";
import { ChangeResourceRecordSetsCommand, GetChangeCommand, InvalidChangeBatch, Route53Client, type Change } from "@aws-sdk/client-route-53";
import { asUrn } from "../../../../src/core/urn.js";
import { FakeClock } from "../../../../src/testing/fake-clock.js";
import { BATCH_LIMITS, splitBatches } from "../../../../src/providers/aws/route53/batch.js";
import { recordSetProvider } from "../../../../src/providers/aws/route53/record-set.provider.js";
import type { RecordSetInputs } from "../../../../src/providers/aws/generated/route53/record-set.js";
import { fakeAws } from "../fake-aws.js";
import { testCtx } from "../ctx.js";

let aws: ReturnType<typeof fakeAws>;
beforeEach(() => {
  aws = fakeAws({ zoneName: "example.dev", zoneId: "Z1" });
});
afterEach(() => aws.restore());

const urn = (i: number) => asUrn(`urn:cairn:dev::site::aws:route53:RecordSet::r${i}`);
const record = (i: number, over: Partial<RecordSetInputs> = {}): RecordSetInputs => ({ zoneId: "Z1", name: `_v${i}.example.dev`, type: "CNAME", records: [`_t${i}.acm-validations.aws`], ...over });
const changeCalls = () => aws.calls.filter((c) => c.command === "ChangeResourceRecordSets").map((c) => (c.input as { HostedZoneId: string; ChangeBatch: { Changes: Change[] } }));
/** One clock for every operation, as in a run. */
const ctxs = () => {
  const clock = new FakeClock({ auto: true });
  return () => testCtx({ clock });
};

describe("Route 53 changes batched per zone", () => {
  it("50 records created together go in one ChangeResourceRecordSets and share one GetChange; each gets its own outputs", async () => {
    const ctx = ctxs();
    const created = await Promise.all(Array.from({ length: 50 }, (_, i) => recordSetProvider.create({ urn: urn(i), inputs: record(i), ctx: ctx() })));
    const calls = changeCalls();
    expect(calls).toHaveLength(1);
    expect(calls[0]!.ChangeBatch.Changes).toHaveLength(50);
    expect(calls[0]!.ChangeBatch.Changes.map((c) => c.ResourceRecordSet!.Name)).toEqual(Array.from({ length: 50 }, (_, i) => `_v${i}.example.dev.`));
    expect(aws.names().filter((n) => n === "route53 GetChange")).toHaveLength(1);
    expect(created.map((c) => c.id)).toEqual(Array.from({ length: 50 }, (_, i) => `Z1__v${i}.example.dev_CNAME`));
    expect(created[7]!.outputs).toMatchObject({ name: "_v7.example.dev", records: ["_t7.acm-validations.aws"] });
    expect(aws.records.size).toBe(50);
  });

  it("50 records deleted together go in one request", async () => {
    const ctx = ctxs();
    const made = await Promise.all(Array.from({ length: 50 }, (_, i) => recordSetProvider.create({ urn: urn(i), inputs: record(i), ctx: ctx() })));
    await Promise.all(made.map((m, i) => recordSetProvider.delete({ urn: urn(i), id: m.id, inputs: record(i), outputs: m.outputs, ctx: ctx() })));
    const deletes = changeCalls().slice(1);
    expect(deletes).toHaveLength(1);
    expect(deletes[0]!.ChangeBatch.Changes.every((c) => c.Action === "DELETE")).toBe(true);
    expect(deletes[0]!.ChangeBatch.Changes).toHaveLength(50);
    expect(aws.records.size).toBe(0);
  });

  it("records of different zones go in one request per zone", async () => {
    const ctx = ctxs();
    const results = await Promise.allSettled([0, 1, 2, 3].map((i) => recordSetProvider.create({ urn: urn(i), inputs: record(i, i % 2 ? { zoneId: "Z2" } : {}), ctx: ctx() })));
    // One request per zone; the two zones' batches are independent, so which is sent first is not fixed.
    expect(changeCalls().map((c) => [c.HostedZoneId, c.ChangeBatch.Changes.length]).sort()).toEqual([["Z1", 2], ["Z2", 2]]);
    // The fake has no zone Z2: both of its records fail, each naming its own change, and Z1's are unharmed.
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled", "rejected"]);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/NoSuchHostedZone.*CREATE _v1\.example\.dev\. CNAME/s);
    expect(String((results[3] as PromiseRejectedResult).reason)).toMatch(/CREATE _v3\.example\.dev\. CNAME/);
  });

  it("one refused record fails alone, naming itself; the others are sent again and succeed", async () => {
    // GIVEN a record that already exists with other values
    aws.records.set("_v1.example.dev.|CNAME", { Name: "_v1.example.dev.", Type: "CNAME", TTL: 300, ResourceRecords: [{ Value: "someone-else" }] });
    const ctx = ctxs();
    // WHEN three records are created together
    const results = await Promise.allSettled([0, 1, 2].map((i) => recordSetProvider.create({ urn: urn(i), inputs: record(i), ctx: ctx() })));
    // THEN the batch was refused whole, sent again without the culprit, and only the culprit fails
    expect(changeCalls().map((c) => c.ChangeBatch.Changes.map((ch) => ch.ResourceRecordSet!.Name))).toEqual([
      ["_v0.example.dev.", "_v1.example.dev.", "_v2.example.dev."],
      ["_v0.example.dev.", "_v2.example.dev."],
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/_v1\.example\.dev CNAME already exists in zone Z1.*allowOverwrite/);
    expect(aws.records.get("_v0.example.dev.|CNAME")).toBeDefined();
    expect(aws.records.get("_v1.example.dev.|CNAME")?.ResourceRecords).toEqual([{ Value: "someone-else" }]);
  });
});

describe("a refused batch that does not say which record", () => {
  it("is halved until the culprit stands alone: it fails with Route 53's words, the others succeed", async () => {
    aws.restore();
    const r53 = mockClient(Route53Client);
    const sent: string[][] = [];
    r53.on(ChangeResourceRecordSetsCommand).callsFake((input: { ChangeBatch: { Changes: Change[] } }) => {
      const names = input.ChangeBatch.Changes.map((c) => c.ResourceRecordSet!.Name!);
      sent.push(names);
      if (names.includes("_v2.example.dev.")) throw new InvalidChangeBatch({ message: "RRSet of type CNAME with DNS name _v2.example.dev. is not permitted", $metadata: {} });
      return { ChangeInfo: { Id: `/change/C${sent.length}`, Status: "INSYNC", SubmittedAt: new Date() } };
    });
    r53.on(GetChangeCommand).resolves({ ChangeInfo: { Id: "C", Status: "INSYNC", SubmittedAt: new Date() } });
    const ctx = ctxs();
    const results = await Promise.allSettled([0, 1, 2, 3].map((i) => recordSetProvider.create({ urn: urn(i), inputs: record(i), ctx: ctx() })));
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled"]);
    expect(String((results[2] as PromiseRejectedResult).reason)).toMatch(/InvalidChangeBatch: RRSet of type CNAME with DNS name _v2\.example\.dev\. is not permitted/);
    expect(sent).toEqual([
      ["_v0.example.dev.", "_v1.example.dev.", "_v2.example.dev.", "_v3.example.dev."],
      ["_v0.example.dev.", "_v1.example.dev."],
      ["_v2.example.dev.", "_v3.example.dev."],
      ["_v2.example.dev."],
      ["_v3.example.dev."],
    ]);
    r53.restore();
  });
});

describe("splitting changes at the API's limits", () => {
  const upsert = (i: number, valueLength: number, values = 1): { change: Change } => ({
    change: { Action: "UPSERT", ResourceRecordSet: { Name: `r${i}.example.dev`, Type: "TXT", TTL: 60, ResourceRecords: Array.from({ length: values }, () => ({ Value: "x".repeat(valueLength) })) } },
  });
  const create = (i: number, valueLength = 10): { change: Change } => ({ change: { ...upsert(i, valueLength).change, Action: "CREATE" } });

  it("keeps 50 small changes in one request", () => {
    expect(splitBatches(Array.from({ length: 50 }, (_, i) => create(i))).map((b) => b.length)).toEqual([50]);
  });

  it("starts a new request before 32,000 characters of values, an UPSERT's counting twice", () => {
    // 4,000 characters each: 8 CREATEs fit (32,000), only 4 UPSERTs do (4 × 8,000).
    expect(splitBatches(Array.from({ length: 9 }, (_, i) => create(i, 4000))).map((b) => b.length)).toEqual([8, 1]);
    expect(splitBatches(Array.from({ length: 9 }, (_, i) => upsert(i, 4000))).map((b) => b.length)).toEqual([4, 4, 1]);
    expect(BATCH_LIMITS.valueChars).toBe(32_000);
  });

  it("starts a new request before 1,000 changes or 1,000 values", () => {
    expect(splitBatches(Array.from({ length: 1001 }, (_, i) => create(i, 1))).map((b) => b.length)).toEqual([1000, 1]);
    expect(splitBatches(Array.from({ length: 3 }, (_, i) => upsert(i, 1, 300))).map((b) => b.length)).toEqual([1, 1, 1]);
  });

  it("never puts two changes to one record set in one request, and keeps their order", () => {
    const del: { change: Change } = { change: { Action: "DELETE", ResourceRecordSet: { Name: "R0.example.dev.", Type: "TXT", ResourceRecords: [{ Value: "a" }] } } };
    const batches = splitBatches([del, create(1), create(0)]);
    expect(batches.map((b) => b.map((x) => x.change.Action))).toEqual([["DELETE", "CREATE"], ["CREATE"]]);
  });
});
