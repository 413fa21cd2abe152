import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { appendFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { program, type ProgramFn } from "../../../../src/entry/program.js";
import { Provider } from "../../../../src/providers/aws/provider.js";
import { serveFakeCloudControl, type ServedFakeCloudControl } from "../../../../src/testing/cloudcontrol/fake-server.js";
import { Queue } from "../../../../src/providers/aws/services/sqs.js";
import { DBInstance } from "../../../../src/providers/aws/services/rds.js";
import { wait } from "../../../../src/wait/wait.js";
import { seconds } from "../../../../src/core/duration.js";

let dir: string;
let fake: ServedFakeCloudControl;
let aws: Provider;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cairn-cc-"));
  fake = await serveFakeCloudControl({ pollsToFinish: 0 }); // requests finish when first asked about: no poller pauses
  aws = new Provider(`fake-${Math.random().toString(36).slice(2)}`, { region: "us-east-1", endpoint: fake.endpoint, credentials: { accessKeyId: "x", secretAccessKey: "x" } });
});
afterEach(async () => {
  await fake.stop();
  await rm(dir, { recursive: true, force: true });
});

/** A stack of `fn` against the fake; `failures` collects the errors of failed steps. */
function stackOf(fn: ProgramFn) {
  const stack = program("cc", fn).stack({ stateDir: dir, passphrase: "p", defaultProviders: { aws } });
  const failures: string[] = [];
  stack.events.subscribe((e) => e.type === "step-failed" && failures.push(e.error));
  return Object.assign(stack, { failures });
}

describe("a Cloud Control type against the fake cloud", () => {
  it("creates, updates in place with a patch of the changed path only, replaces on a create-only change, and deletes", async () => {
    let timeout = 30;
    let fifo = false;
    const stack = stackOf(() => {
      const q = new Queue("jobs", { queueName: fifo ? "jobs.fifo" : "jobs", visibilityTimeout: timeout, ...(fifo ? { fifoQueue: true } : {}) });
      return { url: q.queueUrl, arn: q.arn };
    });
    const first = await stack.up();
    expect(stack.failures).toEqual([]);
    expect(first.summary?.ok).toBe(true);
    const [obj] = fake.cloud.objects("AWS::SQS::Queue");
    expect(obj!.properties).toMatchObject({ QueueName: "jobs", VisibilityTimeout: 30 });
    expect(first.outputs?.url).toBe(obj!.identifier);

    timeout = 60;
    const plan = await stack.preview();
    expect(plan.steps.map((s) => s.kind)).toEqual(["update"]);
    await stack.up();
    const update = fake.cloud.calls.find((c) => c.operation === "UpdateResource")!;
    expect(update.patch).toEqual([{ op: "replace", path: "/VisibilityTimeout", value: 60 }]);
    expect(fake.cloud.objects("AWS::SQS::Queue")[0]!.properties.VisibilityTimeout).toBe(60);

    fifo = true;
    const replace = await stack.preview();
    expect(replace.steps[0]).toMatchObject({ kind: "replace", replaceKeys: expect.arrayContaining(["queueName", "fifoQueue"]), dataLoss: { allowed: false } });
    await stack.up({ allowDataLoss: ["jobs"] }); // a queue is stateful: its replace loses its messages
    expect(fake.cloud.objects("AWS::SQS::Queue").map((o) => o.properties.QueueName)).toEqual(["jobs.fifo"]);

    await stack.destroy();
    expect(fake.cloud.objects()).toEqual([]);
  });
});

describe("checks, refusals and default tags on Cloud Control types", () => {
  it("refuses inputs the specification does not allow at preview, naming resource, property and expected type, and creates nothing", async () => {
    const stack = stackOf(() => {
      new Queue("jobs", { queueName: "jobs", visibilityTimout: 30 } as never);
      new Queue("other", { visibilityTimeout: "soon" } as never);
    });
    const plan = await stack.preview();
    const errors = plan.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.summary} (declared at ${String(d.site)})`);
    expect(errors).toEqual([
      '"jobs" (aws:sqs:Queue), input "visibilityTimout": AWS::SQS::Queue has no property "visibilityTimout" (did you mean "visibilityTimeout"?) (declared at tests/providers/aws/cloudcontrol/lifecycle.test.ts:71:7)',
      '"other" (aws:sqs:Queue), input "visibilityTimeout": expected an integer, got string "soon" (declared at tests/providers/aws/cloudcontrol/lifecycle.test.ts:72:7)',
    ]);
    await expect(stack.up()).rejects.toThrow(/visibilityTimout/);
    expect(fake.cloud.calls.filter((c) => c.operation !== "ListResourceRequests")).toEqual([]);
  });

  it("a type Cloud Control does not support fails with what to do, and nothing is recorded", async () => {
    await fake.stop();
    fake = await serveFakeCloudControl({ pollsToFinish: 0, unsupported: ["AWS::SQS::Queue"] });
    aws = new Provider(`fake-${Math.random().toString(36).slice(2)}`, { region: "us-east-1", endpoint: fake.endpoint, credentials: { accessKeyId: "x", secretAccessKey: "x" } });
    const stack = stackOf(() => void new Queue("jobs", { queueName: "jobs" }));
    const r = await stack.up();
    expect(r.summary?.ok).toBe(false);
    expect(stack.failures.join("\n")).toMatch(/UnsupportedActionException: Resource type AWS::SQS::Queue does not support CREATE action\. This resource type does not support this operation through the Cloud Control API/);
    expect(await stack.resources()).toEqual([]);
  });

  it("merges the stack's aws:defaultTags and the provider's defaultTags into every taggable resource, its own tags winning, and the plan shows them", async () => {
    aws = new Provider(`tagged-${Math.random().toString(36).slice(2)}`, { region: "us-east-1", endpoint: fake.endpoint, credentials: { accessKeyId: "x", secretAccessKey: "x" }, defaultTags: { team: "web", env: "dev" } });
    const stack = stackOf(() => void new Queue("jobs", { queueName: "jobs", tags: [{ key: "env", value: "prod" }] }));
    await stack.setConfig("aws:defaultTags", JSON.stringify({ owner: "platform", team: "ops" }));
    const plan = await stack.preview();
    expect(plan.steps[0]).toMatchObject({ kind: "create", news: { tags: [{ key: "owner", value: "platform" }, { key: "team", value: "web" }, { key: "env", value: "prod" }] } });
    await stack.up();
    expect(fake.cloud.objects("AWS::SQS::Queue")[0]!.properties.Tags).toEqual([{ Key: "owner", Value: "platform" }, { Key: "team", Value: "web" }, { Key: "env", Value: "prod" }]);
    await stack.setConfig("aws:defaultTags", "not json");
    await expect(stack.preview()).rejects.toThrow(/aws:defaultTags must be a JSON object of strings/);
  });
});

describe("waits on many objects of one type", () => {
  it("are served by one ListResources call per round instead of a GetResource each", async () => {
    // Creates that finish in the same poll round release their waits together, so each round reads all five;
    // finished at once (pollsToFinish 0), a create done a few ms late would start a round of one wait alone.
    await fake.stop();
    fake = await serveFakeCloudControl({ pollsToFinish: 2 });
    aws = new Provider(`fake-${Math.random().toString(36).slice(2)}`, { region: "us-east-1", endpoint: fake.endpoint, credentials: { accessKeyId: "x", secretAccessKey: "x" } });
    const stack = stackOf(() => {
      for (let i = 0; i < 5; i++) {
        const db = new DBInstance(`db${i}`, { dbInstanceIdentifier: `db-${i}`, engine: "postgres", dbInstanceClass: "db.t4g.micro", masterUsername: "app", masterUserPassword: "pw-pw-pw-pw" });
        wait(db, { until: (d) => d.dbInstanceStatus.eq("available"), interval: seconds(1) });
      }
    });
    const r = await stack.up();
    expect(stack.failures).toEqual([]);
    expect(r.summary?.ok).toBe(true);
    expect(fake.cloud.objects("AWS::RDS::DBInstance").map((o) => o.properties.DBInstanceStatus)).toEqual(Array(5).fill("available"));
    // One read back per create; the waits' rounds read all five with one list call each.
    expect(fake.cloud.count("GetResource")).toBe(5);
    expect(fake.cloud.count("ListResources")).toBeGreaterThanOrEqual(1);
    expect(fake.cloud.count("ListResources")).toBeLessThanOrEqual(3);
  });
});

describe("a throttling Cloud Control", () => {
  it("is retried: every third call refused with ThrottlingException, and the program still converges to one object each", async () => {
    await fake.stop();
    fake = await serveFakeCloudControl({ throttleEvery: 3, pollsToFinish: 0 });
    aws = new Provider(`throttled-${Math.random().toString(36).slice(2)}`, { region: "us-east-1", endpoint: fake.endpoint, credentials: { accessKeyId: "x", secretAccessKey: "x" } });
    const stack = stackOf(() => {
      for (let i = 0; i < 4; i++) new Queue(`q${i}`, { queueName: `q${i}` });
    });
    const r = await stack.up();
    expect(stack.failures).toEqual([]);
    expect(r.summary?.ok).toBe(true);
    expect(fake.cloud.objects("AWS::SQS::Queue").map((o) => o.identifier).sort()).toHaveLength(4);
    expect(fake.cloud.calls.filter((c) => c.error === "ThrottlingException").length).toBeGreaterThan(2);
    await stack.destroy();
    expect(fake.cloud.objects()).toEqual([]);
  });
});

describe("an interrupted create whose answer was lost", () => {
  it("stops the run naming the requests that may be it, and --forget-interrupted lets the user go on", async () => {
    const URN = "urn:cairn:dev::cc::aws:sqs:Queue::lost";
    const program = () => void new Queue("lost", { queueName: "lost" });
    await stackOf(() => {}).up();
    // A create of that type reached Cloud Control, but the run died before noting its request token.
    const since = Date.now() - 1000;
    await fake.cloud.handle("CreateResource", { TypeName: "AWS::SQS::Queue", DesiredState: JSON.stringify({ QueueName: "lost" }), ClientToken: "cairn-lost" });
    const journal = join(dir, "stacks", "dev", "journal.ndjson");
    await appendFile(journal, `${JSON.stringify({ t: "begin", op: 900, kind: "create", urn: URN, since: new Date(since).toISOString() })}\n${JSON.stringify({ t: "note", op: 900, d: { clientToken: "cairn-lost", since: String(since) } })}\n`);

    await expect(stackOf(program).preview()).rejects.toThrow(/cannot be settled safely: .*Cloud Control shows 1 create\(s\) of that type since then: .*Then run again with --forget-interrupted urn:cairn:dev::cc::aws:sqs:Queue::lost/);

    const stack = program_stack(program, [URN]);
    const warnings: string[] = [];
    stack.events.subscribe((e) => e.type === "diagnostic" && warnings.push(e.summary));
    const plan = await stack.preview();
    expect(plan.steps.map((s) => s.kind)).toEqual(["create"]);
    expect(warnings.join("\n")).toMatch(/interrupted create of urn:cairn:dev::cc::aws:sqs:Queue::lost .* was forgotten, as --forget-interrupted asked/);
  });
});

/** A stack of `fn` that forgets the interrupted operations of `urns`. */
function program_stack(fn: ProgramFn, urns: string[]) {
  return program("cc", fn).stack({ stateDir: dir, passphrase: "p", defaultProviders: { aws }, forgetInterrupted: urns });
}
