import { describe, expect, it } from "vitest";
import { FakeCloudControl } from "../../../src/testing/cloudcontrol/fake-cloud.js";
import { create, fakeCloud, fnModel, FN, read, run, update } from "./types.js";

describe("UpdateResource on the fake Cloud Control is read-modify-write", () => {
  it("applies the patch to the model as a read returns it: a required write-only property not re-sent fails the request as AWS does", async () => {
    const cloud = fakeCloud();
    const id = await create(cloud, FN, fnModel());
    await expect(update(cloud, FN, id, [{ op: "add", path: "/MemorySize", value: 256 }])).rejects.toMatchObject({ name: "ValidationException", message: "Model validation failed (#: required key [Code] not found)" });
    expect(cloud.objects(FN)[0]!.properties).toMatchObject({ Code: { ZipFile: "exports.h = 1" } });
    expect(cloud.lostWriteOnly).toEqual([]);
  });

  it("succeeds when every write-only value is re-sent with add, and keeps them", async () => {
    const cloud = fakeCloud();
    const id = await create(cloud, FN, fnModel({ Secret: "s1" }));
    const e = await update(cloud, FN, id, [{ op: "add", path: "/MemorySize", value: 256 }, { op: "add", path: "/Code", value: { ZipFile: "exports.h = 1" } }, { op: "add", path: "/Secret", value: "s1" }]);
    expect(e.OperationStatus).toBe("SUCCESS");
    expect(cloud.objects(FN)[0]!.properties).toMatchObject({ MemorySize: 256, Code: { ZipFile: "exports.h = 1" }, Secret: "s1" });
    expect(cloud.lostWriteOnly).toEqual([]);
  });

  it("reports each write-only value a patch did not re-send, and the stored model loses it", async () => {
    const cloud = fakeCloud();
    const id = await create(cloud, FN, fnModel({ Secret: "s1" }));
    const e = await update(cloud, FN, id, [{ op: "add", path: "/Code", value: { ZipFile: "v2" } }]);
    expect(e.OperationStatus).toBe("SUCCESS");
    expect(cloud.lostWriteOnly).toEqual([{ typeName: FN, identifier: id, path: "Secret" }]);
    expect(cloud.objects(FN)[0]!.properties).not.toHaveProperty("Secret");
  });

  it("refuses a replace of a write-only path the read model lacks (Code/ZipFile on a model without Code)", async () => {
    const cloud = fakeCloud();
    const id = await create(cloud, FN, fnModel());
    await expect(update(cloud, FN, id, [{ op: "replace", path: "/Code/ZipFile", value: "v2" }])).rejects.toMatchObject({ name: "ValidationException" });
  });

  it("keeps what the read model holds: server defaults and normalised values become the stored model", async () => {
    const cloud = fakeCloud();
    const id = await create(cloud, FN, fnModel({ Engine: "MySQL" }));
    await update(cloud, FN, id, [{ op: "add", path: "/Code", value: { ZipFile: "v2" } }]);
    expect(cloud.objects(FN)[0]!.properties).toMatchObject({ Engine: "mysql", MemorySize: 128 });
  });

  it("refuses a patch touching a create-only path, nested ones included, and lets an updatable sibling change", async () => {
    const cloud = fakeCloud();
    const id = await create(cloud, FN, fnModel({ Network: { IpFamily: "ipv4", Elb: false } }));
    await expect(update(cloud, FN, id, [{ op: "replace", path: "/Network", value: { IpFamily: "ipv4", Elb: true } }])).rejects.toMatchObject({
      name: "NotUpdatableException",
      message: "Invalid patch update: createOnlyProperties [/properties/Network/IpFamily] cannot be updated",
    });
    await expect(update(cloud, FN, id, [{ op: "replace", path: "/FunctionName", value: "f2" }])).rejects.toMatchObject({ name: "NotUpdatableException" });
    const ok = await update(cloud, FN, id, [{ op: "replace", path: "/Network/Elb", value: true }, { op: "add", path: "/Code", value: { ZipFile: "x" } }]);
    expect(ok.OperationStatus).toBe("SUCCESS");
    expect((await read(cloud, FN, id)).Network).toEqual({ IpFamily: "ipv4", Elb: true });
  });

  it("refuses a patch that re-sends an unchanged create-only value: touching the path is enough (pulumi-aws-native#2936, terraform-provider-awscc#2138)", async () => {
    const cloud = new FakeCloudControl({ pollsToFinish: 0 });
    const id = (await cloud.handle("CreateResource", { TypeName: "AWS::SQS::Queue", DesiredState: JSON.stringify({ QueueName: "q" }) })) as { ProgressEvent: { Identifier: string } };
    await expect(update(cloud, "AWS::SQS::Queue", id.ProgressEvent.Identifier, [{ op: "add", path: "/QueueName", value: "q" }])).rejects.toMatchObject({ name: "NotUpdatableException" });
  });

  it("checks a generated type's update against the registry schema Cairn ships: a Lambda function patch without Code fails as on AWS", async () => {
    const cloud = new FakeCloudControl({ pollsToFinish: 0 });
    const made = await create(cloud, "AWS::Lambda::Function", { FunctionName: "fn", Role: "arn:aws:iam::123456789012:role/r", Code: { ZipFile: "x" }, Runtime: "nodejs22.x", Handler: "index.h" });
    await expect(update(cloud, "AWS::Lambda::Function", made, [{ op: "add", path: "/MemorySize", value: 256 }])).rejects.toMatchObject({ name: "ValidationException", message: "Model validation failed (#: required key [Code] not found)" });
    const ok = await update(cloud, "AWS::Lambda::Function", made, [{ op: "add", path: "/MemorySize", value: 256 }, { op: "add", path: "/Code", value: { ZipFile: "x" } }]);
    expect(ok.OperationStatus).toBe("SUCCESS");
  });

  it("without a registry schema (schemaOf answering none) checks the update's model against the specification", async () => {
    const cloud = new FakeCloudControl({ pollsToFinish: 0, schemaOf: () => undefined });
    const made = await create(cloud, "AWS::Lambda::Function", { FunctionName: "fn", Role: "arn:aws:iam::123456789012:role/r", Code: { ZipFile: "x" }, Runtime: "nodejs22.x", Handler: "index.h" });
    const e = await update(cloud, "AWS::Lambda::Function", made, [{ op: "add", path: "/MemorySize", value: 256 }]);
    expect(e).toMatchObject({ OperationStatus: "FAILED", ErrorCode: "InvalidRequest" });
    expect(e.StatusMessage).toContain("#: required key [Code] not found");
  });
});

describe("values the fake made up itself", () => {
  it("are not held against an update's model (the service's own attributes are valid on AWS), while what the patch changes is checked", async () => {
    const cloud = fakeCloud();
    const { FunctionName: _, ...unnamed } = fnModel();
    const id = await create(cloud, FN, unnamed);
    // The fake named the function itself ("function-…"), which the schema's pattern would refuse from a user.
    expect(id).toMatch(/^function-/);
    const ok = await update(cloud, FN, id, [{ op: "add", path: "/Code", value: { ZipFile: "v2" } }]);
    expect(ok.OperationStatus).toBe("SUCCESS");
    await expect(update(cloud, FN, id, [{ op: "add", path: "/Code", value: { ZipFile: "v3" } }, { op: "add", path: "/MemorySize", value: 1 }])).rejects.toMatchObject({ message: "Model validation failed (#/MemorySize: failed validation constraint for keyword [minimum])" });
  });

  it("clear() forgets every object", async () => {
    const cloud = fakeCloud();
    await create(cloud, FN, fnModel());
    cloud.clear();
    expect(cloud.objects()).toEqual([]);
    expect(await create(cloud, FN, fnModel())).toBe("f1");
  });
});

describe("deletes on the fake Cloud Control", () => {
  it("are refused while another object's given properties mention the object, not when only its made-up attributes coincide", async () => {
    const cloud = fakeCloud();
    const a = await create(cloud, FN, fnModel({ FunctionName: "a" }));
    await create(cloud, FN, fnModel({ FunctionName: "b", Engine: "a" }));
    const refused = await run(cloud, "DeleteResource", { TypeName: FN, Identifier: a });
    expect(refused).toMatchObject({ OperationStatus: "FAILED", ErrorCode: "ResourceConflict" });
    const c = await create(cloud, FN, fnModel({ FunctionName: "c" }));
    expect((await run(cloud, "DeleteResource", { TypeName: FN, Identifier: c })).OperationStatus).toBe("SUCCESS");
  });
});
