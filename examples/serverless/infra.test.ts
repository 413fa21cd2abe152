// Tests of the serverless program against Cairn's strict fake Cloud Control (cairn-iac/testing): schema-checked
// AWS types, asynchronous requests, create-only properties, deletes refused while in use. No AWS call is made.
// Run them with the rest: npm test (or: npx vitest run examples/serverless)
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { serveFakeCloudControl, type ServedFakeCloudControl } from "cairn-iac/testing";
import app from "./infra.ts";

let fake: ServedFakeCloudControl;
beforeEach(async () => {
  fake = await serveFakeCloudControl({ pollsToFinish: 1 });
});
afterEach(async () => {
  await fake.stop();
});

const stackFor = () => app.stack({ backend: "memory://", passphrase: "test", defaultProviders: { aws: fake.provider } });

describe("serverless", () => {
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
    expect(code.S3Key).toMatch(/^[0-9a-f]{64}\.zip$/);
    expect([...fake.s3.objects.keys()]).toEqual([`${code.S3Bucket}/${code.S3Key}`]);
    expect(mapping!.properties).toMatchObject({ EventSourceArn: queue!.properties.Arn, FunctionName: fn!.properties.Arn, BatchSize: 10 });
    expect(result.outputs).toMatchObject({ uploads: "serverless-dev-uploads", queueUrl: queue!.identifier });
  });

  it("uploads the worker's code once: a second up with the folder unchanged sends no PutObject", async () => {
    const stack = stackFor();
    await stack.up();

    const again = await stack.up();

    expect(again.summary?.ok).toBe(true);
    expect(fake.s3.puts).toBe(1);
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
