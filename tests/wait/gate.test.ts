import { describe, expect, it } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { program } from "../../src/entry/program.js";
import { wait } from "../../src/wait/wait.js";
import { seconds } from "../../src/core/duration.js";
import { UNKNOWN } from "../../src/core/unknown.js";
import { renderPlan } from "../../src/cli/render.js";
import { Command } from "../../src/providers/local/command.js";
import { File } from "../../src/providers/local/file.js";
import { mocks, testProgram, type TestRun } from "../../src/testing/index.js";
import { FakeClock } from "../../src/testing/fake-clock.js";
import { stackOutputs } from "../../src/program/stack-outputs.js";
import { defineResource } from "../../src/program/define.js";
import { fileBackendUrl } from "../../src/state/backend-url.js";

type Health = { status: string; url: string };
const starting: Health = { status: "starting", url: "http://x" };
const ready: Health = { status: "ready", url: "http://x" };

/** The program: a server whose read reports its health, a 3 s wait for "ready", and the url gated by it. */
const server = (opts: { user?: boolean; until?: string } = {}) =>
  program("gate", () => {
    const s = new Command<Health>("server", { create: "start", read: "health" });
    const ok = wait(s, { name: "healthy", until: (x) => x.attributes.status.eq(opts.until ?? "ready"), timeout: seconds(3) });
    if (opts.user) new File("conf", { path: "out/url.txt", content: ok.attributes.apply((h) => h.url) });
    return { url: ok.attributes.apply((h) => h.url) };
  });

/** Reads that report `states` in turn (the last repeats), switchable mid-test through `set`. */
function health(states: Health[]) {
  let list = states;
  let n = 0;
  let ids = 0;
  const mock = mocks.provider({
    async create() {
      n = 0;
      return { id: `cmd-${++ids}`, outputs: { stdout: "", attributes: list[0] } };
    },
    async read({ outputs }) {
      const h = list[Math.min(n++, list.length - 1)]!;
      return { ...(outputs as object), attributes: h };
    },
  });
  return { mock, set: (s: Health[]) => ((list = s), (n = 0)) };
}

const urlFile = () => mocks.resource();
const waitReads = (run: TestRun, from: number) => run.calls.slice(from).filter((c) => c.op === "read").length;

describe("gate: a gated value is known only once its predicate held", () => {
  it("a wait that timed out keeps its output unpublished on the next up, which runs the wait again", async () => {
    const h = health([starting]);
    const run = await testProgram(server(), { mocks: { "local:Command": h.mock } });
    const first = await run.up();
    expect(first.waits.healthy!.outcome).toBe("timed-out");
    expect(first.outputs.url).toBeUndefined();

    const plan = await run.preview();
    expect(plan.step("healthy")).toMatchObject({ needed: true, why: "runs because healthy has not held yet" });
    expect(plan.outputs.url).toBe(UNKNOWN);
    expect(plan.plan.outputNotes).toEqual({ url: "waits for healthy, which has not held yet" });
    const text = renderPlan(plan.plan).replace(/\x1b\[[0-9;]*m/g, "");
    expect(text).toContain("runs because healthy has not held yet");
    expect(text).toContain("url: (known after apply)  (waits for healthy, which has not held yet)");

    const second = await run.up();
    expect(second.waits.healthy!.outcome).toBe("timed-out");
    expect(second.outputs.url).toBeUndefined();
    expect((await run.stack.outputs()).values.url).toBeUndefined();
    expect(JSON.stringify(second.state)).not.toContain("http://x\",\"status\":\"ready");
  });

  it("publishes the output in the run whose read satisfies the wait, then trusts it: a no-op up makes no read", async () => {
    const h = health([starting]);
    const run = await testProgram(server(), { mocks: { "local:Command": h.mock } });
    await run.up();
    h.set([ready]);
    const second = await run.up();
    expect(second.waits.healthy!.outcome).toBe("satisfied");
    expect(second.outputs.url).toBe("http://x");
    const mark = run.calls.length;
    const third = await run.up();
    expect(third.plan.step("healthy")).toMatchObject({ needed: false });
    expect(third.waits.healthy!.outcome).toBe("not-needed");
    expect(waitReads(run, mark)).toBe(0);
    expect(third.outputs.url).toBe("http://x");
  });

  it("a dependent resource is not created on any run before the wait held", async () => {
    const h = health([starting]);
    const run = await testProgram(server({ user: true }), { mocks: { "local:Command": h.mock, "local:File": urlFile() } });
    await run.up();
    await run.up();
    expect(run.calls.filter((c) => c.name === "conf")).toEqual([]);
    h.set([ready]);
    const third = await run.up();
    expect(third.inputs.conf).toMatchObject({ content: "http://x" });
  });

  it("a refresh that finds the target fallen back re-opens the wait, and the next up reads again", async () => {
    const h = health([ready]);
    const run = await testProgram(server(), { mocks: { "local:Command": h.mock } });
    expect((await run.up()).waits.healthy!.outcome).toBe("satisfied");
    h.set([starting]);
    await run.refresh();
    expect((await run.preview()).step("healthy")).toMatchObject({ needed: true, why: "runs because healthy has not held yet" });
    const again = await run.up();
    expect(again.waits.healthy!.outcome).toBe("timed-out");
  });

  it("up --refresh that finds the target fallen back runs the wait in that same run", async () => {
    const h = health([ready]);
    const run = await testProgram(server(), { mocks: { "local:Command": h.mock } });
    await run.up();
    h.set([starting]);
    const again = await run.up({ refresh: true });
    expect(again.plan.step("healthy")).toMatchObject({ needed: true, why: "runs because healthy has not held yet" });
    expect(again.waits.healthy!.outcome).toBe("timed-out");
  });

  it("a wait on a wait that has not held does not start, on any run, and its value stays unpublished", async () => {
    const h = health([starting]);
    const chained = program("gate", () => {
      const s = new Command<Health>("server", { create: "start", read: "health" });
      const ok = wait(s, { name: "healthy", until: (x) => x.attributes.status.eq("ready"), timeout: seconds(3) });
      const serving = wait(ok, { name: "serving", until: (x) => x.attributes.url.ne(""), timeout: seconds(3) });
      return { url: serving.attributes.apply((a) => a.url) };
    });
    const run = await testProgram(chained, { mocks: { "local:Command": h.mock } });
    for (let i = 0; i < 2; i++) {
      const r = await run.up();
      expect([r.waits.healthy!.outcome, r.waits.serving!.outcome]).toEqual(["timed-out", "dependency-failed"]);
      expect(r.outputs.url).toBeUndefined();
    }
    h.set([ready]);
    const done = await run.up();
    expect([done.waits.healthy!.outcome, done.waits.serving!.outcome]).toEqual(["satisfied", "satisfied"]);
    expect(done.outputs.url).toBe("http://x");
  });

  it("editing the predicate of a named wait re-opens it", async () => {
    const h = health([ready]);
    const run = await testProgram(server(), { mocks: { "local:Command": h.mock } });
    await run.up();
    const edited = await testProgram(server({ until: "serving" }), { mocks: { "local:Command": h.mock }, from: run.state });
    expect((await edited.preview()).step("healthy")).toMatchObject({ needed: true });
  });

  it("keeps an output published by an earlier satisfied run when a later run of the wait fails, and clears the wait's mark", async () => {
    const h = health([ready]);
    const run = await testProgram(server({ user: true }), { mocks: { "local:Command": h.mock, "local:File": urlFile() } });
    expect((await run.up()).outputs.url).toBe("http://x");
    // The server is updated (it restarts) and never becomes ready again.
    h.set([starting]);
    const again = await run.up({ replace: ["server"] });
    expect(again.waits.healthy!.outcome).toBe("timed-out");
    expect(again.outputs.url).toBe("http://x");
    expect((await run.preview()).step("healthy")).toMatchObject({ needed: true });
  });

  it("a second stack reading this stack's outputs cannot read the url before the wait held, and reads it after", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cairn-gate-"));
    try {
      let status = "starting";
      const Server = defineResource<{ name: string }, { url: string; status: string }>("test:gate:Server", {
        provider: {
          async create() {
            return { id: "srv-1", outputs: { url: "http://x", status: "starting" } };
          },
          async read() {
            return { url: "http://x", status };
          },
          async delete() {},
        },
      });
      const clock = new FakeClock({ auto: true });
      const gate = program("gate", () => {
        const s = new Server("server", { name: "s" });
        const ok = wait(s, { name: "healthy", until: (x) => x.status.eq("ready"), timeout: seconds(3) });
        return { url: ok.url };
      }).stack({ stateDir: join(dir, "gate"), stack: "prod", passphrase: "p", clock });
      const seen: string[] = [];
      const Sink = defineResource<{ v: string }, { v: string }>("test:gate:Sink", {
        provider: {
          async create({ inputs }) {
            seen.push(inputs.v);
            return { id: `sink-${seen.length}`, outputs: inputs };
          },
          async read({ outputs }) {
            return outputs;
          },
          async delete() {},
        },
      });
      const reader = program("reader", () => {
        const g = stackOutputs<{ url: string }>("gate", { stack: "prod", backend: fileBackendUrl(join(dir, "gate")) });
        new Sink("sink", { v: g.outputs.url });
      }).stack({ stateDir: join(dir, "reader"), stack: "prod", passphrase: "p", clock });

      await gate.up();
      await gate.up();
      const blocked = await reader.preview();
      expect(blocked.diagnostics.map((d) => d.summary).join("\n")).toMatch(/reads output "url" of stack gate\/prod, which has no such output/);
      expect(seen).toEqual([]);
      status = "ready";
      expect((await gate.up()).outputs).toEqual({ url: "http://x" });
      await reader.up();
      expect(seen).toEqual(["http://x"]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
