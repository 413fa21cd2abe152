import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Program, type ProgramFn } from "../../../src/entry/program.js";
import { wait } from "../../../src/wait/wait.js";
import { seconds } from "../../../src/core/duration.js";
import type { EngineEvent } from "../../../src/apply/events.js";
import { local } from "../../../src/providers/local/index.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cairn-command-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function stackOf(fn: ProgramFn) {
  const stack = new Program("cmd", fn, { dir }).stack({ stateDir: join(dir, ".cairn"), passphrase: "test-pass" });
  const events: EngineEvent[] = [];
  stack.events.subscribe((e) => events.push(e));
  return { stack, events };
}
const log = () => readFile(join(dir, "log.txt"), "utf8").catch(() => "");
/** Alive and not a zombie waiting to be reaped (a killed process whose parent is a slow init). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
}
const failures = (events: EngineEvent[]) => events.filter((e) => e.type === "step-failed");

describe("local.Command", () => {
  it("runs create in the program's folder with its environment, and keeps stdout and stderr as outputs", async () => {
    const { stack } = stackOf(() => {
      const c = new local.Command("hello", { create: 'echo "hi $WHO from $(basename "$PWD")"; echo oops >&2', environment: { WHO: "cairn" } });
      return { out: c.stdout, err: c.stderr };
    });
    const r = await stack.up();
    expect(r.summary?.ok).toBe(true);
    expect(r.outputs).toEqual({ out: `hi cairn from ${dir.split("/").pop()}`, err: "oops" });
  });

  it("read's JSON becomes attributes; update and delete see what create printed; the passphrase stays private", async () => {
    let greeting = "hello";
    let deleteCmd = 'echo "delete $CAIRN_STDOUT" >> log.txt';
    const fn: ProgramFn = () => {
      const c = new local.Command<{ greeting: string; secret: string }>("svc", {
        create: 'echo "pid-42"; echo "create $GREETING" >> log.txt',
        update: 'echo "pid-43"; echo "update $GREETING after $CAIRN_STDOUT" >> log.txt',
        delete: deleteCmd,
        read: 'printf \'{"greeting":"%s","secret":"%s"}\' "$GREETING" "${CAIRN_PASSPHRASE:-none}"',
        environment: { GREETING: greeting },
      });
      return { attrs: c.attributes };
    };
    const { stack } = stackOf(fn);
    expect((await stack.up()).outputs).toEqual({ attrs: { greeting: "hello", secret: "none" } });
    greeting = "hi";
    expect((await stack.up()).outputs).toEqual({ attrs: { greeting: "hi", secret: "none" } });
    deleteCmd = 'echo "delete (new command) $CAIRN_STDOUT" >> log.txt'; // recorded only: nothing runs
    const quiet = await stack.up();
    expect(quiet.summary?.done).toEqual({ update: 1 });
    await stack.destroy();
    expect(await log()).toBe(["create hello", "update hi after pid-42", "delete (new command) pid-43", ""].join("\n"));
  });

  it("a change of triggers replaces it: the old one is deleted", async () => {
    let version = 1;
    const { stack } = stackOf(() => {
      new local.Command("job", { create: `echo "create ${version}" >> log.txt; echo ${version}`, delete: 'echo "delete $CAIRN_STDOUT" >> log.txt', triggers: [version] });
    });
    await stack.up();
    version = 2;
    const plan = await stack.preview();
    expect(plan.steps.find((s) => s.urn.endsWith("job"))).toMatchObject({ kind: "replace", replaceKeys: ["triggers"] });
    await stack.up();
    expect(await log()).toBe("create 1\ncreate 2\ndelete 1\n");
  });

  it("a failing command fails the step with its exit code and last output lines, and records nothing", async () => {
    const { stack, events } = stackOf(() => {
      new local.Command("bad", { create: "echo starting; echo 'no such database' >&2; exit 3" });
    });
    const r = await stack.up();
    expect(r.summary?.ok).toBe(false);
    expect(failures(events)).toEqual([expect.objectContaining({ kind: "create", error: "the create command `echo starting; echo 'no such database' >&2; exit 3` exited with code 3:\nno such database", site: "tests/providers/local/command.test.ts:88:7" })]);
    expect(await stack.resources()).toEqual([]);
  });

  it("a wait can gate on anything a script checks: here a file that says ready after a few reads", async () => {
    await writeFile(join(dir, "count"), "0");
    const { stack, events } = stackOf(() => {
      const c = new local.Command<{ status: string }>("check", {
        create: "true",
        read: 'n=$(($(cat count) + 1)); echo $n > count; if [ $n -ge 3 ]; then echo \'{"status":"ready"}\'; else echo \'{"status":"starting"}\'; fi',
      });
      const ready = wait(c, { until: (x) => x.attributes.status.eq("ready"), timeout: seconds(20), interval: seconds(1) });
      return { status: ready.attributes.apply((a) => a.status) };
    });
    const r = await stack.up();
    expect(r.outputs).toEqual({ status: "ready" });
    const polled = events.filter((e) => e.type === "wait-polled").map((e) => (e.type === "wait-polled" ? e.observed?.[0]?.value : undefined));
    expect(polled.at(-1)).toBe("ready");
    expect(polled).toContain("starting");
  });

  it("read printing null means gone: refresh drops it from state", async () => {
    const { stack } = stackOf(() => {
      new local.Command("thing", { create: "touch thing", delete: "rm -f thing", read: 'if [ -f thing ]; then echo "{}"; else echo null; fi' });
    });
    await stack.up();
    await rm(join(dir, "thing"));
    const r = await stack.refresh({ confirm: async () => true });
    expect(r.changes).toEqual([expect.objectContaining({ kind: "gone" })]);
    expect(await stack.resources()).toEqual([]);
  });

  it("a read that prints something other than a JSON object is a clear error", async () => {
    const { stack, events } = stackOf(() => {
      const c = new local.Command<{ status: string }>("j", { create: "true", read: "echo not-json" });
      wait(c, { until: (x) => x.attributes.status.eq("ready"), timeout: seconds(5) });
    });
    await stack.up();
    const ended = events.find((e) => e.type === "wait-ended");
    expect(ended?.type === "wait-ended" && ended.message).toMatch(/the read command `echo not-json` must print one JSON object \(or null when the thing is gone\); it printed: not-json/);
  });

  it("does not wait for a process the command leaves running in the background", async () => {
    const started = Date.now();
    const { stack } = stackOf(() => {
      const c = new local.Command("bg", { create: "sleep 30 & echo $!", delete: "kill $CAIRN_STDOUT" });
      return { pid: c.stdout };
    });
    const r = await stack.up();
    expect(Date.now() - started).toBeLessThan(10_000);
    const pid = Number(r.outputs?.pid);
    expect(isRunning(pid)).toBe(true); // still running
    await stack.destroy();
    await expect.poll(() => isRunning(pid), { timeout: 3000 }).toBe(false);
  });

  it("checks its inputs before planning", async () => {
    const { stack } = stackOf(() => {
      new local.Command("empty", { create: " " });
    });
    const plan = await stack.preview();
    expect(plan.diagnostics).toEqual([expect.objectContaining({ severity: "error", summary: expect.stringMatching(/create.*must be a non-empty command string/) })]);
  });
});
