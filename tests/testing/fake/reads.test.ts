import { describe, expect, it } from "vitest";
import { FakeCloudControl } from "../../../src/testing/cloudcontrol/fake-cloud.js";
import { create, fakeCloud, fnModel, FN, read } from "./types.js";

describe("reads from the fake Cloud Control", () => {
  it("fill in the registry schema's defaults at every depth, array elements included, and never make up an object", async () => {
    const cloud = fakeCloud();
    const id = await create(cloud, FN, fnModel({ Settings: { Mode: "Active" }, Rules: [{ Name: "A" }, { Name: "B", Priority: 5 }] }));
    const got = await read(cloud, FN, id);
    expect(got.MemorySize).toBe(128);
    expect(got.Settings).toEqual({ Mode: "Active", Retries: 2 });
    expect(got.Rules).toEqual([{ Name: "A", Priority: 10 }, { Name: "B", Priority: 5 }]);
    expect(got).not.toHaveProperty("Network");
    // What was stored is what was sent: the defaults are the service's answer, not the program's input.
    expect(cloud.objects(FN)[0]!.properties).not.toHaveProperty("MemorySize");
  });

  it("fill in the defaults real services add (an S3 bucket's encryption, public access block and ownership controls)", async () => {
    const cloud = new FakeCloudControl({ pollsToFinish: 0 });
    const id = await create(cloud, "AWS::S3::Bucket", { BucketName: "b1" });
    const got = await read(cloud, "AWS::S3::Bucket", id);
    expect(got.PublicAccessBlockConfiguration).toEqual({ BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true });
    expect(got.OwnershipControls).toEqual({ Rules: [{ ObjectOwnership: "BucketOwnerEnforced" }] });
    expect(got.BucketEncryption).toMatchObject({ ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: "AES256" } }] });
  });

  it("fill in the shipped registry schemas' defaults for a type with no curated ones (an SSM document's format)", async () => {
    const cloud = new FakeCloudControl({ pollsToFinish: 0 });
    const id = await create(cloud, "AWS::SSM::Document", { Content: { schemaVersion: "2.2", mainSteps: [] } });
    const got = await read(cloud, "AWS::SSM::Document", id);
    expect(got).toMatchObject({ DocumentFormat: "JSON" });
  });

  it("never return write-only properties, nested ones included, and drop an object left empty by them", async () => {
    const cloud = fakeCloud();
    const id = await create(cloud, FN, fnModel({ Secret: "hunter2" }));
    const got = await read(cloud, FN, id);
    expect(got).not.toHaveProperty("Code");
    expect(got).not.toHaveProperty("Secret");
    expect(JSON.stringify(got)).not.toContain("hunter2");
    expect(cloud.objects(FN)[0]!.properties).toMatchObject({ Code: { ZipFile: "exports.h = 1" }, Secret: "hunter2" });
    const listed = (await cloud.handle("ListResources", { TypeName: FN })) as { ResourceDescriptions: { Properties: string }[] };
    expect(JSON.parse(listed.ResourceDescriptions[0]!.Properties)).not.toHaveProperty("Code");
  });

  it("return tag lists sorted by key, policy documents with their keys re-ordered, and unordered arrays in the service's order", async () => {
    const cloud = fakeCloud();
    const policy = { Version: "2012-10-17", Statement: [{ Effect: "Allow", Action: "s3:GetObject", Resource: "*" }] };
    const id = await create(cloud, FN, fnModel({ Tags: [{ Key: "team", Value: "a" }, { Key: "env", Value: "b" }], Policy: policy, Layers: ["arn:layer:z", "arn:layer:a"] }));
    const got = await read(cloud, FN, id);
    expect((got.Tags as { Key: string }[]).map((t) => t.Key)).toEqual(["env", "team"]);
    expect(Object.keys(got.Policy as object)).toEqual(["Statement", "Version"]);
    expect(Object.keys((got.Policy as { Statement: object[] }).Statement[0]!)).toEqual(["Action", "Effect", "Resource"]);
    expect(got.Policy).toEqual(policy);
    expect(got.Layers).toEqual(["arn:layer:a", "arn:layer:z"]);
  });

  it("apply the registry's propertyTransform normalisations, nested ones in array elements too", async () => {
    const cloud = fakeCloud();
    const id = await create(cloud, FN, fnModel({ Engine: "MySQL", Rules: [{ Name: "first" }] }));
    const got = await read(cloud, FN, id);
    expect(got.Engine).toBe("mysql");
    expect(got.Rules).toEqual([{ Name: "FIRST", Priority: 10 }]);
  });

  it("after a create return the identifier and the read-only attributes the cloud made up", async () => {
    const cloud = fakeCloud();
    const id = await create(cloud, FN, fnModel());
    expect(id).toBe("f1");
    const got = await read(cloud, FN, id);
    expect(got.FunctionName).toBe("f1");
    expect(typeof got.Arn).toBe("string");
    const q = await create(new FakeCloudControl({ pollsToFinish: 0 }), "AWS::SQS::Queue", { QueueName: "jobs" });
    expect(q).toMatch(/^https:\/\/sqs\.us-east-1\.amazonaws\.com\/123456789012\/jobs$/);
  });
});

describe("the schema's defaults on the fake Cloud Control", () => {
  it("a `default: null` is no default: the property stays absent", async () => {
    const cloud = fakeCloud();
    const id = await create(cloud, FN, fnModel());
    expect(await read(cloud, FN, id)).not.toHaveProperty("Notes");
  });
});
