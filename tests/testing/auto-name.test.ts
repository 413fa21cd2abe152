import { describe, expect, it } from "vitest";
import { mocks, testProgram } from "cairn-iac/testing";
import { program } from "../../src/entry/program.js";
import { Queue } from "../../src/providers/aws/services/sqs.js";
import { Bucket } from "../../src/providers/aws/services/s3.js";
import { local } from "../../src/providers/local/index.js";
import type { ResourceOptions } from "../../src/program/resource.js";
import type { ProgramOptions } from "../../src/program/evaluate.js";

const NAME = /^jobs-[0-9a-f]{7}$/;

/** A program of one queue with no `queueName`; `vars` change what it declares between runs. */
function queueApp(vars: { timeout?: number; fifo?: boolean; name?: string; opts?: ResourceOptions } = {}, options?: ProgramOptions) {
  return program("naming", () => {
    const q = new Queue("jobs", { visibilityTimeout: vars.timeout ?? 30, ...(vars.fifo ? { fifoQueue: true } : {}), ...(vars.name ? { queueName: vars.name } : {}) }, vars.opts);
    return { name: q.queueName };
  }, options);
}

const queueMocks = () => ({ "aws:sqs:Queue": mocks.resource() });

describe("auto-naming on the engine", () => {
  it("names a queue the program leaves unnamed at plan time, and keeps that name across runs", async () => {
    const vars: { timeout?: number } = {};
    const run = await testProgram(queueApp(vars), { mocks: queueMocks() });
    const plan = await run.preview();
    const planned = plan.step("jobs", "create").inputs!.queueName as string;
    expect(planned).toMatch(NAME);
    expect(plan.outputs.name).toBe(planned); // dependents see the name at preview

    const first = await run.up();
    expect(first.inputs.jobs!.queueName).toBe(planned);
    expect(first.resources.jobs!.inputs.queueName).toBe(planned);

    const again = await run.up();
    expect(again.plan.changes).toEqual([]);
    vars.timeout = 60;
    const update = await run.up();
    expect(update.plan.step("jobs").op).toBe("update");
    expect(update.plan.step("jobs").changed).toEqual(["visibilityTimeout"]);
    expect(update.resources.jobs!.inputs.queueName).toBe(planned);
  });

  it("gives the same name in every test run (the seed is fixed), and another with another seed", async () => {
    const a = (await (await testProgram(queueApp(), { mocks: queueMocks() })).preview()).step("jobs").inputs!.queueName;
    const b = (await (await testProgram(queueApp(), { mocks: queueMocks() })).preview()).step("jobs").inputs!.queueName;
    const c = (await (await testProgram(queueApp(), { mocks: queueMocks(), nameSeed: "other" })).preview()).step("jobs").inputs!.queueName;
    expect(a).toBe(b);
    expect(c).toMatch(NAME);
    expect(c).not.toBe(a);
  });

  it("gives the replacement a new name, so it is created before the old one goes without a clash", async () => {
    const vars: { fifo?: boolean } = {};
    const run = await testProgram(queueApp(vars), { mocks: queueMocks() });
    const old = (await run.up()).resources.jobs!.inputs.queueName as string;
    vars.fifo = true;
    // A queue is stateful (its messages go with it): the replace is allowed for this test.
    const r = await run.up({ allowDataLoss: ["jobs"] });
    const step = r.plan.step("jobs", "replace");
    expect(step.replaceKeys).toContain("fifoQueue");
    expect(step.deleteFirst).toBe(false);
    expect(step.inputs!.queueName).toMatch(/^jobs-[0-9a-f]{7}\.fifo$/);
    expect(step.inputs!.queueName).not.toBe(`${old}.fifo`);
    expect(r.resources.jobs!.inputs.queueName).toBe(step.inputs!.queueName);
    expect((await run.up()).plan.changes).toEqual([]);
  });

  it("--replace gives a new name too", async () => {
    const run = await testProgram(queueApp(), { mocks: queueMocks() });
    const old = (await run.up()).resources.jobs!.inputs.queueName;
    const r = await run.up({ replace: ["jobs"], allowDataLoss: ["jobs"] });
    expect(r.resources.jobs!.inputs.queueName).toMatch(NAME);
    expect(r.resources.jobs!.inputs.queueName).not.toBe(old);
  });

  it("the program's own name wins, and once given it is kept when the program stops giving it", async () => {
    const vars: { name?: string } = { name: "orders" };
    const run = await testProgram(queueApp(vars), { mocks: queueMocks() });
    expect((await run.up()).resources.jobs!.inputs.queueName).toBe("orders");
    delete vars.name;
    const later = await run.up();
    expect(later.plan.changes).toEqual([]);
    expect(later.resources.jobs!.inputs.queueName).toBe("orders");
  });

  it("autoName: false on the resource leaves the name to the cloud", async () => {
    const run = await testProgram(queueApp({ opts: { autoName: false } }), { mocks: queueMocks() });
    const r = await run.up();
    expect(r.inputs.jobs).not.toHaveProperty("queueName");
    expect((await run.up()).plan.changes).toEqual([]);
  });

  it("autoName: false for the program turns it off for every resource but one that turns it on", async () => {
    const app = program("naming", () => {
      new Queue("jobs", {});
      new Queue("named", {}, { autoName: true });
    }, { autoName: false });
    const r = await (await testProgram(app, { mocks: queueMocks() })).up();
    expect(r.inputs.jobs).not.toHaveProperty("queueName");
    expect(r.inputs.named!.queueName).toMatch(/^named-[0-9a-f]{7}$/);
  });

  it("refuses an autoName option that is not true or false, naming the resource", async () => {
    const run = await testProgram(queueApp({ opts: { autoName: "no" as never } }), { mocks: queueMocks() });
    await expect(run.preview()).rejects.toThrow('Resource "jobs" (aws:sqs:Queue): autoName must be true or false (got "no")');
  });

  it("turning auto-naming off later keeps an existing object's name (no replace)", async () => {
    const vars: { opts?: ResourceOptions } = {};
    const run = await testProgram(queueApp(vars), { mocks: queueMocks() });
    const name = (await run.up()).resources.jobs!.inputs.queueName;
    vars.opts = { autoName: false };
    const later = await run.up();
    expect(later.plan.changes).toEqual([]);
    expect(later.resources.jobs!.inputs.queueName).toBe(name);
  });

  it("does not name an object already in state without a name (created before, or imported): that would replace it", async () => {
    const run = await testProgram(queueApp({ opts: { autoName: false } }), { mocks: queueMocks() });
    const before = await run.up();
    const r = await (await testProgram(queueApp(), { mocks: queueMocks(), from: before.state })).up();
    expect(r.plan.changes).toEqual([]);
    expect(r.resources.jobs!.inputs).not.toHaveProperty("queueName");
  });

  it("keeps the planned name when the other inputs are known only at apply", async () => {
    const app = program("naming", () => {
      const f = new local.File("timeout", { path: "out/t.txt", content: "30" });
      const b = new Bucket("Site_Assets", { tags: [{ key: "size", value: f.size.apply(String) }] });
      return { bucket: b.bucketName };
    });
    const run = await testProgram(app, { mocks: { "local:File": mocks.resource({ outputs: { size: 2 } }), "aws:s3:Bucket": mocks.resource() } });
    const r = await run.up();
    const planned = r.plan.step("Site_Assets").inputs!.bucketName;
    expect(planned).toMatch(/^site-assets-[0-9a-f]{7}$/);
    expect(r.inputs.Site_Assets).toMatchObject({ bucketName: planned, tags: [{ key: "size", value: "2" }] });
  });
});
