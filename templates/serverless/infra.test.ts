// Tests of the serverless program against Cairn's strict fake Cloud Control (cairn-iac/testing): schema-checked
// AWS types, asynchronous requests, create-only properties, deletes refused while in use. No AWS call is made.
// Run them with: npm test
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { serveFakeCloudControl, type ServedFakeCloudControl } from "cairn-iac/testing";
import app from "./infra.ts";

let fake: ServedFakeCloudControl;
beforeEach(async () => {
  // Requests finish when first asked about (pollsToFinish: 0), so a test waits on no poller's pauses.
  fake = await serveFakeCloudControl({ pollsToFinish: 0 });
});
afterEach(async () => {
  await fake.stop();
});

const stackFor = () => app.stack({ backend: "memory://", passphrase: "test", defaultProviders: { aws: fake.provider } });

describe("{{name}}", () => {
  it("creates the bucket, queue, role, function and its queue trigger, wired by ARNs", async () => {
    const result = await stackFor().up();

    expect(result.summary?.ok).toBe(true);
    const [fn] = fake.cloud.objects("AWS::Lambda::Function");
    const [role] = fake.cloud.objects("AWS::IAM::Role");
    const [queue] = fake.cloud.objects("AWS::SQS::Queue");
    const [mapping] = fake.cloud.objects("AWS::Lambda::EventSourceMapping");
    expect(fn!.properties.Role).toBe(role!.properties.Arn);
    // The code is the folder ./worker, uploaded to the assets bucket under its hash before the function was made.
    const code = fn!.properties.Code as { S3Bucket: string; S3Key: string };
    expect([...fake.s3.objects.keys()]).toEqual([`${code.S3Bucket}/${code.S3Key}`]);
    expect(mapping!.properties).toMatchObject({ EventSourceArn: queue!.properties.Arn, FunctionName: fn!.properties.Arn, BatchSize: 10 });
    expect(result.outputs).toMatchObject({ uploads: "{{name}}-dev-uploads", queueUrl: queue!.identifier });
  });

  it("destroys in reverse order: nothing is deleted while something still uses it", async () => {
    const stack = stackFor();
    await stack.up();

    const result = await stack.destroy();

    expect(result.summary?.ok).toBe(true);
    expect(fake.cloud.objects()).toEqual([]);
    expect([...fake.s3.objects.keys()]).toEqual([]);
    expect(fake.cloud.calls.filter((c) => c.error)).toEqual([]);
  });
});
