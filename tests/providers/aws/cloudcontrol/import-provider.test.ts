import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { program, type ProgramFn } from "../../../../src/entry/program.js";
import { Provider } from "../../../../src/providers/aws/provider.js";
import { serveFakeCloudControl, type ServedFakeCloudControl } from "../../../../src/testing/cloudcontrol/fake-server.js";
import { Bucket } from "../../../../src/providers/aws/services/s3.js";

let dir: string;
let fake: ServedFakeCloudControl;
let aws: Provider;
let name: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cairn-impprov-"));
  fake = await serveFakeCloudControl({ tracks: {} });
  name = `main-${Math.random().toString(36).slice(2)}`;
  aws = new Provider(name, { region: "us-east-1", endpoint: fake.endpoint, credentials: { accessKeyId: "x", secretAccessKey: "x" } });
});
afterEach(async () => {
  await fake.stop();
  await rm(dir, { recursive: true, force: true });
});

const stackOf = (fn: ProgramFn) => program("imp", fn).stack({ stateDir: dir, passphrase: "p", defaultProviders: { aws } });

/** Makes a bucket in the fake behind Cairn's back, finished. */
async function existingBucket(name: string): Promise<string> {
  const made = (await fake.cloud.handle("CreateResource", { TypeName: "AWS::S3::Bucket", DesiredState: JSON.stringify({ BucketName: name }) })) as { ProgressEvent: { RequestToken: string; Identifier: string } };
  for (let i = 0; i < 5; i++) await fake.cloud.handle("GetResourceRequestStatus", { RequestToken: made.ProgressEvent.RequestToken });
  return made.ProgressEvent.Identifier;
}

describe("adopting an object through an explicit provider instance", () => {
  it("the import option adopts it with that instance: the plan shows no change, not a replacement for the provider", async () => {
    const id = await existingBucket("logs");
    const stack = stackOf(() => void new Bucket("logs", { bucketName: "logs" }, { import: id }));
    const plan = await stack.preview();
    expect(plan.steps.map((s) => [s.kind, "reason" in s ? s.reason : undefined])).toEqual([["same", undefined]]);
    expect((await stack.up()).summary?.ok).toBe(true);
    const [record] = await stack.resources();
    expect(record!.provider).toEqual({ name, settings: { region: "us-east-1", endpoint: fake.endpoint } });
    expect((await stackOf(() => void new Bucket("logs", { bucketName: "logs" })).preview()).steps.map((s) => s.kind)).toEqual(["same"]);
    expect(fake.cloud.count("CreateResource")).toBe(1);
  });

  it("state import records that instance, so a later run of the program plans no change", async () => {
    const id = await existingBucket("logs");
    const declare = () => void new Bucket("logs", { bucketName: "logs" });
    const edit = await stackOf(declare).importResource("aws:s3:Bucket", "logs", id);
    expect(edit.record.provider).toEqual({ name, settings: { region: "us-east-1", endpoint: fake.endpoint } });
    expect((await stackOf(declare).preview()).steps.map((s) => s.kind)).toEqual(["same"]);
  });
});
