// Unit tests of the quickstart: the real engine against a mocked server and file, so nothing is started
// or written. Run them with the rest: npm test (or: npx vitest run examples/quickstart)
import { describe, expect, it } from "vitest";
import { seconds, UNKNOWN } from "cairn-iac";
import { expectWaitTimedOut, mocks, testProgram } from "cairn-iac/testing";
import app from "./infra.ts";

const URL = "http://127.0.0.1:35645/";
type Env = { environment: Record<string, string> };

/** The server's health check as `local.Command` reports it: `starting` for `startingReads` reads, then `ready`. */
function server(startingReads = 1) {
  let reads = 0; // this mock is made per test, so the count is the test's own
  return mocks.provider({
    read: async ({ inputs, outputs }) => ({
      ...outputs,
      attributes: { status: reads++ < startingReads ? "starting" : "ready", url: URL, greeting: (inputs as Env).environment.GREETING },
    }),
  });
}

const local = (command = server()) => ({ "local:Command": command, "local:File": mocks.resource() });

describe("examples/quickstart", () => {
  it("starts the server, waits until its health check says ready, then writes its URL", async () => {
    const run = await testProgram(app, { mocks: local(server(2)) });

    const result = await run.up();

    expect(result.waits.healthy).toMatchObject({ outcome: "satisfied", reads: 3 });
    expect(result.inputs.server).toMatchObject({ create: "node server/start.mjs", environment: { GREETING: "hello", RUN_DIR: "out/test" } });
    expect(result.inputs.link).toEqual({ path: "out/test/url.txt", content: `${URL}\n` });
    expect(result.outputs).toEqual({ url: URL, greeting: "hello", urlFile: "out/test/url.txt" });
  });

  it("previews the file's content as not known until the server is ready", async () => {
    const run = await testProgram(app, { mocks: local() });

    const plan = await run.preview();

    expect(plan.changes).toEqual(["create server", "wait healthy", "create link"]);
    expect(plan.step("link").inputs).toEqual({ path: "out/test/url.txt", content: UNKNOWN });
  });

  it("gives up after 30 s on a server that never gets ready, and writes no file", async () => {
    const run = await testProgram(app, { mocks: local(server(Infinity)) });

    const result = await run.up();

    const wait = expectWaitTimedOut(result, "healthy");
    expect(wait.elapsedMs).toBeGreaterThanOrEqual(seconds(30));
    expect(wait.message).toContain('last observed attributes.status = "starting"');
    expect(result.resources.link).toBeUndefined();
  });

  it("a new greeting updates the server in place, waits again, and reports the new greeting", async () => {
    const first = await (await testProgram(app, { mocks: local() })).up();

    const run = await testProgram(app, { mocks: local(), from: first.state, config: { greeting: "hi" } });
    const second = await run.up();

    expect(second.plan.step("server", "update")).toMatchObject({ changed: ["environment"] });
    expect(second.inputs.server).toMatchObject({ environment: { GREETING: "hi" } });
    expect(second.waits.healthy).toMatchObject({ outcome: "satisfied" });
    expect(second.outputs.greeting).toBe("hi");
    expect(second.resources.server?.id).toBe(first.resources.server?.id);
  });

  it("destroy stops the server and removes the file, the file first", async () => {
    const run = await testProgram(app, { mocks: local() });
    await run.up();

    const result = await run.destroy();

    expect(result.calls.filter((c) => c.op === "delete").map((c) => c.name)).toEqual(["link", "server"]);
    expect(result.resources).toEqual({});
  });
});
