import { describe, expect, it } from "vitest";
import "cairn-iac/testing/vitest";
import { expectFailure, expectWaitFailed, expectWaitTimedOut, mocks, testProgram, TestExpectationError } from "cairn-iac/testing";
import { app, appMocks } from "./fixtures.js";

describe("expect helpers", () => {
  it("expectFailure fails the test when the run succeeded, saying what it did", async () => {
    const run = await testProgram(app, { mocks: appMocks() });

    const err = await expectFailure(run.up(), { resource: "data" }).catch((e: unknown) => e);

    expect(err).toBeInstanceOf(TestExpectationError);
    expect((err as Error).message).toBe('Expected the run to fail with resource "data", but it succeeded (create data, wait ready, create publish).');
  });

  it("expectFailure fails the test when another resource failed, listing the failures", async () => {
    const run = await testProgram(app, { mocks: { ...appMocks(), "probe:dns:Record": mocks.resource({ fail: { create: "LimitExceeded" } }) } });

    const err = await expectFailure(run.up(), { resource: "data" }).catch((e: unknown) => e);

    expect((err as Error).message).toBe('Expected a failure with resource "data"; the run failed with:\n  - create publish: LimitExceeded (at tests/testing/fixtures.ts:58:19)');
  });

  it("expectFailure accepts a run refused before any step (a plan error) when the message matches", async () => {
    const run = await testProgram(app, { mocks: { ...appMocks(), "probe:dns:Zone": mocks.lookup(undefined) } });

    const err = await expectFailure(run.up(), { resource: "zone", message: "nothing matches" });

    expect(err).toBeInstanceOf(Error);
  });

  it("expectWaitTimedOut fails the test when the wait was satisfied, with the wait's own message", async () => {
    const result = await (await testProgram(app, { mocks: appMocks() })).up();

    expect(() => expectWaitTimedOut(result, "ready")).toThrow('Expected wait "ready" to end timed-out, but it ended satisfied: wait "ready": data.status == "ready" holds');
    expect(() => expectWaitTimedOut(result, "redy")).toThrow('The run has no wait named "redy"; its waits: "ready".');
  });

  it("expectWaitFailed returns the failure's reason from the type's reason attribute", async () => {
    const run = await testProgram(app, { mocks: appMocks([{ status: "failed", failureReason: "quota exceeded" }]) });

    const w = await expectWaitFailed(run.up(), "ready");

    expect(w).toMatchObject({ outcome: "failed", reads: 1, reason: "quota exceeded" });
  });
});

describe("vitest matchers (import \"cairn-iac/testing/vitest\")", () => {
  it("toHaveStep finds a step by name and kind, on a plan or a run's result", async () => {
    const run = await testProgram(app, { mocks: appMocks() });
    const plan = await run.preview();

    expect(plan).toHaveStep("data", "create");
    expect(plan).toHaveStep("ready", "wait");
    expect(plan).not.toHaveStep("data", "delete");
    expect(plan.plan).toHaveStep("publish"); // the engine's own plan too
    expect(() => expect(plan).toHaveStep("data", "update")).toThrow('expected the plan to have a update step for "data"; its steps: read zone, create data, wait ready, create publish');
  });

  it("toHaveWaitOutcome and toHaveFailed read a run's result", async () => {
    const result = await (await testProgram(app, { mocks: appMocks([{ status: "creating" }]) })).up();

    expect(result).toHaveWaitOutcome("ready", "timed-out");
    expect(result).toHaveFailed("ready", /timed out after 75m/);
    expect(result).not.toHaveFailed("publish");
    expect(() => expect(result).toHaveWaitOutcome("ready", "satisfied")).toThrow('expected wait "ready" to end satisfied, but it ended timed-out');
  });
});
