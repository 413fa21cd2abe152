// Unit tests of infra.ts: Cairn's real engine (plan, apply, waits) against mocked resources, with state in
// memory and a fake clock, so nothing is started or written and a 30 s timeout takes milliseconds.
import { describe, expect, it } from "vitest";
import { seconds, UNKNOWN } from "cairn-iac";
import { expectWaitTimedOut, mocks, testProgram } from "cairn-iac/testing";
import app from "./infra.ts";

const URL = "http://127.0.0.1:8080/";

/** The server as `local.Command` reports it: its health check says `starting` for `startingReads` reads, then `ready`. */
function server(startingReads = 1) {
  let reads = 0;
  return mocks.provider({
    read: async ({ inputs, outputs }) => ({
      ...outputs,
      attributes: { status: reads++ < startingReads ? "starting" : "ready", url: URL, greeting: inputs.environment.GREETING },
    }),
  });
}

/** Every resource type of the program, mocked. */
const mocked = (command = server()) => ({ "local:Command": command, "local:File": mocks.resource() });

describe("{{name}}", () => {
  it("starts the server, waits until it is ready, then writes its URL", async () => {
    const run = await testProgram(app, { mocks: mocked(server(2)) });

    const result = await run.up();

    expect(result.waits.healthy).toMatchObject({ outcome: "satisfied", reads: 3 });
    expect(result.inputs.link).toEqual({ path: "out/test/url.txt", content: `${URL}\n` });
    expect(result.outputs).toEqual({ url: URL, greeting: "hello", urlFile: "out/test/url.txt" });
  });

  it("previews the file's content as not known until the server is ready", async () => {
    const run = await testProgram(app, { mocks: mocked() });

    const plan = await run.preview();

    expect(plan.changes).toEqual(["create server", "wait healthy", "create link"]);
    expect(plan.step("link").inputs).toEqual({ path: "out/test/url.txt", content: UNKNOWN });
  });

  it("gives up after 30 s on a server that never gets ready, and writes no file", async () => {
    const run = await testProgram(app, { mocks: mocked(server(Infinity)) });

    const result = await run.up();

    expect(expectWaitTimedOut(result, "healthy").elapsedMs).toBeGreaterThanOrEqual(seconds(30));
    expect(result.resources.link).toBeUndefined();
  });

  it("a new greeting updates the running server in place and waits for it again", async () => {
    const first = await (await testProgram(app, { mocks: mocked() })).up();

    const run = await testProgram(app, { mocks: mocked(), from: first.state, config: { greeting: "hi" } });
    const second = await run.up();

    // The link is planned too: its content comes from the wait's new snapshot, known only once the wait ends.
    expect(second.plan.changes).toEqual(["update server", "wait healthy", "update link"]);
    expect(second.inputs.server).toMatchObject({ environment: { GREETING: "hi" } });
    expect(second.outputs.greeting).toBe("hi");
  });
});
