import { beforeEach, describe, expect, it } from "vitest";
import { mockClient } from "aws-sdk-client-mock";
import { CloudControlClient, GetResourceCommand, UpdateResourceCommand } from "@aws-sdk/client-cloudcontrol";
import type { Urn } from "../../../../src/core/urn.js";
import { cloudControlProvider } from "../../../../src/providers/aws/cloudcontrol/provider.js";
import { decodeTypeSpec, FLAG, type TypeInfo } from "../../../../src/providers/aws/cloudcontrol/type-spec.js";
import { testCtx } from "../ctx.js";
import { BROKER, CLUSTER, DB, DEEP, DIST, FN, FN_REG } from "./registry-types.js";

const cc = mockClient(CloudControlClient);
const URN = "urn:cairn:dev::app::test:x:X::x" as Urn;
type Props = Record<string, unknown>;

beforeEach(() => {
  cc.reset();
  cc.on(UpdateResourceCommand).resolves({ ProgressEvent: { OperationStatus: "SUCCESS", RequestToken: "u1" } });
  cc.on(GetResourceCommand).resolves({ ResourceDescription: { Properties: "{}" } });
});

/** Updates through the provider and returns the JSON Patch it sent (none: no UpdateResource). */
async function sentPatch(info: TypeInfo, olds: Props, news: Props): Promise<unknown[] | undefined> {
  await cloudControlProvider(info).update({ urn: URN, id: "x", olds, news, outputs: {}, ctx: testCtx() });
  const call = cc.commandCalls(UpdateResourceCommand)[0];
  return call ? (JSON.parse(call.args[0].input.PatchDocument!) as unknown[]) : undefined;
}

const diff = (info: TypeInfo, olds: Props, news: Props) => cloudControlProvider(info).diff({ urn: URN, id: "x", olds, news, outputs: {} });

const fn = { functionName: "f", role: "arn:aws:iam::1:role/r", code: { zipFile: "exports.h = 1" }, memorySize: 128 };

describe("UpdateResource patches: changed leaves only, write-only values re-sent, never a create-only path", () => {
  const cases: { name: string; info: TypeInfo; olds: Props; news: Props; patch: unknown[] }[] = [
    {
      name: "a Lambda memory change re-sends the declared Code as add (Cloud Control's model has none)",
      info: FN,
      olds: fn,
      news: { ...fn, memorySize: 256 },
      patch: [{ op: "replace", path: "/MemorySize", value: 256 }, { op: "add", path: "/Code", value: { ZipFile: "exports.h = 1" } }],
    },
    {
      name: "a code change adds /Code whole, never replace /Code/ZipFile on a model without Code",
      info: FN,
      olds: fn,
      news: { ...fn, code: { zipFile: "exports.h = 2" } },
      patch: [{ op: "add", path: "/Code", value: { ZipFile: "exports.h = 2" } }],
    },
    {
      name: "a nested write-only value is added at its own path; one inside array elements re-sends the array",
      info: BROKER,
      olds: { brokerName: "b", instanceType: "small", auth: { mode: "token", token: "t0" }, users: [{ username: "u", password: "p" }] },
      news: { brokerName: "b", instanceType: "large", auth: { mode: "token", token: "t0" }, users: [{ username: "u", password: "p" }] },
      patch: [
        { op: "replace", path: "/InstanceType", value: "large" },
        { op: "add", path: "/Auth/Token", value: "t0" },
        { op: "add", path: "/Users", value: [{ Username: "u", Password: "p" }] },
      ],
    },
    {
      name: "a write-only value that is also create-only is never sent (Cloud Control refuses it in a patch)",
      info: BROKER,
      olds: { brokerName: "b", instanceType: "small", adminPassword: "s" },
      news: { brokerName: "b", instanceType: "large", adminPassword: "s" },
      patch: [{ op: "replace", path: "/InstanceType", value: "large" }],
    },
    {
      name: "a changed element of an unordered array replaces the array whole",
      info: DIST,
      olds: { distributionConfig: { enabled: true }, securityGroupIds: ["sg-1", "sg-2"] },
      news: { distributionConfig: { enabled: true }, securityGroupIds: ["sg-2", "sg-3"] },
      patch: [{ op: "replace", path: "/SecurityGroupIds", value: ["sg-2", "sg-3"] }],
    },
    {
      name: "a changed tag replaces the tag list whole, in the program's order",
      info: DIST,
      olds: { distributionConfig: { enabled: true }, tags: [{ key: "a", value: "1" }, { key: "b", value: "2" }] },
      news: { distributionConfig: { enabled: true }, tags: [{ key: "b", value: "3" }, { key: "a", value: "1" }] },
      patch: [{ op: "replace", path: "/Tags", value: [{ Key: "b", Value: "3" }, { Key: "a", Value: "1" }] }],
    },
    {
      name: "a leaf inside an ordered list of objects is patched at its index",
      info: DIST,
      olds: { distributionConfig: { enabled: true, cacheBehaviors: [{ pathPattern: "/a", compress: true }, { pathPattern: "/b" }] } },
      news: { distributionConfig: { enabled: true, cacheBehaviors: [{ pathPattern: "/a", compress: false }, { pathPattern: "/b" }] } },
      patch: [{ op: "replace", path: "/DistributionConfig/CacheBehaviors/0/Compress", value: false }],
    },
    {
      name: "an updatable sibling of nested create-only paths is patched alone",
      info: CLUSTER,
      olds: { name: "c", kubernetesNetworkConfig: { serviceIpv4Cidr: "10.100.0.0/16", elasticLoadBalancing: { enabled: false } } },
      news: { name: "c", kubernetesNetworkConfig: { serviceIpv4Cidr: "10.100.0.0/16", elasticLoadBalancing: { enabled: true } } },
      patch: [{ op: "replace", path: "/KubernetesNetworkConfig/ElasticLoadBalancing/Enabled", value: true }],
    },
    {
      name: "a property the program unsets is removed, other write-only values still re-sent",
      info: DB,
      olds: { dbInstanceIdentifier: "db", engine: "mysql", port: "3306", masterUserPassword: "pw" },
      news: { dbInstanceIdentifier: "db", engine: "mysql", masterUserPassword: "pw" },
      patch: [{ op: "remove", path: "/Port" }, { op: "add", path: "/MasterUserPassword", value: "pw" }],
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      expect(await sentPatch(c.info, c.olds, c.news)).toEqual(c.patch);
    });
  }

  it("a type without registry facts re-sends its flagged write-only properties, except a create-only one", async () => {
    const info = decodeTypeSpec("Test::Old::Thing", "test:old:Thing", {
      id: ["Name"],
      p: [["Name", "string", FLAG.replaces], ["Size", "integer"], ["Secret", "string", FLAG.writeOnly], ["Seed", "string", FLAG.writeOnly | FLAG.replaces]],
    });
    const olds = { name: "n", size: 1, secret: "s", seed: "x" };
    expect(await sentPatch(info, olds, { ...olds, size: 2 })).toEqual([{ op: "replace", path: "/Size", value: 2 }, { op: "add", path: "/Secret", value: "s" }]);
  });

  it("a reordered tag list or unordered array in the program is no change and sends no update", async () => {
    const olds = { distributionConfig: { enabled: true }, securityGroupIds: ["sg-1", "sg-2"], tags: [{ key: "a", value: "1" }, { key: "b", value: "2" }] };
    const news = { distributionConfig: { enabled: true }, securityGroupIds: ["sg-2", "sg-1"], tags: [{ key: "b", value: "2" }, { key: "a", value: "1" }] };
    expect(await diff(DIST, olds, news)).toEqual({ kind: "same" });
    expect(await sentPatch(DIST, olds, news)).toBeUndefined();
  });
});

describe("a write-only value under an object the read lacks is sent by adding that object whole", () => {
  const regFn = { functionName: "f", role: "arn:aws:iam::1:role/r", code: { zipFile: "exports.h = 1" }, memorySize: 128 };
  const deep = { config: { name: "n", secret: { token: "t" } }, vault: { token: "v", seed: "s" }, size: 1 };

  it("a memory change of a function whose registry lists only Code's fields as write-only adds /Code, never /Code/ZipFile", async () => {
    expect(await sentPatch(FN_REG, regFn, { ...regFn, memorySize: 256 })).toEqual([
      { op: "replace", path: "/MemorySize", value: 256 },
      { op: "add", path: "/Code", value: { ZipFile: "exports.h = 1" } },
    ]);
  });

  it("switching the code from a zip to an S3 object adds /Code once, with the new fields", async () => {
    const news = { ...regFn, code: { s3Bucket: "b", s3Key: "k.zip" } };
    expect(await sentPatch(FN_REG, regFn, news)).toEqual([{ op: "add", path: "/Code", value: { S3Bucket: "b", S3Key: "k.zip" } }]);
  });

  it("two levels down: the object the read has keeps its readable sibling, the one it lacks is added whole, create-only content left out", async () => {
    expect(await sentPatch(DEEP, deep, { ...deep, size: 2 })).toEqual([
      { op: "replace", path: "/Size", value: 2 },
      { op: "add", path: "/Config/Secret", value: { Token: "t" } },
      { op: "add", path: "/Vault", value: { Token: "v" } },
    ]);
  });

  it("a changed write-only token inside an object the read has is added under it, the readable sibling untouched", async () => {
    const news = { ...deep, config: { name: "n", secret: { token: "t2" } } };
    expect(await sentPatch(DEEP, deep, news)).toEqual([
      { op: "add", path: "/Config/Secret", value: { Token: "t2" } },
      { op: "add", path: "/Vault", value: { Token: "v" } },
    ]);
  });

  it("a write-only object re-sent whole leaves out the create-only value inside it (the model read has none)", async () => {
    const olds = { ...deep, source: { batchSize: 10, startingPosition: "LATEST" } };
    expect(await sentPatch(DEEP, olds, { ...olds, size: 2 })).toEqual([
      { op: "replace", path: "/Size", value: 2 },
      { op: "add", path: "/Config/Secret", value: { Token: "t" } },
      { op: "add", path: "/Vault", value: { Token: "v" } },
      { op: "add", path: "/Source", value: { BatchSize: 10 } },
    ]);
  });

  it("unsetting an object that holds only write-only values sends no remove (the model read has no such object)", async () => {
    const { vault: _, ...news } = deep;
    expect(await sentPatch(DEEP, deep, { ...news, size: 2 })).toEqual([
      { op: "replace", path: "/Size", value: 2 },
      { op: "add", path: "/Config/Secret", value: { Token: "t" } },
    ]);
  });

  it("after an import that recorded no code, the declared code is no change; a memory change updates memorySize and adds /Code", async () => {
    const imported = { functionName: "f", role: regFn.role, memorySize: 128 };
    expect(await diff(FN_REG, imported, regFn)).toEqual({ kind: "same" });
    expect(await diff(FN_REG, imported, { ...regFn, memorySize: 256 })).toEqual({ kind: "update", changed: ["memorySize"] });
    expect(await sentPatch(FN_REG, imported, { ...regFn, memorySize: 256 })).toEqual([
      { op: "replace", path: "/MemorySize", value: 256 },
      { op: "add", path: "/Code", value: { ZipFile: "exports.h = 1" } },
    ]);
  });
});

describe("replacement follows the registry's create-only paths, at any depth", () => {
  const net = { serviceIpv4Cidr: "10.100.0.0/16", ipFamily: "ipv4", elasticLoadBalancing: { enabled: false } };

  it("changing only kubernetesNetworkConfig.elasticLoadBalancing.enabled updates the cluster in place", async () => {
    const d = await diff(CLUSTER, { name: "c", kubernetesNetworkConfig: net }, { name: "c", kubernetesNetworkConfig: { ...net, elasticLoadBalancing: { enabled: true } } });
    expect(d).toEqual({ kind: "update", changed: ["kubernetesNetworkConfig"] });
  });

  it("changing kubernetesNetworkConfig.serviceIpv4Cidr replaces it", async () => {
    const d = await diff(CLUSTER, { name: "c", kubernetesNetworkConfig: net }, { name: "c", kubernetesNetworkConfig: { ...net, serviceIpv4Cidr: "172.20.0.0/16" } });
    expect(d).toEqual({ kind: "replace", changed: ["kubernetesNetworkConfig"], replaceKeys: ["kubernetesNetworkConfig"] });
  });

  it("a property the specification flags as replacing but the registry lets Cloud Control update is updated (RDS Port)", async () => {
    const d = await diff(DB, { dbInstanceIdentifier: "db", port: "3306" }, { dbInstanceIdentifier: "db", port: "3307" });
    expect(d).toEqual({ kind: "update", changed: ["port"] });
  });

  it("a declared value the service stores normalised (propertyTransform) is no change, and no replacement", async () => {
    const observed = { dbInstanceIdentifier: "cch-case-db", engine: "mysql", kmsKeyId: "arn:aws:kms:us-east-1:123456789012:key/k-1" };
    expect(await diff(DB, observed, { dbInstanceIdentifier: "CCH-Case-DB", engine: "MySQL", kmsKeyId: "k-1" })).toEqual({ kind: "same" });
    expect(await diff(DB, observed, { dbInstanceIdentifier: "Other-DB", engine: "MySQL", kmsKeyId: "k-1" })).toEqual({ kind: "replace", changed: ["dbInstanceIdentifier"], replaceKeys: ["dbInstanceIdentifier"] });
  });

  it("a write-only value no read can show (after an import) is not a change", async () => {
    expect(await diff(FN, { functionName: "f", role: "r", memorySize: 128 }, { functionName: "f", role: "r", memorySize: 128, code: { zipFile: "x" } })).toEqual({ kind: "same" });
  });
});
