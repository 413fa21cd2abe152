import { describe, expect, it } from "vitest";
import { jsonEvent } from "../../src/cli/json/schema.js";
import { seconds } from "../../src/core/duration.js";
import type { ProgramFn } from "../../src/entry/program.js";
import { wait } from "../../src/wait/wait.js";
import { local } from "../../src/providers/local/index.js";
import { programIn, run } from "./harness.js";

const jsonEvents = (stdout: string) => stdout.trim().split("\n").filter(Boolean).map((l) => JSON.parse(l) as { type: string; [k: string]: unknown });

/** A command that becomes ready at once, a wait on it, a file from the gated value; with `broken`, a failing command and a file that needs it. */
const program: ProgramFn = ({ config }) => {
  const ok = new local.Command<{ status: string }>("ok", { create: "echo started", read: `echo '{"status":"ready"}'` });
  const ready = wait(ok, { name: "ready", until: (c) => c.attributes.status.eq("ready"), timeout: seconds(10) });
  const note = new local.File("note", { path: "out/note.txt", content: ready.stdout.apply((s) => s + "\n") });
  if (config.getBoolean("broken")) {
    const bad = new local.Command("bad", { create: "echo 'disk full' >&2; exit 7" });
    new local.File("after-bad", { path: "out/after.txt", content: bad.stdout });
  }
  return { note: note.path, status: ready.attributes.apply((a) => a.status) };
};

/** Every line is one valid v1 event (the schema is strict: an undocumented field fails too). */
function validated(stdout: string) {
  const events = jsonEvents(stdout);
  for (const e of events) expect(() => jsonEvent.parse(e), JSON.stringify(e)).not.toThrow();
  return events;
}

describe("--json, driving the CLI", () => {
  it("up streams the plan, the steps, the wait, the outputs and the summary as v1 events, and nothing else on stdout", async () => {
    const { prog } = await programIn("json", program);
    const r = await run(prog, ["up", "--yes", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const events = validated(r.stdout);
    const types = events.map((e) => e.type);
    expect(types[0]).toBe("plan");
    expect(types.slice(-2)).toEqual(["summary", "outputs"]);
    expect(types).toContain("wait-polled");
    expect(events.find((e) => e.type === "wait-ended")).toMatchObject({ name: "ready", outcome: { kind: "satisfied" } });
    expect(events.filter((e) => e.type === "step-succeeded").map((e) => `${e.op} ${e.name}`)).toEqual(["create ok", "wait ready", "create note"]);
    expect(events.at(-1)).toMatchObject({ outputs: { note: "out/note.txt", status: "ready" } });
    const elapsed = events.map((e) => e.elapsed_ms as number);
    expect(elapsed).toEqual([...elapsed].sort((a, b) => a - b)); // counted from the command's start

    validated((await run(prog, ["preview", "--json"])).stdout);
    validated((await run(prog, ["refresh", "--yes", "--json"])).stdout);
    const down = await run(prog, ["destroy", "--yes", "--json"]);
    expect(validated(down.stdout).map((e) => e.type)).toEqual(["plan", "step-started", "step-succeeded", "step-started", "step-succeeded", "summary"]);
  });

  it("a failed step carries the provider's message and a hint; what depended on it is skipped; exit code 1", async () => {
    const { prog } = await programIn("json", program);
    expect((await run(prog, ["config", "set", "broken", "true"])).code).toBe(0);
    const r = await run(prog, ["up", "--yes", "--json"]);
    expect(r.code).toBe(1);
    const events = validated(r.stdout);
    expect(events.find((e) => e.type === "step-failed")).toMatchObject({
      name: "bad",
      resource_type: "local:Command",
      op: "create",
      error: "the create command `echo 'disk full' >&2; exit 7` exited with code 7:\ndisk full",
      site: "tests/cli/json-run.test.ts:17:17",
      hint: expect.stringContaining("run `npx tsx infra.ts up` again"),
    });
    expect(events.find((e) => e.type === "step-skipped")).toMatchObject({ name: "after-bad", reason: expect.stringContaining("dependency failed") });
    expect(events.find((e) => e.type === "summary")).toMatchObject({ ok: false, failed: 1, skipped: 1 });
  });

  it("the human form of that failure names the resource and operation, the message and the hint, once, on stderr", async () => {
    const { prog } = await programIn("json", program);
    await run(prog, ["config", "set", "broken", "true"]);
    const r = await run(prog, ["up", "--yes"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      [
        "✗ create urn:cairn:dev::json::local:Command::bad failed:",
        "    the create command `echo 'disk full' >&2; exit 7` exited with code 7:",
        "    disk full",
        "    --> tests/cli/json-run.test.ts:17:17",
        "    hint: Nothing was recorded for it (an object made part-way is recorded as tainted and replaced next time); fix the cause and run `npx tsx infra.ts up` again.",
      ].join("\n"),
    );
    expect(r.stderr.split("✗ create").length).toBe(2); // printed once
    expect(r.stdout).toMatch(/Failed: 2 created, 1 wait satisfied, 1 failed, 1 skipped in \d+m?s/);
  });
});
