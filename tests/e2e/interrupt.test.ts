import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { readdir, readFile, access } from "node:fs/promises";
import { join } from "node:path";
import { cli, finish, startBin, tempProject } from "./cli-harness.js";
import { slowProgram } from "./programs.js";

const SLOW = slowProgram(6);

const exists = (p: string) => access(p).then(() => true, () => false);
const stateOf = async (dir: string) => {
  const text = await readFile(join(dir, ".cairn/stacks/dev/state.json"), "utf8").catch(() => "{\"resources\":{}}");
  return Object.keys(JSON.parse(text).resources).sort();
};

async function started(child: ReturnType<typeof startBin>, what: RegExp): Promise<void> {
  let seen = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`never saw ${what}: ${seen}`)), 20_000);
    const look = (d: Buffer) => {
      seen += d.toString();
      if (what.test(seen)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", look);
    child.stderr!.on("data", look);
  });
}

/** Resolves once `count` creates of the slow program are in flight (each marks itself in started/). */
async function createsInFlight(dir: string, count: number): Promise<void> {
  for (const until = Date.now() + 20_000; Date.now() < until; await new Promise((r) => setTimeout(r, 20))) {
    if ((await readdir(join(dir, "started")).catch(() => [])).length >= count) return;
  }
  throw new Error(`${count} creates never started`);
}

/** `up --yes --parallel 2` of the slow program through the bin, once its plan is printed (creates about to start). */
async function upUnderway(slowMs: string) {
  const dir = await tempProject({ "infra.ts": SLOW });
  const child = startBin(dir, ["up", "--yes", "--parallel", "2"], { SLOW_MS: slowMs, CI: "true" });
  const done = finish(child);
  await started(child, /Plan: 6 to create/);
  return { dir, child, done };
}

describe("Ctrl-C, end to end", () => {
  it("the first Ctrl-C lets running creates finish and saves them: nothing leaks, exit 130, lock released", async () => {
    const { dir, child, done } = await upUnderway("1500");
    await createsInFlight(dir, 2);
    process.kill(child.pid!, "SIGINT");
    const r = await done;
    expect(r.code, r.stdout + r.stderr).toBe(130);
    expect(r.stderr).toMatch(/Cancelling: nothing new starts/);
    expect(r.stderr).toMatch(/Cancelled: 2 finished and saved, 4 not started/);
    // What was made is recorded: every object in the "cloud" is in state, and the rest was never started.
    const objs = (await readdir(join(dir, "objs"))).sort();
    expect(objs).toHaveLength(2);
    expect(await stateOf(dir)).toEqual(objs.map((n) => `urn:cairn:dev::slow::e2e:Slow::s${n}`).sort());
    expect(await exists(join(dir, ".cairn/stacks/dev/lock"))).toBe(false);
    const next = await cli(dir, ["up", "--yes"], { SLOW_MS: "0" });
    expect(next.code, next.stderr).toBe(0);
    expect(next.stdout).toMatch(/Plan: 4 to create/);
    expect((await readdir(join(dir, "objs"))).sort()).toEqual(["0", "1", "2", "3", "4", "5"]);
  });

  it("a second Ctrl-C stops at once: what was running is recorded as uncertain and checked by the next run", async () => {
    const { dir, child, done } = await upUnderway("8000");
    await createsInFlight(dir, 2);
    const t0 = Date.now();
    process.kill(child.pid!, "SIGINT");
    await started(child, /Cancelling: nothing new starts/);
    process.kill(child.pid!, "SIGINT");
    const r = await done;
    expect(Date.now() - t0).toBeLessThan(6000);
    expect(r.code, r.stdout + r.stderr).toBe(130);
    expect(r.stderr).toMatch(/Stopping now: operations still running are abandoned and recorded as uncertain/);
    expect(r.stderr).toMatch(/was interrupted \(cancelled twice\); it is recorded as uncertain/);
    expect(await exists(join(dir, ".cairn/stacks/dev/lock"))).toBe(false);
    const next = await cli(dir, ["up", "--yes"], { SLOW_MS: "0" });
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).toMatch(/An interrupted create of urn:cairn:dev::slow::e2e:Slow::s\d/);
    expect((await readdir(join(dir, "objs"))).sort()).toEqual(["0", "1", "2", "3", "4", "5"]);
  });
});

describe("Ctrl-C in the first moments", () => {
  it("is not fatal before the command line has loaded: the command is cancelled cleanly, exit 130, nothing made, no lock left", async () => {
    // The program file interrupts itself right after declaring its program, before the CLI has loaded.
    const early = `import { program } from "cairn-iac";
import { local } from "cairn-iac/local";
export default program("early", () => { new local.File("a", { path: "out/a.txt", content: "x" }); });
process.kill(process.pid, "SIGINT");
`;
    const dir = await tempProject({ "infra.mjs": early });
    const child = spawn(process.execPath, ["infra.mjs", "up", "--yes"], { cwd: dir, env: { ...process.env, NO_COLOR: "1", CI: "true" }, stdio: ["ignore", "pipe", "pipe"] });
    const r = await finish(child);
    expect(r.code, `${r.stdout}${r.stderr}`).toBe(130);
    expect(r.stderr).toMatch(/Cancelling: nothing new starts/);
    expect(await exists(join(dir, "out"))).toBe(false);
    expect(await exists(join(dir, ".cairn/stacks/dev/lock"))).toBe(false);
  });
});

describe("output whose reader goes away", () => {
  it("`up | head` closing the pipe does not stop the run: every object is made and saved, exit 0, lock released", async () => {
    const { dir, child, done } = await upUnderway("300");
    // The reader is gone (`up 2>&1 | head`): the next line the run prints, on either stream, meets EPIPE.
    child.stdout!.destroy();
    child.stderr!.destroy();
    const r = await done;
    expect(r.code).toBe(0);
    const objs = (await readdir(join(dir, "objs"))).sort();
    expect(objs).toEqual(["0", "1", "2", "3", "4", "5"]);
    expect(await stateOf(dir)).toEqual(objs.map((n) => `urn:cairn:dev::slow::e2e:Slow::s${n}`).sort());
    expect(await exists(join(dir, ".cairn/stacks/dev/lock"))).toBe(false);
  });
});
