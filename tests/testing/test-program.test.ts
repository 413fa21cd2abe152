import { describe, expect, it } from "vitest";
import { minutes, seconds, UNKNOWN } from "cairn-iac";
import { FakeClock, MissingMockError, expectWaitTimedOut, mocks, testProgram } from "cairn-iac/testing";
import { app, appMocks } from "./fixtures.js";

describe("testProgram: the real engine against mocks", () => {
  it("creates every resource through the mocks, waits, and returns outputs, inputs, waits and calls as data", async () => {
    const run = await testProgram(app, { mocks: appMocks() });

    const result = await run.up();

    expect(result.ok).toBe(true);
    expect(result.outputs).toMatchObject({ bucketArn: "arn:probe:bucket/data-bucket", fqdn: "data.example.dev" });
    expect(result.inputs.data).toEqual({ name: "data-bucket", versioning: false, tags: { team: "infra" } });
    expect(result.inputs.publish).toEqual({ zone: "Z1", name: "data", value: "arn:probe:bucket/data-bucket" });
    expect(result.waits.ready).toMatchObject({ outcome: "satisfied", reads: 2 });
    expect(result.resources.data).toMatchObject({ id: "data-1", outputs: { status: "ready", arn: "arn:probe:bucket/data-bucket" } });
    expect(result.calls.map((c) => `${c.op} ${c.name}`)).toEqual(["lookup zone", "create data", "read data", "read data", "create publish"]);
    expect(result.events.filter((e) => e.type === "wait-polled")).toHaveLength(2);
  });

  it("previews the plan as data, with values not known yet as UNKNOWN, calling no create", async () => {
    const run = await testProgram(app, { mocks: appMocks() });

    const plan = await run.preview();

    expect(plan.changes).toEqual(["create data", "wait ready", "create publish"]);
    expect(plan.step("publish", "create").inputs).toEqual({ zone: "Z1", name: "data", value: UNKNOWN });
    expect(plan.step("ready")).toMatchObject({ op: "wait", needed: true, until: 'data.status == "ready"', timeoutMs: minutes(75) });
    expect(plan.outputs.bucketArn).toBe(UNKNOWN);
    expect(run.calls.map((c) => c.op)).toEqual(["lookup"]);
    expect(() => plan.step("nothing")).toThrow('The plan has no step for "nothing"; its steps: read zone, create data, wait ready, create publish.');
  });

  it("times a 75-minute wait out on the fake clock, polling every 30 s, without waiting for real", async () => {
    const run = await testProgram(app, { mocks: appMocks([{ status: "creating" }]) });

    const result = await run.up();

    const w = expectWaitTimedOut(result, "ready");
    expect(w.elapsedMs).toBeGreaterThanOrEqual(minutes(75));
    expect(w.elapsedMs).toBeLessThan(minutes(76));
    // Backoff from 0.5 s up to the 30 s interval (with jitter): 150 to 200 polls, not one every 5 s.
    expect(w.reads).toBeGreaterThan(150);
    expect(w.reads).toBeLessThan(200);
    expect(result.resources.publish).toBeUndefined();
    expect(result.failures).toEqual([expect.objectContaining({ resource: "ready", op: "wait" })]);
  });

  it("lets a test move a manual clock by hand: nothing happens until time is moved", async () => {
    const clock = new FakeClock();
    const readyAt = clock.now() + minutes(10);
    const bucket = mocks.provider({ read: async ({ outputs }) => ({ ...outputs, status: clock.now() >= readyAt ? "ready" : "creating" }) });
    const run = await testProgram(app, { clock, mocks: { ...appMocks(), "probe:storage:Bucket": bucket } });
    const ended = () => run.events.some((e) => e.type === "wait-ended");

    const up = run.up();
    await run.until((e) => e.type === "step-started" && e.kind === "wait");
    await clock.advance(minutes(5));
    expect(ended()).toBe(false);
    expect(run.events.filter((e) => e.type === "wait-polled").at(-1)).toMatchObject({ observed: [{ path: "status", value: "creating" }] });
    await clock.advance(minutes(5) + seconds(30));
    const result = await up;

    expect(result.waits.ready).toMatchObject({ outcome: "satisfied" });
    expect(result.waits.ready!.elapsedMs).toBeGreaterThanOrEqual(minutes(10));
  });

  it("chains runs from a prior state: create, then a config change updates in place", async () => {
    const first = await (await testProgram(app, { mocks: appMocks() })).up();

    const run = await testProgram(app, { mocks: appMocks(), from: first.state, config: { versioning: true } });
    const second = await run.up();

    expect(second.plan.changes).toEqual(["update data", "wait ready"]);
    expect(second.plan.step("data", "update")).toMatchObject({ changed: ["versioning"], before: { versioning: false }, inputs: { versioning: true } });
    expect(second.calls.filter((c) => c.op === "update").map((c) => c.name)).toEqual(["data"]);
    expect(second.resources.data?.id).toBe(first.resources.data?.id);
  });

  it("replaces on a force-new change (a new id, the old object deleted) and deletes what the program dropped", async () => {
    const run = await testProgram(app, { mocks: appMocks(), config: { audit: "on" } });
    const first = await run.up();
    expect(first.resources.audit).toBeDefined();

    const second = await run.up({ from: first.state, config: { bucketName: "renamed", audit: "off" } });

    expect(second.plan.changes).toEqual(expect.arrayContaining(["replace data", "delete audit", "update publish"]));
    expect(second.plan.step("data", "replace")).toMatchObject({ replaceKeys: ["name"], deleteFirst: false });
    expect(second.resources.data?.id).toBe("data-2");
    expect(second.resources.audit).toBeUndefined();
    expect(second.calls.filter((c) => c.op === "delete").map((c) => `${c.name} ${c.id}`).sort()).toEqual(["audit audit-1", "data data-1"]);
    expect(second.inputs.publish).toMatchObject({ value: "arn:probe:bucket/renamed" });
  });

  it("keeps the engine's planning behaviours: ignoreChanges keeps the cloud's tags", async () => {
    const run = await testProgram(app, { mocks: appMocks() });
    const first = await run.up();
    const drifted = structuredClone(first.state);
    drifted.resources[first.resources.data!.urn]!.inputs.tags = { team: "someone-else" };

    const plan = await run.preview({ from: drifted });

    expect(plan.hasChanges).toBe(false);
    expect(plan.changes).toEqual([]);
  });

  it("makes no reads for a wait when nothing around it changes", async () => {
    const run = await testProgram(app, { mocks: appMocks() });
    await run.up();

    const again = await run.up();

    expect(again.waits.ready).toMatchObject({ outcome: "not-needed", reads: 0 });
    expect(again.calls.map((c) => c.op)).toEqual(["lookup"]);
  });

  it("replaces and targets resources named as in the program", async () => {
    const run = await testProgram(app, { mocks: appMocks() });
    await run.up();

    const plan = await run.preview({ replace: ["publish"] });

    expect(plan.changes).toEqual(["wait ready", "replace publish"]); // publish reads the wait's snapshot
    await expect(run.preview({ targets: ["nope"] })).rejects.toThrow('"nope" is not a resource of program "probe-app"; its resources: zone, data, ready, publish.');
  });

  it("destroys everything in state through the mocks", async () => {
    const run = await testProgram(app, { mocks: appMocks() });
    await run.up();

    const result = await run.destroy();

    expect(result.ok).toBe(true);
    expect(result.calls.map((c) => `${c.op} ${c.name}`)).toEqual(["delete publish", "delete data"]);
    expect(result.resources).toEqual({});
  });

  it("refresh records an object the mock reports gone, and the next up creates it again", async () => {
    const run = await testProgram(app, { mocks: { ...appMocks(), "probe:dns:Record": mocks.resource({ reads: [null] }) } });
    await run.up();

    const refreshed = await run.refresh();
    const again = await run.up();

    expect(refreshed.resources.publish).toBeUndefined();
    expect(again.plan.changes).toContain("create publish");
  });

  it("supplies config and secrets; secrets reach the program but never the events", async () => {
    const run = await testProgram(app, { mocks: appMocks(), config: { token: { secret: "s3cr3t-value" }, bucketName: "from-config" } });

    const result = await run.up();

    expect(result.outputs.token).toBe("s3cr3t-value");
    expect(result.inputs.data).toMatchObject({ name: "from-config" });
    expect(JSON.stringify(result.events)).not.toContain("s3cr3t-value");
  });

  it("refuses a type nobody mocked before any provider call, naming each and how to mock it", async () => {
    const { "probe:dns:Record": _dropped, "probe:dns:Zone": _zone, ...rest } = appMocks();
    const run = await testProgram(app, { mocks: rest });

    const err = await run.up().catch((e: unknown) => e);

    expect(err).toBeInstanceOf(MissingMockError);
    expect((err as Error).message).toBe(
      "no mock for probe:dns:Zone (lookup zone); mock it with mocks.lookup(...)\nno mock for probe:dns:Record (resource publish); mock it with mocks.resource(...)",
    );
    expect(run.calls).toEqual([]);
  });

  it("refuses a starting state of another program or stack, saying what to do", async () => {
    const first = await (await testProgram(app, { mocks: appMocks(), stack: "prod" })).up();

    await expect(testProgram(app, { mocks: appMocks(), from: first.state })).rejects.toThrow(
      'This state is of stack "prod" of project "probe-app", but the run is stack "test" of "probe-app": pass stack: "prod" to testProgram, or use a state of this program.',
    );
  });
});
