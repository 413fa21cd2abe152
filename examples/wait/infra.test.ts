// Unit tests of the wait example: the Job type's own provider (it only reads the clock) runs on the fake
// clock, so a job of minutes finishes at once; the report file is mocked. Run: npx vitest run examples/wait
import { describe, expect, it } from "vitest";
import { minutes, seconds } from "cairn-iac";
import { expectWaitTimedOut, mocks, testProgram } from "cairn-iac/testing";
import app from "./infra.ts";

const mocked = { "demo:Job": mocks.real(), "local:File": mocks.resource() };

describe("examples/wait", () => {
  it("waits until the job has succeeded, then writes the report from the read that saw it", async () => {
    const run = await testProgram(app, { mocks: mocked });

    const result = await run.up();

    expect(result.waits.built).toMatchObject({ outcome: "satisfied" });
    expect(result.waits.built!.elapsedMs).toBeGreaterThanOrEqual(seconds(3));
    expect(result.inputs.report).toEqual({ path: "out/report.txt", content: "build: 42 widgets\n" });
    expect(result.outputs.result).toBe("build: 42 widgets");
  });

  it("gives up on a job that runs longer than the type's 2-minute default timeout, and writes no report", async () => {
    const run = await testProgram(app, { mocks: mocked, config: { runFor: 600 } });

    const result = await run.up();

    expect(expectWaitTimedOut(result, "built").elapsedMs).toBeGreaterThanOrEqual(minutes(2));
    expect(result.resources.report).toBeUndefined();
  });
});
