import { beforeEach, describe, expect, it } from "vitest";
import { mockClient } from "aws-sdk-client-mock";
import { CloudControlClient, GetResourceCommand, ListResourcesCommand, UnsupportedActionException } from "@aws-sdk/client-cloudcontrol";
import type { Urn } from "../../../../src/core/urn.js";
import { cloudControlProvider } from "../../../../src/providers/aws/cloudcontrol/provider.js";
import { decodeTypeSpec, type TypeInfo } from "../../../../src/providers/aws/cloudcontrol/type-spec.js";
import { testCtx } from "../ctx.js";
import { DB, DIST, FN, FN_REG } from "./registry-types.js";

const cc = mockClient(CloudControlClient);
const URN = "urn:cairn:dev::app::test:x:X::x" as Urn;
type Props = Record<string, unknown>;

beforeEach(() => cc.reset());

/** Reads an object whose GetResource answers `model`, for a program that declared `inputs`. */
async function read(info: TypeInfo, model: Props, inputs: Props): Promise<Props | undefined> {
  cc.on(GetResourceCommand).resolves({ ResourceDescription: { Identifier: "x", Properties: JSON.stringify(model) } });
  return cloudControlProvider(info).read({ urn: URN, id: "x", inputs, outputs: {}, ctx: testCtx() });
}

describe("reads: only a change to a declared property reads as drift", () => {
  it("server defaults inside array elements read as the declared elements", async () => {
    const declared = { distributionConfig: { enabled: true, cacheBehaviors: [{ pathPattern: "/a", targetOriginId: "o" }, { pathPattern: "/b", targetOriginId: "o" }] } };
    const model = { Id: "E1", Status: "Deployed", DistributionConfig: { Enabled: true, HttpVersion: "http2", CacheBehaviors: [{ PathPattern: "/a", TargetOriginId: "o", Compress: false, SmoothStreaming: false }, { PathPattern: "/b", TargetOriginId: "o", Compress: false }] } };
    const out = await read(DIST, model, declared);
    expect(out?.distributionConfig).toEqual(declared.distributionConfig);
    expect(out?.status).toBe("Deployed");
  });

  it("a changed value inside an array element still reads as drift", async () => {
    const declared = { distributionConfig: { enabled: true, cacheBehaviors: [{ pathPattern: "/a", compress: true }] } };
    const model = { DistributionConfig: { Enabled: true, CacheBehaviors: [{ PathPattern: "/a", Compress: false, SmoothStreaming: false }] } };
    expect((await read(DIST, model, declared))?.distributionConfig).toEqual({ enabled: true, cacheBehaviors: [{ pathPattern: "/a", compress: false }] });
  });

  it("tags in AWS's order, with AWS's own aws: tags, read as the declared list; a changed value does not", async () => {
    const tags = [{ key: "b", value: "2" }, { key: "a", value: "1" }];
    const model = { Tags: [{ Key: "aws:cloudformation:stack-name", Value: "s" }, { Key: "a", Value: "1" }, { Key: "b", Value: "2" }] };
    expect((await read(DIST, model, { tags }))?.tags).toEqual(tags);
    const changed = { Tags: [{ Key: "a", Value: "1" }, { Key: "b", Value: "9" }] };
    expect((await read(DIST, changed, { tags }))?.tags).toEqual([{ key: "a", value: "1" }, { key: "b", value: "9" }]);
  });

  it("an unordered array in another order reads as declared", async () => {
    expect((await read(DIST, { SecurityGroupIds: ["sg-2", "sg-1"] }, { securityGroupIds: ["sg-1", "sg-2"] }))?.securityGroupIds).toEqual(["sg-1", "sg-2"]);
  });

  it("a policy document with its keys in another order, or returned as text, reads as declared", async () => {
    const policy = { Version: "2012-10-17", Statement: [{ Effect: "Allow", Action: ["s3:GetObject"], Resource: "*" }] };
    const reordered = { Statement: [{ Resource: "*", Action: ["s3:GetObject"], Effect: "Allow" }], Version: "2012-10-17" };
    expect((await read(DIST, { PolicyDocument: reordered }, { policyDocument: policy }))?.policyDocument).toEqual(policy);
    expect((await read(DIST, { PolicyDocument: JSON.stringify(reordered) }, { policyDocument: policy }))?.policyDocument).toEqual(policy);
  });

  it("propertyTransform normalisations read as declared: lowercased identifier and engine, a key id read back as its ARN", async () => {
    const declared = { dbInstanceIdentifier: "CCH-Case-DB", engine: "MySQL", kmsKeyId: "k-1" };
    const model = { DBInstanceIdentifier: "cch-case-db", Engine: "mysql", KmsKeyId: "arn:aws:kms:us-east-1:123456789012:key/k-1", DBInstanceArn: "arn:aws:rds:…" };
    expect(await read(DB, model, declared)).toEqual({ ...declared, dbInstanceArn: "arn:aws:rds:…" });
  });

  it("a value the transform does not explain reads as drift", async () => {
    const out = await read(DB, { DBInstanceIdentifier: "cch-case-db", Engine: "postgres", KmsKeyId: "arn:aws:kms:us-east-1:123456789012:key/k-2" }, { dbInstanceIdentifier: "CCH-Case-DB", engine: "MySQL", kmsKeyId: "k-1" });
    expect(out).toMatchObject({ dbInstanceIdentifier: "CCH-Case-DB", engine: "postgres", kmsKeyId: "arn:aws:kms:us-east-1:123456789012:key/k-2" });
  });

  it("write-only values are never returned: the declared ones are kept", async () => {
    const out = await read(FN, { FunctionName: "f", MemorySize: 128, PackageType: "Zip", Arn: "arn:f" }, { functionName: "f", memorySize: 128, code: { zipFile: "x" } });
    expect(out).toEqual({ functionName: "f", memorySize: 128, code: { zipFile: "x" }, packageType: "Zip", arn: "arn:f" });
  });
});

describe("write-only values nested in an object a read never returns", () => {
  it("a function whose Code holds only write-only fields reads with the declared code (an import records it as declared)", async () => {
    const out = await read(FN_REG, { FunctionName: "f", MemorySize: 128, PackageType: "Zip", Arn: "arn:f" }, { functionName: "f", memorySize: 128, code: { zipFile: "x" } });
    expect(out).toEqual({ functionName: "f", memorySize: 128, code: { zipFile: "x" }, packageType: "Zip", arn: "arn:f" });
  });

  it("a declared readable field missing from the read is still drift, the write-only one beside it kept", async () => {
    const out = await read(FN_REG, { FunctionName: "f", MemorySize: 128 }, { functionName: "f", code: { zipFile: "x" }, memorySize: 128, role: "r" });
    expect(out).toEqual({ functionName: "f", memorySize: 128, code: { zipFile: "x" } });
  });
});

describe("waits on many objects of a type that cannot be listed read each one", () => {
  const targets = [
    { urn: URN, id: "a", inputs: {}, outputs: {} },
    { urn: URN, id: "b", inputs: {}, outputs: {} },
  ];
  const getEach = () => cc.on(GetResourceCommand).callsFake((input: { Identifier: string }) => ({ ResourceDescription: { Identifier: input.Identifier, Properties: JSON.stringify({ Id: input.Identifier, Status: "Deployed" }) } }));

  it("a type the registry gives no list handler is read with GetResource, never listed", async () => {
    getEach();
    const found = await cloudControlProvider(DIST).readMany({ targets, ctx: testCtx() });
    expect([...found]).toEqual([["a", { id: "a", status: "Deployed" }], ["b", { id: "b", status: "Deployed" }]]);
    expect(cc.commandCalls(ListResourcesCommand)).toHaveLength(0);
  });

  it("a ListResources that answers UnsupportedActionException falls back to GetResource, and is not asked again", async () => {
    const info = decodeTypeSpec("Test::SFN::StateMachine", "test:sfn:StateMachine", { id: ["Id"], p: [["Id", "string"], ["Status", "string"]] });
    getEach();
    cc.on(ListResourcesCommand).rejects(new UnsupportedActionException({ message: "Resource type does not support LIST action", $metadata: {} }));
    const p = cloudControlProvider(info);
    expect([...(await p.readMany({ targets, ctx: testCtx() })).keys()]).toEqual(["a", "b"]);
    expect([...(await p.readMany({ targets, ctx: testCtx() })).keys()]).toEqual(["a", "b"]);
    expect(cc.commandCalls(ListResourcesCommand)).toHaveLength(1);
    expect(cc.commandCalls(GetResourceCommand)).toHaveLength(4);
  });
});
