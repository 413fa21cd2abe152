import { describe, expect, it } from "vitest";
import { program } from "cairn-iac";
import { local } from "cairn-iac/local";
import { expectFailure, mocks, testProgram, type Mock } from "cairn-iac/testing";
import { app, appMocks, Bucket } from "./fixtures.js";

/** Two buckets of one type, to tell per-type from per-name mocks. */
const twoBuckets = program("two-buckets", () => {
  const logs = new Bucket("logs", { name: "logs" });
  const data = new Bucket("data", { name: "data" });
  return { logs: logs.arn, data: data.arn };
});

describe("mocks", () => {
  it("mocks.resource: outputs are the inputs merged with `outputs`; each read merges the next entry of `reads`, the last repeating", async () => {
    const bucket = mocks.resource({ outputs: { arn: "arn:b" }, reads: [{ status: "creating" }, { status: "ready", versioning: true }] });
    const run = await testProgram(twoBuckets, { mocks: { "probe:storage:Bucket": bucket } });
    const result = await run.up();
    const urn = result.resources.data!.urn;
    const provider = run.stack.options.providers!("probe:storage:Bucket", urn)!;
    const read = () => provider.read({ urn, id: "data-1", inputs: {}, outputs: result.resources.data!.outputs, ctx: undefined as never });

    expect(result.resources.data!.outputs).toEqual({ name: "data", arn: "arn:b" });
    expect(await read()).toEqual({ name: "data", arn: "arn:b", status: "creating" });
    expect(await read()).toEqual({ name: "data", arn: "arn:b", status: "ready", versioning: true });
    expect(await read()).toEqual({ name: "data", arn: "arn:b", status: "ready", versioning: true });
  });

  it("a mock for a resource name wins over the mock for its type", async () => {
    const run = await testProgram(twoBuckets, {
      mocks: [
        ["probe:storage:Bucket", mocks.resource({ outputs: { arn: "arn:any" } })],
        [{ name: "data" }, mocks.resource({ outputs: { arn: "arn:data" } })],
      ],
    });

    const result = await run.up();

    expect(result.outputs).toEqual({ logs: "arn:any", data: "arn:data" });
  });

  it("fail: makes an operation throw the given error, and the run reports it on that resource", async () => {
    const run = await testProgram(twoBuckets, { mocks: [["probe:storage:Bucket", mocks.resource()], [{ name: "data" }, mocks.resource({ fail: { create: "AccessDenied" } })]] });

    const failure = await expectFailure(run.up(), { resource: "data", message: "AccessDenied" });

    expect(failure).toMatchObject({ op: "create", error: "AccessDenied", site: "tests/testing/mocks.test.ts:10:16" });
    expect(Object.keys(run.state.resources).map((u) => u.split("::").pop())).toEqual(["logs"]);
  });

  it("fail with `times`: a throttling error the engine retries, then the call succeeds", async () => {
    const run = await testProgram(twoBuckets, { mocks: { "probe:storage:Bucket": mocks.resource({ fail: { create: { error: "ThrottlingException", times: 2 } } }) } });

    const result = await run.up();

    expect(result.ok).toBe(true);
    const retries = result.events.filter((e) => e.type === "step-retrying");
    expect(retries.map((e) => (e.type === "step-retrying" ? e.attempt : 0))).toEqual([1, 1, 2, 2]);
    expect(result.calls.filter((c) => c.op === "create")).toHaveLength(6);
  });

  it("mocks.provider: the methods given replace the defaults; `update: undefined` makes every change a replace", async () => {
    const noUpdate = mocks.provider({ update: undefined });
    const run = await testProgram(app, { mocks: { ...appMocks(), "probe:storage:Bucket": noUpdate } });
    await run.up();

    const plan = await run.preview({ config: { versioning: true } });

    expect(plan.step("data").op).toBe("replace");
  });

  it("mocks.provider: a custom diff saying `same` hides a change, as a provider's normalisation would", async () => {
    const run = await testProgram(app, { mocks: { ...appMocks(), "probe:storage:Bucket": mocks.provider({ diff: () => ({ kind: "same" }), read: async ({ outputs }) => ({ ...outputs, status: "ready" }) }) } });
    await run.up();

    const plan = await run.preview({ config: { versioning: true } });

    expect(plan.changes).toEqual([]);
    expect(run.calls.filter((c) => c.op === "diff").at(-1)).toMatchObject({ op: "diff", name: "data", olds: { versioning: false }, inputs: { versioning: true } });
  });

  it("mocks.lookup: a lookup that finds nothing fails the plan naming the lookup; one that is created fails saying why", async () => {
    const none = await testProgram(app, { mocks: { ...appMocks(), "probe:dns:Zone": mocks.lookup(undefined) } });
    await expectFailure(none.up(), { message: /Lookup "zone" \(probe:dns:Zone\): nothing matches name = "example.dev"/ });

    const misuse = await testProgram(twoBuckets, { mocks: { "probe:storage:Bucket": mocks.lookup({ arn: "x" }) } });
    await expectFailure(misuse.up(), { resource: "data", message: 'probe:storage:Bucket "data" is mocked with mocks.lookup(...), which can only be read, so it cannot create it' });
  });

  it("mocks.real: the type's own provider runs (an offline type), and its calls are still recorded", async () => {
    const prog = program("real-random", () => ({ hex: new local.RandomId("rid", { byteLength: 4 }).hex }));
    const run = await testProgram(prog, { mocks: { "local:RandomId": mocks.real() } });

    const result = await run.up();

    expect(result.outputs.hex).toMatch(/^[0-9a-f]{8}$/);
    expect(result.calls.map((c) => `${c.op} ${c.name}`)).toContain("create rid");
  });

  it("refuses something that is not a mock, saying how to make one", async () => {
    const notAMock = { create: async () => ({ id: "1", outputs: {} }) } as unknown as Mock;

    await expect(testProgram(twoBuckets, { mocks: { "probe:storage:Bucket": notAMock } })).rejects.toThrow(
      'The mock for "probe:storage:Bucket" is not a mock: make it with mocks.resource(...), mocks.lookup(...), mocks.provider(...) or mocks.real().',
    );
  });
});

describe("isolation: no global registry, nothing shared between runs", () => {
  it("one mock declared once serves parallel runs, each with its own read sequence and ids", async () => {
    const shared = appMocks([{ status: "creating" }, { status: "ready" }]);

    const results = await Promise.all([1, 2, 3].map(async () => (await testProgram(app, { mocks: shared })).up()));

    for (const r of results) {
      expect(r.waits.ready).toMatchObject({ outcome: "satisfied", reads: 2 });
      expect(r.resources.data?.id).toBe("data-1");
    }
  });

  it("runs of one program in parallel with different mocks for the same type each see their own", async () => {
    const withArn = (arn: string) => ({ ...appMocks(), "probe:storage:Bucket": mocks.resource({ outputs: { arn }, reads: [{ status: "ready" }] }) });

    const [a, b] = await Promise.all([testProgram(app, { mocks: withArn("arn:a") }), testProgram(app, { mocks: withArn("arn:b") })].map(async (r) => (await r).up()));

    expect([a!.outputs.bucketArn, b!.outputs.bucketArn]).toEqual(["arn:a", "arn:b"]);
    expect(a!.calls.every((c) => c.op !== "create" || c.name !== "publish" || (c.inputs as { value: string }).value === "arn:a")).toBe(true);
  });
});
