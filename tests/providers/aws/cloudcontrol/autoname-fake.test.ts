import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { program, type ProgramFn } from "../../../../src/entry/program.js";
import { Provider } from "../../../../src/providers/aws/provider.js";
import { serveFakeCloudControl, type ServedFakeCloudControl } from "../../../../src/testing/cloudcontrol/fake-server.js";
import { Queue } from "../../../../src/providers/aws/services/sqs.js";
import { Bucket } from "../../../../src/providers/aws/services/s3.js";

let dir: string;
let fake: ServedFakeCloudControl;
let aws: Provider;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cairn-names-"));
  fake = await serveFakeCloudControl();
  aws = new Provider(`fake-${Math.random().toString(36).slice(2)}`, { region: "us-east-1", endpoint: fake.endpoint, credentials: { accessKeyId: "x", secretAccessKey: "x" } });
});
afterEach(async () => {
  await fake.stop();
  await rm(dir, { recursive: true, force: true });
});

const stackOf = (fn: ProgramFn) => program("names", fn).stack({ stateDir: dir, passphrase: "p", defaultProviders: { aws } });

describe("auto-naming through Cloud Control", () => {
  it("creates the queue and bucket under the names the plan showed, keeps them, and gives a FIFO replacement a new .fifo name", async () => {
    let fifo = false;
    const stack = stackOf(() => {
      new Queue("jobs", fifo ? { fifoQueue: true } : {});
      new Bucket("Site_Assets", {});
    });
    const plan = await stack.preview();
    const planned = Object.fromEntries(plan.steps.map((s) => [s.urn.split("::").pop(), s.kind === "create" ? s.news : undefined]));
    expect(planned.jobs).toEqual({ queueName: expect.stringMatching(/^jobs-[0-9a-f]{7}$/) });
    expect(planned.Site_Assets).toEqual({ bucketName: expect.stringMatching(/^site-assets-[0-9a-f]{7}$/) });
    expect((await stack.apply(plan)).summary?.ok).toBe(true);
    expect(fake.cloud.objects("AWS::SQS::Queue").map((o) => o.properties.QueueName)).toEqual([planned.jobs!.queueName]);
    expect(fake.cloud.objects("AWS::S3::Bucket").map((o) => o.properties.BucketName)).toEqual([planned.Site_Assets!.bucketName]);

    const creates = fake.cloud.count("CreateResource");
    expect((await stack.preview()).steps.map((s) => s.kind)).toEqual(["same", "same"]);
    await stack.up();
    expect(fake.cloud.count("CreateResource")).toBe(creates);

    fifo = true;
    const r = await stack.up({ allowDataLoss: ["jobs"] }); // a queue is stateful: its replace loses its messages
    expect(r.summary?.ok).toBe(true);
    const [queue] = fake.cloud.objects("AWS::SQS::Queue");
    expect(fake.cloud.objects("AWS::SQS::Queue")).toHaveLength(1);
    expect(queue!.properties.QueueName).toMatch(/^jobs-[0-9a-f]{7}\.fifo$/);
    expect(queue!.properties.QueueName).not.toBe(`${planned.jobs!.queueName}.fifo`);
  });
});
