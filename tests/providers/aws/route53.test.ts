import { beforeEach, describe, expect, it } from "vitest";
import { mockClient } from "aws-sdk-client-mock";
import {
  ChangeResourceRecordSetsCommand,
  CreateHostedZoneCommand,
  DeleteHostedZoneCommand,
  GetChangeCommand,
  GetHostedZoneCommand,
  HostedZoneAlreadyExists,
  HostedZoneNotEmpty,
  InvalidChangeBatch,
  ListHostedZonesByNameCommand,
  ListResourceRecordSetsCommand,
  NoSuchHostedZone,
  PriorRequestNotComplete,
  Route53Client,
  UpdateHostedZoneCommentCommand,
  type HostedZone as ZoneInfo,
  type ResourceRecordSet,
} from "@aws-sdk/client-route-53";
import { asUrn } from "../../../src/core/urn.js";
import type { Diagnostic } from "../../../src/provider/provider.js";
import { minutes } from "../../../src/core/duration.js";
import { fqdn, normalizeChangeId, normalizeName, normalizeZoneId, sameName, zoneArn } from "../../../src/providers/aws/route53/names.js";
import { callerReference, hostedZoneProvider } from "../../../src/providers/aws/route53/hosted-zone.provider.js";
import { parseRecordSetId, quoteTxt, recordSetId, recordSetProvider } from "../../../src/providers/aws/route53/record-set.provider.js";
import type { HostedZoneInputs, HostedZoneOutputs } from "../../../src/providers/aws/generated/route53/hosted-zone.js";
import type { RecordSetInputs, RecordSetOutputs } from "../../../src/providers/aws/generated/route53/record-set.js";
import { testCtx } from "./ctx.js";

const r53 = mockClient(Route53Client);
beforeEach(() => {
  r53.reset();
});

const zoneUrn = asUrn("urn:cairn:dev::site::aws:route53:HostedZone::zone");
const recordUrn = asUrn("urn:cairn:dev::site::aws:route53:RecordSet::www");
const NS = ["ns-1.awsdns-01.org", "ns-2.awsdns-02.com"];

const err = (name: string, message = name, extra: Record<string, unknown> = {}) => Object.assign(new Error(message), { name, $metadata: {}, ...extra });
const throttling = () => err("Throttling", "Rate exceeded", { $fault: "client", $metadata: { httpStatusCode: 400 } });
const accessDenied = () => err("AccessDenied", "User is not authorized to perform route53:GetHostedZone", { $fault: "client", $metadata: { httpStatusCode: 403 } });
const zone = (id: string, name: string, extra: Partial<ZoneInfo> = {}): ZoneInfo => ({ Id: `/hostedzone/${id}`, Name: name, CallerReference: `ref-${id}`, ...extra });

describe("route53 names", () => {
  it("normalises case, trailing dots and octal escapes", () => {
    expect(normalizeName("\\052.Example.DEV.")).toBe("*.example.dev");
    expect(normalizeName(" www.example.dev ")).toBe("www.example.dev");
    expect(fqdn("WWW.example.dev")).toBe("www.example.dev.");
    expect(fqdn("www.example.dev.")).toBe("www.example.dev.");
    expect(sameName("www.example.dev.", "WWW.Example.dev")).toBe(true);
  });

  it("strips id prefixes and builds ARNs", () => {
    expect(normalizeZoneId("/hostedzone/Z123")).toBe("Z123");
    expect(normalizeZoneId("Z123")).toBe("Z123");
    expect(normalizeChangeId("/change/C9")).toBe("C9");
    expect(zoneArn("/hostedzone/Z123")).toBe("arn:aws:route53:::hostedzone/Z123");
  });
});

describe("HostedZone provider", () => {
  const created = (ref: string) => ({
    HostedZone: { Id: "/hostedzone/Z1", Name: "example.dev.", CallerReference: ref, Config: { Comment: "main", PrivateZone: false }, ResourceRecordSetCount: 2 },
    DelegationSet: { NameServers: NS },
    ChangeInfo: { Id: "/change/C0", Status: "PENDING" as const, SubmittedAt: new Date() },
    Location: "https://route53.amazonaws.com/2013-04-01/hostedzone/Z1",
  });

  it("creates a zone with a URN-derived caller reference and normalised outputs", async () => {
    r53.on(CreateHostedZoneCommand).callsFake((input: { CallerReference: string }) => created(input.CallerReference));
    const ctx = testCtx();
    const res = await hostedZoneProvider.create({ urn: zoneUrn, inputs: { name: "Example.DEV.", comment: "main" }, ctx });
    expect(res).toEqual({
      id: "Z1",
      outputs: { zoneId: "Z1", arn: "arn:aws:route53:::hostedzone/Z1", name: "example.dev", nameServers: NS, comment: "main", recordCount: 2 },
    });
    const input = r53.commandCalls(CreateHostedZoneCommand)[0]!.args[0].input;
    expect(input).toEqual({ Name: "example.dev", CallerReference: callerReference(zoneUrn, "example.dev"), HostedZoneConfig: { Comment: "main" } });
  });

  it("sends no HostedZoneConfig without a comment, and derives the same reference for the same URN", async () => {
    r53.on(CreateHostedZoneCommand).callsFake((input: { CallerReference: string }) => created(input.CallerReference));
    await hostedZoneProvider.create({ urn: zoneUrn, inputs: { name: "example.dev" }, ctx: testCtx() });
    const input = r53.commandCalls(CreateHostedZoneCommand)[0]!.args[0].input;
    expect(input.HostedZoneConfig).toBeUndefined();
    expect(callerReference(zoneUrn, "example.dev")).toBe(callerReference(zoneUrn, "EXAMPLE.dev."));
    expect(callerReference(zoneUrn, "example.dev")).not.toBe(callerReference(asUrn("urn:cairn:prod::site::aws:route53:HostedZone::zone"), "example.dev"));
    expect(callerReference(zoneUrn, "example.dev").length).toBeLessThanOrEqual(128);
  });

  it("adopts the zone a crashed create already made (same caller reference)", async () => {
    const ref = callerReference(zoneUrn, "example.dev");
    r53.on(CreateHostedZoneCommand).rejects(new HostedZoneAlreadyExists({ message: "A hosted zone has already been created with the specified caller reference.", $metadata: {} }));
    r53.on(ListHostedZonesByNameCommand).resolves({
      HostedZones: [zone("ZOTHER", "example.dev.", { CallerReference: "someone-else" }), zone("Z1", "example.dev.", { CallerReference: ref, Config: { Comment: "main" } })],
      IsTruncated: false,
      MaxItems: 100,
    });
    r53.on(GetHostedZoneCommand, { Id: "Z1" }).resolves({ HostedZone: zone("Z1", "example.dev.", { CallerReference: ref, Config: { Comment: "main" } }), DelegationSet: { NameServers: NS } });
    const res = await hostedZoneProvider.create({ urn: zoneUrn, inputs: { name: "example.dev", comment: "main" }, ctx: testCtx() });
    expect(res.id).toBe("Z1");
    expect(res.outputs.nameServers).toEqual(NS);
    expect(r53.commandCalls(CreateHostedZoneCommand)).toHaveLength(1);
    expect(r53.commandCalls(ListHostedZonesByNameCommand)[0]!.args[0].input).toMatchObject({ DNSName: "example.dev" });
    expect(r53.commandCalls(UpdateHostedZoneCommentCommand)).toHaveLength(0);
  });

  it("refuses to take over a zone of the same name it did not create, explaining HostedZone.get", async () => {
    r53.on(CreateHostedZoneCommand).rejects(new HostedZoneAlreadyExists({ message: "already created", $metadata: {} }));
    r53.on(ListHostedZonesByNameCommand).resolves({ HostedZones: [zone("ZOTHER", "example.dev.", { CallerReference: "console-1" })], IsTruncated: false, MaxItems: 100 });
    const p = hostedZoneProvider.create({ urn: zoneUrn, inputs: { name: "example.dev" }, ctx: testCtx() });
    await expect(p).rejects.toThrow(/hosted zone named example\.dev already exists \(ZOTHER\)/);
    await expect(p).rejects.toThrow(/HostedZone\.get\("zone", \{ name: "example\.dev" \}\)/);
  });

  it("retries with a fresh reference when a deleted zone used the plain one", async () => {
    const ref = callerReference(zoneUrn, "example.dev");
    // The general behaviour first: a later, more specific matcher takes precedence.
    r53.on(CreateHostedZoneCommand).callsFake((input: { CallerReference: string }) => created(input.CallerReference));
    r53.on(CreateHostedZoneCommand, { CallerReference: ref }).rejects(new HostedZoneAlreadyExists({ message: "already created", $metadata: {} }));
    r53.on(ListHostedZonesByNameCommand).resolves({ HostedZones: [zone("ZX", "other.dev.")], IsTruncated: false, MaxItems: 100 });
    const res = await hostedZoneProvider.create({ urn: zoneUrn, inputs: { name: "example.dev" }, ctx: testCtx() });
    expect(res.id).toBe("Z1");
    const refs = r53.commandCalls(CreateHostedZoneCommand).map((c) => c.args[0].input.CallerReference);
    expect(refs).toHaveLength(2);
    expect(refs[1]).toMatch(new RegExp(`^${ref}-\\d+$`));
  });

  it("reads a zone (either id form) and reports a deleted one as gone", async () => {
    r53.on(GetHostedZoneCommand, { Id: "Z1" }).resolves({ HostedZone: zone("Z1", "Example.dev.", { ResourceRecordSetCount: 3 }), DelegationSet: { NameServers: NS } });
    r53.on(GetHostedZoneCommand, { Id: "ZGONE" }).rejects(new NoSuchHostedZone({ message: "No hosted zone found with ID: ZGONE", $metadata: {} }));
    const outputs = {} as HostedZoneOutputs;
    const inputs = {} as HostedZoneInputs;
    expect(await hostedZoneProvider.read({ urn: zoneUrn, id: "/hostedzone/Z1", inputs, outputs, ctx: testCtx() })).toEqual({
      zoneId: "Z1", arn: "arn:aws:route53:::hostedzone/Z1", name: "example.dev", nameServers: NS, recordCount: 3,
    });
    expect(await hostedZoneProvider.read({ urn: zoneUrn, id: "ZGONE", inputs, outputs, ctx: testCtx() })).toBeUndefined();
  });

  describe("lookup", () => {
    it("finds a zone by name (case, trailing dot), preferring the public one", async () => {
      r53.on(ListHostedZonesByNameCommand).resolves({
        HostedZones: [
          zone("ZPRIV", "example.dev.", { Config: { PrivateZone: true } }),
          zone("ZPUB", "example.dev.", { Config: { PrivateZone: false } }),
          zone("ZSUB", "sub.example.dev."),
        ],
        IsTruncated: true,
        NextDNSName: "sub.example.dev.",
        MaxItems: 3,
      });
      r53.on(GetHostedZoneCommand, { Id: "ZPUB" }).resolves({ HostedZone: zone("ZPUB", "example.dev."), DelegationSet: { NameServers: NS } });
      const res = await hostedZoneProvider.lookup!({ urn: zoneUrn, query: { name: "EXAMPLE.dev." }, ctx: testCtx() });
      expect(res?.id).toBe("ZPUB");
      expect(res?.outputs.name).toBe("example.dev");
      expect(r53.commandCalls(ListHostedZonesByNameCommand)).toHaveLength(1);
      expect(r53.commandCalls(ListHostedZonesByNameCommand)[0]!.args[0].input.DNSName).toBe("example.dev");
    });

    it("fails when several public zones match, listing their ids", async () => {
      r53.on(ListHostedZonesByNameCommand).resolves({ HostedZones: [zone("ZA", "example.dev."), zone("ZB", "example.dev.")], IsTruncated: false, MaxItems: 100 });
      await expect(hostedZoneProvider.lookup!({ urn: zoneUrn, query: { name: "example.dev" }, ctx: testCtx() })).rejects.toThrow(
        /2 public hosted zones are named example\.dev \(ZA, ZB\).*zoneId/,
      );
    });

    it("answers undefined when no zone has the name", async () => {
      r53.on(ListHostedZonesByNameCommand).resolves({ HostedZones: [zone("ZX", "example.org.")], IsTruncated: false, MaxItems: 100 });
      expect(await hostedZoneProvider.lookup!({ urn: zoneUrn, query: { name: "example.dev" }, ctx: testCtx() })).toBeUndefined();
      expect(r53.commandCalls(GetHostedZoneCommand)).toHaveLength(0);
    });

    it("finds a zone by id, or answers undefined", async () => {
      r53.on(GetHostedZoneCommand, { Id: "Z1" }).resolves({ HostedZone: zone("Z1", "example.dev."), DelegationSet: { NameServers: NS } });
      r53.on(GetHostedZoneCommand, { Id: "Z404" }).rejects(new NoSuchHostedZone({ message: "nope", $metadata: {} }));
      expect((await hostedZoneProvider.lookup!({ urn: zoneUrn, query: { zoneId: "/hostedzone/Z1" }, ctx: testCtx() }))?.outputs.zoneId).toBe("Z1");
      expect(await hostedZoneProvider.lookup!({ urn: zoneUrn, query: { zoneId: "Z404" }, ctx: testCtx() })).toBeUndefined();
    });
  });

  it("diffs: normalised names are the same, a new name replaces, a comment updates", () => {
    const outputs: HostedZoneOutputs = { zoneId: "Z1", arn: "a", name: "example.dev", nameServers: NS, comment: "x" };
    const diff = (olds: HostedZoneInputs, news: HostedZoneInputs) => hostedZoneProvider.diff!({ urn: zoneUrn, id: "Z1", olds, news, outputs });
    expect(diff({ name: "example.dev", comment: "x" }, { name: "Example.DEV.", comment: "x" })).toEqual({ kind: "same" });
    expect(diff({ name: "example.dev", comment: "x" }, { name: "example.org", comment: "x" })).toMatchObject({ kind: "replace", replaceKeys: ["name"] });
    expect(diff({ name: "example.dev", comment: "x" }, { name: "example.dev", comment: "y" })).toMatchObject({ kind: "update", changed: ["comment"] });
  });

  it("updates the comment in place, and removes it when unset", async () => {
    r53.on(UpdateHostedZoneCommentCommand).callsFake((input: { Comment?: string }) => ({
      HostedZone: zone("Z1", "example.dev.", { Config: input.Comment ? { Comment: input.Comment } : {} }),
    }));
    const outputs: HostedZoneOutputs = { zoneId: "Z1", arn: "arn:aws:route53:::hostedzone/Z1", name: "example.dev", nameServers: NS, comment: "old" };
    const updated = await hostedZoneProvider.update!({ urn: zoneUrn, id: "Z1", olds: { name: "example.dev", comment: "old" }, news: { name: "example.dev", comment: "new" }, outputs, ctx: testCtx() });
    expect(updated).toMatchObject({ comment: "new", nameServers: NS });
    expect(r53.commandCalls(UpdateHostedZoneCommentCommand)[0]!.args[0].input).toEqual({ Id: "Z1", Comment: "new" });
    const cleared = await hostedZoneProvider.update!({ urn: zoneUrn, id: "Z1", olds: { name: "example.dev", comment: "new" }, news: { name: "example.dev" }, outputs: updated, ctx: testCtx() });
    expect(cleared.comment).toBeUndefined();
    expect("comment" in cleared).toBe(false);
    expect(r53.commandCalls(UpdateHostedZoneCommentCommand)[1]!.args[0].input).toEqual({ Id: "Z1" });
  });

  describe("delete", () => {
    const outputs: HostedZoneOutputs = { zoneId: "Z1", arn: "arn:aws:route53:::hostedzone/Z1", name: "example.dev", nameServers: NS };
    const del = () => hostedZoneProvider.delete({ urn: zoneUrn, id: "Z1", inputs: { name: "example.dev" }, outputs, ctx: testCtx() });

    it("deletes the zone; a zone already gone is success", async () => {
      r53.on(DeleteHostedZoneCommand).resolvesOnce({ ChangeInfo: { Id: "/change/C1", Status: "PENDING", SubmittedAt: new Date() } }).rejects(new NoSuchHostedZone({ message: "gone", $metadata: {} }));
      await del();
      await del();
      expect(r53.commandCalls(DeleteHostedZoneCommand)).toHaveLength(2);
    });

    it("explains a zone that still has records, naming a few", async () => {
      r53.on(DeleteHostedZoneCommand).rejects(new HostedZoneNotEmpty({ message: "The specified hosted zone contains non-required resource record sets and so cannot be deleted.", $metadata: {} }));
      r53.on(ListResourceRecordSetsCommand).resolves({
        ResourceRecordSets: [
          { Name: "example.dev.", Type: "NS", TTL: 172800, ResourceRecords: [{ Value: "ns-1.awsdns-01.org." }] },
          { Name: "example.dev.", Type: "SOA", TTL: 900, ResourceRecords: [{ Value: "ns-1 admin 1 7200 900 1209600 86400" }] },
          { Name: "_dmarc.example.dev.", Type: "TXT", TTL: 300, ResourceRecords: [{ Value: '"v=DMARC1"' }] },
          { Name: "\\052.example.dev.", Type: "A", TTL: 300, ResourceRecords: [{ Value: "192.0.2.1" }] },
          { Name: "sub.example.dev.", Type: "NS", TTL: 300, ResourceRecords: [{ Value: "ns.other." }] },
        ],
        IsTruncated: false,
        MaxItems: 20,
      });
      const e = await del().then(() => new Error("expected delete to fail"), (x: unknown) => x as Error);
      expect(e.message).toMatch(/HostedZoneNotEmpty/);
      expect(e.message).toMatch(/example\.dev \(Z1\) still holds records other than its SOA and NS: _dmarc\.example\.dev TXT, \*\.example\.dev A, sub\.example\.dev NS/);
      expect(e.message).toMatch(/Delete them first, or declare them as route53\.RecordSet resources/);
      expect(e.message).not.toMatch(/example\.dev SOA/);
    });
  });

  describe("errors", () => {
    const read = () => hostedZoneProvider.read({ urn: zoneUrn, id: "Z1", inputs: { name: "example.dev" }, outputs: {} as HostedZoneOutputs, ctx: testCtx() });

    it("retries throttling, then succeeds", async () => {
      r53.on(GetHostedZoneCommand).rejectsOnce(throttling()).rejectsOnce(throttling()).resolves({ HostedZone: zone("Z1", "example.dev."), DelegationSet: { NameServers: NS } });
      expect((await read())?.zoneId).toBe("Z1");
      expect(r53.commandCalls(GetHostedZoneCommand)).toHaveLength(3);
    });

    it("fails at once on access denied, naming the permission", async () => {
      r53.on(GetHostedZoneCommand).rejects(accessDenied());
      await expect(read()).rejects.toThrow(/Route 53 GetHostedZone failed: AccessDenied: .*route53:GetHostedZone/);
      expect(r53.commandCalls(GetHostedZoneCommand)).toHaveLength(1);
    });
  });
});

describe("RecordSet provider", () => {
  const base: RecordSetInputs = { zoneId: "Z1", name: "www.example.dev", type: "CNAME", records: ["example.dev"] };
  const submitted = (id = "C1") => ({ ChangeInfo: { Id: `/change/${id}`, Status: "PENDING" as const, SubmittedAt: new Date() } });
  const insync = { ChangeInfo: { Id: "/change/C1", Status: "INSYNC" as const, SubmittedAt: new Date() } };
  const pending = { ChangeInfo: { Id: "/change/C1", Status: "PENDING" as const, SubmittedAt: new Date() } };
  const sentChange = (i = 0) => r53.commandCalls(ChangeResourceRecordSetsCommand)[i]!.args[0].input.ChangeBatch!.Changes![0]!;
  const create = (inputs: RecordSetInputs, ctx = testCtx()) => recordSetProvider.create({ urn: recordUrn, inputs, ctx });

  describe("create", () => {
    it("CREATEs the record, waits for INSYNC (PENDING twice), and stores normalised outputs", async () => {
      r53.on(ChangeResourceRecordSetsCommand).resolves(submitted());
      r53.on(GetChangeCommand).resolvesOnce(pending).resolvesOnce(pending).resolves(insync);
      const ctx = testCtx();
      const start = ctx.clock.now();
      const res = await create({ ...base, zoneId: "/hostedzone/Z1", name: "WWW.Example.dev." }, ctx);
      expect(res.id).toBe("Z1_www.example.dev_CNAME");
      expect(res.outputs).toEqual({ zoneId: "Z1", name: "www.example.dev", fqdn: "www.example.dev.", type: "CNAME", ttl: 300, records: ["example.dev"], changeId: "C1" });
      expect(Object.values(res.outputs)).not.toContain(undefined);
      expect(r53.commandCalls(ChangeResourceRecordSetsCommand)[0]!.args[0].input.HostedZoneId).toBe("Z1");
      expect(sentChange()).toEqual({
        Action: "CREATE",
        ResourceRecordSet: { Name: "www.example.dev.", Type: "CNAME", TTL: 300, ResourceRecords: [{ Value: "example.dev" }] },
      });
      expect(r53.commandCalls(GetChangeCommand)).toHaveLength(3);
      expect(r53.commandCalls(GetChangeCommand)[0]!.args[0].input).toEqual({ Id: "C1" });
      // Backoff 2 s, 3 s, 4.5 s on the fake clock.
      expect(ctx.clock.now() - start).toBe(9_500);
    });

    it("UPSERTs with allowOverwrite, and makes no GetChange call with waitForSync: false", async () => {
      r53.on(ChangeResourceRecordSetsCommand).resolves(submitted());
      await create({ ...base, allowOverwrite: true, waitForSync: false });
      expect(sentChange().Action).toBe("UPSERT");
      expect(r53.commandCalls(GetChangeCommand)).toHaveLength(0);
    });

    it("quotes TXT values that are not quoted yet, splitting long ones", async () => {
      r53.on(ChangeResourceRecordSetsCommand).resolves(submitted());
      const long = "k".repeat(300);
      const res = await create({ zoneId: "Z1", name: "example.dev", type: "TXT", ttl: 60, records: ["v=spf1 -all", '"already quoted"', 'say "hi"', long], waitForSync: false });
      const values = ['"v=spf1 -all"', '"already quoted"', '"say \\"hi\\""', `"${"k".repeat(255)}" "${"k".repeat(45)}"`];
      expect(sentChange().ResourceRecordSet!.ResourceRecords).toEqual(values.map((Value) => ({ Value })));
      expect(sentChange().ResourceRecordSet!.TTL).toBe(60);
      expect(res.outputs.records).toEqual(values);
      expect(quoteTxt("")).toBe('""');
    });

    it("sends an alias target without TTL or records", async () => {
      r53.on(ChangeResourceRecordSetsCommand).resolves(submitted());
      const res = await create({ zoneId: "Z1", name: "example.dev", type: "A", alias: { name: "d111.cloudfront.net", zoneId: "/hostedzone/Z2FDTNDATAQYW2" }, waitForSync: false });
      expect(sentChange().ResourceRecordSet).toEqual({
        Name: "example.dev.",
        Type: "A",
        AliasTarget: { DNSName: "d111.cloudfront.net", HostedZoneId: "Z2FDTNDATAQYW2", EvaluateTargetHealth: false },
      });
      expect(res.outputs).toEqual({
        zoneId: "Z1", name: "example.dev", fqdn: "example.dev.", type: "A", records: [],
        alias: { name: "d111.cloudfront.net", zoneId: "Z2FDTNDATAQYW2", evaluateTargetHealth: false }, changeId: "C1",
      });
      expect("ttl" in res.outputs).toBe(false);
    });

    it("sends weighted records with their set identifier and weight", async () => {
      r53.on(ChangeResourceRecordSetsCommand).resolves(submitted());
      const res = await create({ zoneId: "Z1", name: "api.example.dev", type: "A", records: ["192.0.2.1"], setIdentifier: "blue", weight: 10, waitForSync: false });
      expect(sentChange().ResourceRecordSet).toMatchObject({ SetIdentifier: "blue", Weight: 10 });
      expect(res.id).toBe("Z1_api.example.dev_A_blue");
      expect(res.outputs).toMatchObject({ setIdentifier: "blue", weight: 10 });
    });

    it("when the bound passes, warns that the change is still PENDING and still succeeds", async () => {
      r53.on(ChangeResourceRecordSetsCommand).resolves(submitted());
      r53.on(GetChangeCommand).resolves(pending);
      const ctx = testCtx();
      const start = ctx.clock.now();
      const res = await create(base, ctx);
      expect(res.id).toBe("Z1_www.example.dev_CNAME");
      expect(ctx.clock.now() - start).toBe(minutes(10));
      expect(ctx.logs.filter((l) => l.startsWith("warn:"))).toEqual([expect.stringMatching(/change C1 for www\.example\.dev CNAME was submitted but is still PENDING after 10m0s/)]);
    });

    it("bounds the wait by a smaller operation timeout", async () => {
      r53.on(ChangeResourceRecordSetsCommand).resolves(submitted());
      r53.on(GetChangeCommand).resolves(pending);
      const ctx = testCtx({ timeout: minutes(1) });
      const start = ctx.clock.now();
      await create(base, ctx);
      expect(ctx.clock.now() - start).toBe(minutes(1));
      expect(ctx.logs.some((l) => /still PENDING after 1m0s/.test(l))).toBe(true);
    });

    it("stops waiting when cancelled, without failing the create", async () => {
      r53.on(ChangeResourceRecordSetsCommand).resolves(submitted());
      const ac = new AbortController();
      const ctx = testCtx({ signal: ac.signal });
      r53.on(GetChangeCommand).callsFake(() => {
        ac.abort(new Error("cancelled"));
        return pending;
      });
      const res = await create(base, ctx);
      expect(res.id).toBe("Z1_www.example.dev_CNAME");
      expect(r53.commandCalls(GetChangeCommand)).toHaveLength(1);
      expect(ctx.logs.some((l) => /cancelled/.test(l))).toBe(true);
    });

    it("explains a record that already exists and how to adopt it", async () => {
      r53.on(ChangeResourceRecordSetsCommand).rejects(
        new InvalidChangeBatch({ message: "", messages: ["Tried to create resource record set [name='www.example.dev.', type='CNAME'] but it already exists"], $metadata: {} }),
      );
      const p = create(base);
      await expect(p).rejects.toThrow(/InvalidChangeBatch/);
      await expect(p).rejects.toThrow(/The record www\.example\.dev CNAME already exists in zone Z1\. To adopt \(overwrite\) it, set allowOverwrite: true/);
      expect(r53.commandCalls(ChangeResourceRecordSetsCommand)).toHaveLength(1);
    });

    it("adopts an identical record when a retried CREATE finds it already exists (the first response was lost)", async () => {
      const exists = () => new InvalidChangeBatch({ message: "", messages: ["Tried to create resource record set [name='www.example.dev.', type='CNAME'] but it already exists"], $metadata: {} });
      r53.on(ChangeResourceRecordSetsCommand).rejectsOnce(Object.assign(new Error("socket hang up"), { code: "ECONNRESET" })).rejects(exists());
      r53.on(ListResourceRecordSetsCommand).resolves({
        ResourceRecordSets: [{ Name: "www.example.dev.", Type: "CNAME", TTL: 300, ResourceRecords: [{ Value: "Example.dev." }] }],
        IsTruncated: false,
        MaxItems: 10,
      });
      const ctx = testCtx();
      const res = await create(base, ctx);
      expect(r53.commandCalls(ChangeResourceRecordSetsCommand)).toHaveLength(2);
      expect(res).toEqual({
        id: "Z1_www.example.dev_CNAME",
        outputs: { zoneId: "Z1", name: "www.example.dev", fqdn: "www.example.dev.", type: "CNAME", ttl: 300, records: ["Example.dev."] },
      });
      expect(ctx.logs).toEqual([expect.stringMatching(/www\.example\.dev CNAME in zone Z1 .*adopted an identical existing record/)]);
      expect(r53.commandCalls(GetChangeCommand)).toHaveLength(0);
      // The new outputs diff as the same record: the next plan changes nothing.
      expect(recordSetProvider.diff!({ urn: recordUrn, id: res.id, olds: base, news: base, outputs: res.outputs })).toEqual({ kind: "same" });
    });

    it("adopts identical TXT, alias and weighted records too (as when replacing a tainted record in place)", async () => {
      const exists = new InvalidChangeBatch({ message: "", messages: ["Tried to create resource record set but it already exists"], $metadata: {} });
      r53.on(ChangeResourceRecordSetsCommand).rejects(exists);
      const cases: [RecordSetInputs, ResourceRecordSet][] = [
        [{ zoneId: "Z1", name: "example.dev", type: "TXT", ttl: 60, records: ["b", "v=spf1 -all"] }, { Name: "example.dev.", Type: "TXT", TTL: 60, ResourceRecords: [{ Value: '"v=spf1 -all"' }, { Value: '"b"' }] }],
        [
          { zoneId: "Z1", name: "example.dev", type: "A", alias: { name: "d111.cloudfront.net", zoneId: "Z2FDTNDATAQYW2" } },
          { Name: "example.dev.", Type: "A", AliasTarget: { DNSName: "d111.cloudfront.net.", HostedZoneId: "Z2FDTNDATAQYW2", EvaluateTargetHealth: false } },
        ],
        [
          { zoneId: "Z1", name: "api.example.dev", type: "A", records: ["192.0.2.1"], setIdentifier: "blue", weight: 10 },
          { Name: "api.example.dev.", Type: "A", SetIdentifier: "blue", Weight: 10, TTL: 300, ResourceRecords: [{ Value: "192.0.2.1" }] },
        ],
      ];
      for (const [inputs, rr] of cases) {
        r53.on(ListResourceRecordSetsCommand).resolves({ ResourceRecordSets: [rr], IsTruncated: false, MaxItems: 10 });
        const res = await create(inputs);
        expect(res.id).toBe(recordSetId(inputs.zoneId, inputs.name, inputs.type, inputs.setIdentifier));
        expect(recordSetProvider.diff!({ urn: recordUrn, id: res.id, olds: inputs, news: inputs, outputs: res.outputs })).toEqual({ kind: "same" });
      }
    });

    it("keeps refusing a record that already exists with other values, TTL, alias or weight", async () => {
      r53.on(ChangeResourceRecordSetsCommand).rejects(
        new InvalidChangeBatch({ message: "", messages: ["Tried to create resource record set [name='www.example.dev.', type='CNAME'] but it already exists"], $metadata: {} }),
      );
      const listed: ResourceRecordSet[] = [
        { Name: "www.example.dev.", Type: "CNAME", TTL: 300, ResourceRecords: [{ Value: "other.example.dev" }] },
        { Name: "www.example.dev.", Type: "CNAME", TTL: 60, ResourceRecords: [{ Value: "example.dev" }] },
        { Name: "www.example.dev.", Type: "CNAME", AliasTarget: { DNSName: "example.dev.", HostedZoneId: "Z1", EvaluateTargetHealth: false } },
      ];
      for (const rr of listed) {
        r53.on(ListResourceRecordSetsCommand).resolves({ ResourceRecordSets: [rr], IsTruncated: false, MaxItems: 10 });
        const ctx = testCtx();
        await expect(create(base, ctx)).rejects.toThrow(/The record www\.example\.dev CNAME already exists in zone Z1\. To adopt \(overwrite\) it, set allowOverwrite: true/);
        expect(ctx.logs).toEqual([]);
      }
      const weighted: RecordSetInputs = { zoneId: "Z1", name: "api.example.dev", type: "A", records: ["192.0.2.1"], setIdentifier: "blue", weight: 10 };
      r53.on(ListResourceRecordSetsCommand).resolves({
        ResourceRecordSets: [{ Name: "api.example.dev.", Type: "A", SetIdentifier: "blue", Weight: 20, TTL: 300, ResourceRecords: [{ Value: "192.0.2.1" }] }],
        IsTruncated: false,
        MaxItems: 10,
      });
      await expect(create(weighted)).rejects.toThrow(/already exists.*allowOverwrite: true/);
    });

    it("explains a hosted zone that does not exist", async () => {
      r53.on(ChangeResourceRecordSetsCommand).rejects(new NoSuchHostedZone({ message: "No hosted zone found with ID: ZNOPE", $metadata: {} }));
      await expect(create({ ...base, zoneId: "/hostedzone/ZNOPE" })).rejects.toThrow(/The hosted zone ZNOPE does not exist: check zoneId/);
    });

    it("retries Throttling and PriorRequestNotComplete, then succeeds", async () => {
      r53
        .on(ChangeResourceRecordSetsCommand)
        .rejectsOnce(throttling())
        .rejectsOnce(throttling())
        .rejectsOnce(new PriorRequestNotComplete({ message: "The request was rejected because Route 53 was still processing a prior request.", $metadata: {} }))
        .resolves(submitted());
      const res = await create({ ...base, waitForSync: false });
      expect(res.outputs.changeId).toBe("C1");
      expect(r53.commandCalls(ChangeResourceRecordSetsCommand)).toHaveLength(4);
    });

    it("fails at once on access denied", async () => {
      r53.on(ChangeResourceRecordSetsCommand).rejects(accessDenied());
      await expect(create(base)).rejects.toThrow(/route53:ChangeResourceRecordSets/);
      expect(r53.commandCalls(ChangeResourceRecordSetsCommand)).toHaveLength(1);
    });
  });

  describe("read", () => {
    const stored: RecordSetOutputs = { zoneId: "Z1", name: "www.example.dev", fqdn: "www.example.dev.", type: "CNAME", ttl: 300, records: ["example.dev"], changeId: "C1" };
    const read = (inputs: Partial<RecordSetInputs>, outputs: Partial<RecordSetOutputs>, id = "Z1_www.example.dev_CNAME") =>
      recordSetProvider.read({ urn: recordUrn, id, inputs: inputs as RecordSetInputs, outputs: outputs as RecordSetOutputs, ctx: testCtx() });

    it("finds the record by name and type, keeping the change id", async () => {
      r53.on(ListResourceRecordSetsCommand).resolves({
        ResourceRecordSets: [{ Name: "www.example.dev.", Type: "CNAME", TTL: 600, ResourceRecords: [{ Value: "other.example.dev" }] }],
        IsTruncated: false,
        MaxItems: 10,
      });
      expect(await read({ ...base, name: "WWW.example.dev." }, stored)).toEqual({ ...stored, ttl: 600, records: ["other.example.dev"] });
      expect(r53.commandCalls(ListResourceRecordSetsCommand)[0]!.args[0].input).toMatchObject({ HostedZoneId: "Z1", StartRecordName: "www.example.dev.", StartRecordType: "CNAME" });
    });

    it("reports a missing record or zone as gone", async () => {
      r53.on(ListResourceRecordSetsCommand)
        .resolvesOnce({ ResourceRecordSets: [{ Name: "xyz.example.dev.", Type: "A", TTL: 300, ResourceRecords: [{ Value: "192.0.2.1" }] }], IsTruncated: false, MaxItems: 10 })
        .resolvesOnce({ ResourceRecordSets: [{ Name: "www.example.dev.", Type: "TXT", TTL: 300, ResourceRecords: [{ Value: '"x"' }] }], IsTruncated: false, MaxItems: 10 })
        .resolvesOnce({ ResourceRecordSets: [], IsTruncated: false, MaxItems: 10 })
        .rejects(new NoSuchHostedZone({ message: "gone", $metadata: {} }));
      expect(await read(base, stored)).toBeUndefined();
      expect(await read(base, stored)).toBeUndefined();
      expect(await read(base, stored)).toBeUndefined();
      expect(await read(base, stored)).toBeUndefined();
    });

    it("matches wildcard names Route 53 returns as \\052", async () => {
      r53.on(ListResourceRecordSetsCommand).resolves({
        ResourceRecordSets: [{ Name: "\\052.example.dev.", Type: "A", TTL: 300, ResourceRecords: [{ Value: "192.0.2.1" }] }],
        IsTruncated: false,
        MaxItems: 10,
      });
      const out = await read({ zoneId: "Z1", name: "*.example.dev", type: "A", records: ["192.0.2.1"] }, {}, "Z1_*.example.dev_A");
      expect(out).toEqual({ zoneId: "Z1", name: "*.example.dev", fqdn: "*.example.dev.", type: "A", ttl: 300, records: ["192.0.2.1"] });
      expect(r53.commandCalls(ListResourceRecordSetsCommand)[0]!.args[0].input.StartRecordName).toBe("*.example.dev.");
    });

    it("matches the set identifier among weighted records, following pages", async () => {
      const weighted = (id: string, weight: number): ResourceRecordSet => ({ Name: "api.example.dev.", Type: "A", SetIdentifier: id, Weight: weight, TTL: 60, ResourceRecords: [{ Value: "192.0.2.1" }] });
      r53.on(ListResourceRecordSetsCommand)
        .resolvesOnce({ ResourceRecordSets: [weighted("a", 1)], IsTruncated: true, NextRecordName: "api.example.dev.", NextRecordType: "A", NextRecordIdentifier: "green", MaxItems: 1 })
        .resolves({ ResourceRecordSets: [weighted("green", 5), weighted("blue", 10)], IsTruncated: false, MaxItems: 100 });
      const out = await read({ zoneId: "Z1", name: "api.example.dev", type: "A", records: ["192.0.2.1"], setIdentifier: "green", weight: 5 }, {});
      expect(out).toMatchObject({ setIdentifier: "green", weight: 5 });
      expect(r53.commandCalls(ListResourceRecordSetsCommand)[1]!.args[0].input).toMatchObject({ StartRecordIdentifier: "green" });
    });

    it("reads from the id alone (RecordSet.get), names with underscores included", async () => {
      r53.on(ListResourceRecordSetsCommand).resolves({
        ResourceRecordSets: [{ Name: "_dmarc.example.dev.", Type: "TXT", TTL: 300, ResourceRecords: [{ Value: '"v=DMARC1; p=none"' }] }],
        IsTruncated: false,
        MaxItems: 10,
      });
      const out = await read({}, {}, "Z1__dmarc.example.dev_TXT");
      expect(out).toMatchObject({ name: "_dmarc.example.dev", type: "TXT", records: ['"v=DMARC1; p=none"'] });
      expect(parseRecordSetId("Z1_a_b.example.dev_A_set_1")).toEqual({ zoneId: "Z1", name: "a_b.example.dev", type: "A", setIdentifier: "set_1" });
      expect(recordSetId("/hostedzone/Z1", "A_B.example.dev.", "A", "set_1")).toBe("Z1_a_b.example.dev_A_set_1");
      expect(parseRecordSetId("nonsense")).toBeUndefined();
    });
  });

  describe("diff", () => {
    const txtOutputs: RecordSetOutputs = { zoneId: "Z1", name: "example.dev", fqdn: "example.dev.", type: "TXT", ttl: 300, records: ['"b"', '"a"'] };
    const txt: RecordSetInputs = { zoneId: "Z1", name: "example.dev", type: "TXT", records: ["a", "b"] };
    const diff = (olds: RecordSetInputs, news: RecordSetInputs, outputs: RecordSetOutputs = txtOutputs) =>
      recordSetProvider.diff!({ urn: recordUrn, id: "Z1_example.dev_TXT", olds, news, outputs });

    it("sees no change in case, trailing dots, zone id prefix, record order, TXT quotes or default TTL", () => {
      expect(diff(txt, { ...txt, zoneId: "/hostedzone/Z1", name: "Example.DEV.", records: ['"b"', "a"], ttl: 300 })).toEqual({ kind: "same" });
      const cname: RecordSetInputs = { zoneId: "Z1", name: "www.example.dev", type: "CNAME", records: ["Example.dev."] };
      const cnameOut: RecordSetOutputs = { zoneId: "Z1", name: "www.example.dev", fqdn: "www.example.dev.", type: "CNAME", ttl: 300, records: ["example.dev"] };
      expect(diff(cname, { ...cname, records: ["example.dev"] }, cnameOut)).toEqual({ kind: "same" });
    });

    it("ignores allowOverwrite and waitForSync alone", () => {
      expect(diff(txt, { ...txt, allowOverwrite: true, waitForSync: false })).toEqual({ kind: "same" });
    });

    it("replaces on zone, name, type or set identifier", () => {
      expect(diff(txt, { ...txt, zoneId: "Z2" })).toMatchObject({ kind: "replace", replaceKeys: ["zoneId"] });
      expect(diff(txt, { ...txt, name: "www.example.dev" })).toMatchObject({ kind: "replace", replaceKeys: ["name"] });
      expect(diff(txt, { ...txt, type: "SPF" })).toMatchObject({ kind: "replace", replaceKeys: ["type"] });
      expect(diff(txt, { ...txt, setIdentifier: "x", weight: 1 })).toMatchObject({ kind: "replace", replaceKeys: ["setIdentifier"] });
    });

    it("updates ttl, records, alias and weight in place", () => {
      expect(diff(txt, { ...txt, ttl: 60 })).toEqual({ kind: "update", changed: ["ttl"], stables: ["zoneId", "name", "fqdn", "type"] });
      expect(diff(txt, { ...txt, records: ["a", "c"] })).toMatchObject({ kind: "update", changed: ["records"] });
      const alias: RecordSetInputs = { zoneId: "Z1", name: "example.dev", type: "A", alias: { name: "d1.cloudfront.net", zoneId: "Z2" } };
      const aliasOut: RecordSetOutputs = { zoneId: "Z1", name: "example.dev", fqdn: "example.dev.", type: "A", records: [], alias: { name: "d1.cloudfront.net", zoneId: "Z2", evaluateTargetHealth: false } };
      expect(diff(alias, { ...alias, alias: { name: "D1.cloudfront.net.", zoneId: "/hostedzone/Z2", evaluateTargetHealth: false } }, aliasOut)).toEqual({ kind: "same" });
      expect(diff(alias, { ...alias, alias: { name: "d2.cloudfront.net", zoneId: "Z2" } }, aliasOut)).toMatchObject({ kind: "update", changed: ["alias"] });
      const weighted: RecordSetInputs = { zoneId: "Z1", name: "api.example.dev", type: "A", records: ["192.0.2.1"], setIdentifier: "b", weight: 1 };
      const weightedOut: RecordSetOutputs = { zoneId: "Z1", name: "api.example.dev", fqdn: "api.example.dev.", type: "A", ttl: 300, records: ["192.0.2.1"], setIdentifier: "b", weight: 1 };
      expect(diff(weighted, { ...weighted, weight: 2 }, weightedOut)).toMatchObject({ kind: "update", changed: ["weight"] });
    });

    it("repairs drift: records changed outside the program", () => {
      expect(diff(txt, txt, { ...txtOutputs, records: ['"a"', '"edited"'] })).toMatchObject({ kind: "update", changed: ["records"] });
    });
  });

  it("updates with UPSERT of the new values and waits for INSYNC", async () => {
    r53.on(ChangeResourceRecordSetsCommand).resolves(submitted("C2"));
    r53.on(GetChangeCommand).resolves({ ChangeInfo: { Id: "/change/C2", Status: "INSYNC", SubmittedAt: new Date() } });
    const olds: RecordSetInputs = { zoneId: "Z1", name: "example.dev", type: "TXT", records: ["a"] };
    const outputs: RecordSetOutputs = { zoneId: "Z1", name: "example.dev", fqdn: "example.dev.", type: "TXT", ttl: 300, records: ['"a"'], changeId: "C1" };
    const out = await recordSetProvider.update!({ urn: recordUrn, id: "Z1_example.dev_TXT", olds, news: { ...olds, ttl: 60, records: ["a", "b"] }, outputs, ctx: testCtx() });
    expect(sentChange()).toEqual({
      Action: "UPSERT",
      ResourceRecordSet: { Name: "example.dev.", Type: "TXT", TTL: 60, ResourceRecords: [{ Value: '"a"' }, { Value: '"b"' }] },
    });
    expect(out).toEqual({ ...outputs, ttl: 60, records: ['"a"', '"b"'], changeId: "C2" });
    expect(r53.commandCalls(GetChangeCommand)).toHaveLength(1);
  });

  describe("delete", () => {
    const inputs: RecordSetInputs = { zoneId: "Z1", name: "example.dev", type: "TXT", records: ["a"] };
    const outputs: RecordSetOutputs = { zoneId: "Z1", name: "example.dev", fqdn: "example.dev.", type: "TXT", ttl: 120, records: ['"a"'] };
    const del = (o: RecordSetOutputs = outputs) => recordSetProvider.delete({ urn: recordUrn, id: "Z1_example.dev_TXT", inputs, outputs: o, ctx: testCtx() });

    it("DELETEs with the record's current values, without waiting", async () => {
      r53.on(ChangeResourceRecordSetsCommand).resolves(submitted());
      await del();
      expect(sentChange()).toEqual({ Action: "DELETE", ResourceRecordSet: { Name: "example.dev.", Type: "TXT", TTL: 120, ResourceRecords: [{ Value: '"a"' }] } });
      expect(r53.commandCalls(GetChangeCommand)).toHaveLength(0);
    });

    it("DELETEs an alias with its target", async () => {
      r53.on(ChangeResourceRecordSetsCommand).resolves(submitted());
      await del({ zoneId: "Z1", name: "example.dev", fqdn: "example.dev.", type: "A", records: [], alias: { name: "d1.cloudfront.net", zoneId: "Z2", evaluateTargetHealth: false } });
      expect(sentChange().ResourceRecordSet).toEqual({ Name: "example.dev.", Type: "A", AliasTarget: { DNSName: "d1.cloudfront.net.", HostedZoneId: "Z2", EvaluateTargetHealth: false } });
    });

    it("treats a record or zone already gone as success", async () => {
      r53.on(ChangeResourceRecordSetsCommand)
        .rejectsOnce(new InvalidChangeBatch({ message: "[Tried to delete resource record set [name='example.dev.', type='TXT'] but it was not found]", $metadata: {} }))
        .rejects(new NoSuchHostedZone({ message: "gone", $metadata: {} }));
      await del();
      await del();
      expect(r53.commandCalls(ChangeResourceRecordSetsCommand)).toHaveLength(2);
    });

    it("re-reads and retries when the record was changed outside the program", async () => {
      r53.on(ChangeResourceRecordSetsCommand)
        .rejectsOnce(new InvalidChangeBatch({ message: "", messages: ["Tried to delete resource record set [name='example.dev.', type='TXT'] but the values provided do not match the current values"], $metadata: {} }))
        .resolves(submitted());
      r53.on(ListResourceRecordSetsCommand).resolves({
        ResourceRecordSets: [{ Name: "example.dev.", Type: "TXT", TTL: 300, ResourceRecords: [{ Value: '"edited"' }] }],
        IsTruncated: false,
        MaxItems: 10,
      });
      await del();
      expect(sentChange(1).ResourceRecordSet).toEqual({ Name: "example.dev.", Type: "TXT", TTL: 300, ResourceRecords: [{ Value: '"edited"' }] });
    });

    it("reads the values first when the outputs do not have them", async () => {
      r53.on(ListResourceRecordSetsCommand).resolves({ ResourceRecordSets: [], IsTruncated: false, MaxItems: 10 });
      await recordSetProvider.delete({ urn: recordUrn, id: "Z1_example.dev_TXT", inputs: {} as RecordSetInputs, outputs: {} as RecordSetOutputs, ctx: testCtx() });
      expect(r53.commandCalls(ChangeResourceRecordSetsCommand)).toHaveLength(0);
    });
  });

  it("passes the operation's abort signal to every Route 53 call", async () => {
    r53.on(ChangeResourceRecordSetsCommand).resolves(submitted());
    r53.on(GetChangeCommand).resolves(insync);
    r53.on(ListResourceRecordSetsCommand).resolves({ ResourceRecordSets: [], IsTruncated: false, MaxItems: 10 });
    r53.on(CreateHostedZoneCommand).rejects(new HostedZoneAlreadyExists({ message: "already created", $metadata: {} }));
    r53.on(ListHostedZonesByNameCommand).resolves({ HostedZones: [zone("Z1", "example.dev.", { CallerReference: callerReference(zoneUrn, "example.dev") })], IsTruncated: false, MaxItems: 100 });
    r53.on(GetHostedZoneCommand).resolves({ HostedZone: zone("Z1", "example.dev."), DelegationSet: { NameServers: NS } });
    r53.on(UpdateHostedZoneCommentCommand).resolves({ HostedZone: zone("Z1", "example.dev.") });
    r53.on(DeleteHostedZoneCommand).rejects(new HostedZoneNotEmpty({ message: "not empty", $metadata: {} }));
    const ctx = testCtx();
    const zoneOutputs: HostedZoneOutputs = { zoneId: "Z1", arn: "arn:aws:route53:::hostedzone/Z1", name: "example.dev", nameServers: NS };
    await hostedZoneProvider.create({ urn: zoneUrn, inputs: { name: "example.dev", comment: "c" }, ctx });
    await hostedZoneProvider.update!({ urn: zoneUrn, id: "Z1", olds: { name: "example.dev" }, news: { name: "example.dev", comment: "d" }, outputs: zoneOutputs, ctx });
    await expect(hostedZoneProvider.delete({ urn: zoneUrn, id: "Z1", inputs: { name: "example.dev" }, outputs: zoneOutputs, ctx })).rejects.toThrow(/HostedZoneNotEmpty/);
    await create(base, ctx);
    await recordSetProvider.read({ urn: recordUrn, id: "Z1_www.example.dev_CNAME", inputs: base, outputs: {} as RecordSetOutputs, ctx });
    const calls = r53.calls();
    expect(new Set(calls.map((c) => (c.args[0] as object).constructor.name)).size).toBe(8);
    for (const c of calls) expect((c.args as unknown[])[1]).toEqual({ abortSignal: ctx.signal });
  });

  describe("check", () => {
    // The provider's check is synchronous.
    const check = (inputs: Partial<RecordSetInputs>) => recordSetProvider.check!({ urn: recordUrn, inputs: inputs as RecordSetInputs }) as Diagnostic[];
    const attrs = (inputs: Partial<RecordSetInputs>) => check(inputs).map((d) => d.attribute);

    it("accepts valid records and aliases", () => {
      expect(check(base)).toEqual([]);
      expect(check({ zoneId: "Z1", name: "example.dev", type: "A", alias: { name: "d1.cloudfront.net", zoneId: "Z2" } })).toEqual([]);
      expect(check({ ...base, type: "A", records: ["192.0.2.1"], setIdentifier: "blue", weight: 0 })).toEqual([]);
    });

    it("reports each problem on its attribute", () => {
      expect(attrs({ ...base, name: "" })).toEqual(["name"]);
      expect(attrs({ ...base, zoneId: "" })).toEqual(["zoneId"]);
      expect(attrs({ ...base, type: "MXX" as RecordSetInputs["type"] })).toEqual(["type"]);
      expect(attrs({ ...base, records: [] })).toEqual(["records"]);
      expect(attrs({ ...base, alias: { name: "d1.cloudfront.net", zoneId: "Z2" } })).toEqual(["records"]);
      expect(attrs({ zoneId: "Z1", name: "a.example.dev", type: "A", alias: { name: "d1.cloudfront.net", zoneId: "Z2" }, ttl: 60 })).toEqual(["ttl"]);
      expect(attrs({ ...base, ttl: 1.5 })).toEqual(["ttl"]);
      expect(attrs({ ...base, ttl: -1 })).toEqual(["ttl"]);
      expect(attrs({ ...base, ttl: 2147483648 })).toEqual(["ttl"]);
      expect(attrs({ ...base, weight: 5 })).toEqual(["weight"]);
      expect(attrs({ ...base, type: "CNAME", records: ["a.dev", "b.dev"] })).toEqual(["records"]);
      const [d] = check({ ...base, type: "MXX" as RecordSetInputs["type"] });
      expect(d).toMatchObject({ severity: "error", summary: expect.stringMatching(/must be one of A, AAAA/) });
    });
  });
});
