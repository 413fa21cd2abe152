import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { stackFiles } from "../../../../src/state/stack-files.js";
import { beginLine, headLine, noteLine } from "../../../../src/state/journal-format.js";
import type { Urn } from "../../../../src/core/urn.js";
import { program, type ProgramFn } from "../../../../src/entry/program.js";
import { Provider } from "../../../../src/providers/aws/provider.js";
import { serveFakeCloudControl, type ServedFakeCloudControl } from "../../../../src/testing/cloudcontrol/fake-server.js";
import { Bucket } from "../../../../src/providers/aws/services/s3.js";
import { Function as LambdaFunction } from "../../../../src/providers/aws/services/lambda.js";
import { cloudControlType } from "../../../../src/providers/aws/cloudcontrol/define.js";
import { changesBeyondObserved, hasChanges } from "../../../../src/plan/plan.js";
import { DB_DATA } from "./registry-types.js";

/** An RDS-like type with the registry's facts (its propertyTransforms), served by the fake as any other. */
const Db = cloudControlType<Record<string, unknown>, Record<string, unknown>>("Test::RDS::DBInstance", "aws:testrds:DBInstance", JSON.stringify(DB_DATA));

let dir: string;
let fake: ServedFakeCloudControl;
let aws: Provider;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cairn-own-"));
  // No status that moves on by itself: a test changes one when it means to.
  fake = await serveFakeCloudControl({ tracks: {} });
  aws = new Provider(`fake-${Math.random().toString(36).slice(2)}`, { region: "us-east-1", endpoint: fake.endpoint, credentials: { accessKeyId: "x", secretAccessKey: "x" } });
});
afterEach(async () => {
  await fake.stop();
  await rm(dir, { recursive: true, force: true });
});

const stackOf = (fn: ProgramFn) => program("own", fn).stack({ stateDir: dir, passphrase: "p", defaultProviders: { aws } });

/** Makes an object in the fake behind Cairn's back (as the console would), finished. */
async function existing(typeName: string, model: Record<string, unknown>): Promise<string> {
  const made = (await fake.cloud.handle("CreateResource", { TypeName: typeName, DesiredState: JSON.stringify(model) })) as { ProgressEvent: { RequestToken: string; Identifier: string } };
  for (let i = 0; i < 5; i++) await fake.cloud.handle("GetResourceRequestStatus", { RequestToken: made.ProgressEvent.RequestToken });
  return made.ProgressEvent.Identifier;
}

const role = "arn:aws:iam::123456789012:role/fn";
const code = { zipFile: "exports.handler = async () => 1;" };

describe("state import records what the program declares, never the cloud's defaults, as inputs", () => {
  it("a bucket the cloud filled with defaults: the record's inputs are the declared properties, preview shows no change, up sends no patch", async () => {
    await existing("AWS::S3::Bucket", {
      BucketName: "logs",
      VersioningConfiguration: { Status: "Enabled" },
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      OwnershipControls: { Rules: [{ ObjectOwnership: "BucketOwnerEnforced" }] },
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: "AES256" } }] },
    });
    const stack = stackOf(() => void new Bucket("logs", { bucketName: "logs", versioningConfiguration: { status: "Enabled" } }));
    const edit = await stack.importResource("aws:s3:Bucket", "logs", "logs");
    expect(edit.record.inputs).toEqual({ bucketName: "logs", versioningConfiguration: { status: "Enabled" } });
    expect(edit.record.outputs).toMatchObject({ publicAccessBlockConfiguration: { blockPublicAcls: true } });
    const plan = await stack.preview();
    expect(hasChanges(plan)).toBe(false);
    await stack.up();
    expect(fake.cloud.count("UpdateResource")).toBe(0);
    expect(fake.cloud.objects("AWS::S3::Bucket")[0]!.properties.PublicAccessBlockConfiguration).toBeDefined();
  });

  it("a declared value that comes from another resource is compared once known: the cloud's defaults inside it are no change", async () => {
    await existing("AWS::S3::Bucket", { BucketName: "src" });
    await existing("AWS::S3::Bucket", { BucketName: "logs", LoggingConfiguration: { DestinationBucketName: "src", LogFilePrefix: "default/" } });
    const stack = stackOf(() => {
      const src = new Bucket("src", { bucketName: "src" });
      new Bucket("logs", { bucketName: "logs", loggingConfiguration: { destinationBucketName: src.bucketName } });
    });
    await stack.importResource("aws:s3:Bucket", "src", "src");
    const edit = await stack.importResource("aws:s3:Bucket", "logs", "logs");
    expect(edit.record.inputsUnknown).toBe(true);
    expect(hasChanges(await stack.preview())).toBe(false);
    await stack.up();
    expect(fake.cloud.count("UpdateResource")).toBe(0);
  });

  it("an imported function is not replaced over a create-only property the cloud set (packageType), nor over its write-only code", async () => {
    await existing("AWS::Lambda::Function", { FunctionName: "fn", Role: role, Code: { ZipFile: code.zipFile }, PackageType: "Zip", MemorySize: 128 });
    let memorySize = 128;
    const stack = stackOf(() => void new LambdaFunction("fn", { functionName: "fn", role, code, memorySize }));
    await stack.importResource("aws:lambda:Function", "fn", "fn");
    expect(hasChanges(await stack.preview())).toBe(false);

    memorySize = 256;
    const plan = await stack.preview();
    expect(plan.steps.map((s) => s.kind)).toEqual(["update"]);
    expect((await stack.up()).summary?.ok).toBe(true);
    const update = fake.cloud.calls.find((c) => c.operation === "UpdateResource")!;
    expect(update.patch).toEqual([
      { op: "replace", path: "/MemorySize", value: 256 },
      { op: "add", path: "/Code", value: { ZipFile: code.zipFile } },
    ]);
  });
});

describe("a refresh records what it observes; only a declared property's change is drift", () => {
  const db = () => void new Db("db", { dbInstanceIdentifier: "CCH-Case-DB", engine: "MySQL", port: "3306", masterUserPassword: "pw-123456" });

  it("a status that changed, and an identifier and engine the service lowercased, pass --expect-no-changes; the status is recorded", async () => {
    const stack = stackOf(db);
    expect((await stack.up()).summary?.ok).toBe(true);
    const [obj] = fake.cloud.objects("Test::RDS::DBInstance");
    fake.cloud.tamper("Test::RDS::DBInstance", obj!.identifier, (p) => {
      p.DBInstanceStatus = "modifying";
      p.Engine = "mysql";
      p.DBInstanceIdentifier = "cch-case-db";
    });
    const plan = await stack.preview({ refresh: true });
    expect(plan.drift).toEqual([]);
    expect(plan.steps.map((s) => s.kind)).toEqual(["same"]);
    expect(changesBeyondObserved(plan)).toBe(false);
    await stack.up({ refresh: true });
    const [record] = await stack.resources();
    expect(record!.outputs.dbInstanceStatus).toBe("modifying");
    expect(record!.inputs).toMatchObject({ dbInstanceIdentifier: "CCH-Case-DB", engine: "MySQL" });
    expect(record!.drift).toBeUndefined();
    expect(fake.cloud.count("UpdateResource")).toBe(0);
  });

  it("refresh records a changed status without asking: it is not drift", async () => {
    const stack = stackOf(db);
    await stack.up();
    const [obj] = fake.cloud.objects("Test::RDS::DBInstance");
    fake.cloud.tamper("Test::RDS::DBInstance", obj!.identifier, (p) => void (p.DBInstanceStatus = "storage-optimization"));
    const r = await stack.refresh({ confirm: async () => Promise.reject(new Error("asked to confirm drift")) });
    expect(r).toEqual({ changes: [], applied: true });
    expect((await stack.resources())[0]!.outputs.dbInstanceStatus).toBe("storage-optimization");
    expect(hasChanges(await stack.preview({ refresh: true }))).toBe(false);
  });

  it("a declared property changed outside Cairn is drift, and the plan puts it back", async () => {
    const stack = stackOf(db);
    await stack.up();
    const [obj] = fake.cloud.objects("Test::RDS::DBInstance");
    fake.cloud.tamper("Test::RDS::DBInstance", obj!.identifier, (p) => void (p.Port = "3307"));
    const plan = await stack.preview({ refresh: true });
    expect(plan.drift).toEqual([expect.objectContaining({ kind: "drift", changed: ["port"] })]);
    expect(changesBeyondObserved(plan)).toBe(true);
  });
});

describe("a create resumed after an interruption records the object's values as outputs, not inputs", () => {
  it("a role without roleName, interrupted mid-create, is resumed and then plans no change (no second create, no delete)", async () => {
    const { Role } = await import("../../../../src/providers/aws/services/iam.js");
    let maxSessionDuration = 3600;
    const fn = () => void new Role("r", { assumeRolePolicyDocument: { Version: "2012-10-17", Statement: [] }, maxSessionDuration });
    // What a run killed while Cloud Control was creating leaves: the create sent, and in the journal the
    // operation begun, with the tokens it noted.
    const since = new Date().toISOString();
    const desired = { AssumeRolePolicyDocument: { Version: "2012-10-17", Statement: [] }, MaxSessionDuration: 3600 };
    const sent = (await fake.cloud.handle("CreateResource", { TypeName: "AWS::IAM::Role", DesiredState: JSON.stringify(desired), ClientToken: "cairn-killed" })) as { ProgressEvent: { RequestToken: string } };
    const urn = "urn:cairn:dev::own::aws:iam:Role::r";
    const files = stackFiles(dir, "dev");
    await mkdir(dirname(files.journal), { recursive: true });
    await writeFile(files.journal, headLine(0) + beginLine({ op: 1, kind: "create", urn: urn as Urn, type: "aws:iam:Role", since }) + noteLine(1, { clientToken: "cairn-killed", since: String(Date.parse(since)), requestToken: sent.ProgressEvent.RequestToken }));

    const warnings: string[] = [];
    const stack = stackOf(fn);
    stack.events.subscribe((e) => e.type === "diagnostic" && warnings.push(e.summary));
    const plan = await stack.preview();
    expect(warnings.join("\n")).toMatch(/interrupted create of .*Role::r .* was resumed: its request had finished: the object .* was created/);
    expect(plan.steps.map((s) => s.kind)).toEqual(["same"]);
    expect(hasChanges(plan)).toBe(false);
    const [record] = await stack.resources();
    expect(record!.inputs).toEqual({});
    expect(record!.outputs.roleName).toMatch(/./);
    await stack.up();
    expect(fake.cloud.count("CreateResource")).toBe(1);
    expect(fake.cloud.count("DeleteResource")).toBe(0);
    expect(fake.cloud.objects("AWS::IAM::Role")).toHaveLength(1);

    // The next change is an update of what the program declares; its apply records the declared inputs.
    maxSessionDuration = 7200;
    expect((await stack.up()).summary?.ok).toBe(true);
    expect(fake.cloud.calls.filter((c) => c.operation === "UpdateResource").map((c) => c.patch)).toEqual([[{ op: "replace", path: "/MaxSessionDuration", value: 7200 }]]);
    const [after] = await stack.resources();
    expect(after!.inputs).toEqual({ assumeRolePolicyDocument: { Version: "2012-10-17", Statement: [] }, maxSessionDuration: 7200 });
    expect(after!.inputsUnknown).toBeUndefined();
    expect(fake.cloud.count("CreateResource")).toBe(1);
  });
});
