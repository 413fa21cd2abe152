import { describe, expect, it } from "vitest";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { cli, finish, start, tempProject, waitFor } from "./cli-harness.js";
import { slowProgram } from "./programs.js";

const SLOW = slowProgram(8);

describe("crashes and concurrency, end to end", () => {
  it("kill -9 during an apply, then the next run recovers and finishes", async () => {
    const dir = await tempProject({ "infra.ts": SLOW });
    const child = start(dir, ["up", "--yes", "--parallel", "2"], { SLOW_MS: "400" });
    const done = finish(child);
    // Kill once some objects exist but not all.
    await waitFor(async () => (await readdir(join(dir, "objs")).catch(() => [])).length >= 3);
    process.kill(-child.pid!, "SIGKILL");
    await done;
    const journal = await readFile(join(dir, ".cairn/stacks/dev/journal.ndjson"), "utf8");
    expect(journal).toContain('"t":"begin"');

    const r = await cli(dir, ["up", "--yes"], { SLOW_MS: "0" });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stderr).toMatch(/stale lock/);
    expect(r.stderr).toMatch(/interrupted create of urn:cairn:dev::slow::e2e:Slow::s\d/);
    expect((await readdir(join(dir, "objs"))).sort()).toEqual(["0", "1", "2", "3", "4", "5", "6", "7"]);
    const state = JSON.parse(await readFile(join(dir, ".cairn/stacks/dev/state.json"), "utf8"));
    expect(Object.keys(state.resources)).toHaveLength(8);
    const again = await cli(dir, ["preview", "--expect-no-changes"]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });

  it("a second concurrent up fails at once naming the holder", async () => {
    const dir = await tempProject({ "infra.ts": SLOW });
    const first = start(dir, ["up", "--yes"], { SLOW_MS: "3000" });
    const firstDone = finish(first);
    await waitFor(async () => (await readFile(join(dir, ".cairn/stacks/dev/lock.json"), "utf8").catch(() => "")).includes('"pid"'));
    const t0 = Date.now();
    const second = await cli(dir, ["up", "--yes"]);
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/locked by pid \d+ on .* since /);
    expect(second.stderr).toContain("unlock --stack dev");
    const r = await firstDone;
    expect(r.code, r.stderr).toBe(0);
  });
});
