import { describe, expect, it } from "vitest";
import { access, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { cli, finish, start, tempProject, waitFor } from "./cli-harness.js";
import { slowProgram } from "./programs.js";

const SLOW = slowProgram(8);

// A provider with neither resume nor idempotentCreate (as local.Command, or most hand-written ones): every
// create makes a new object `objs/<n>.<random>`, so a create made twice shows as two objects.
const DUPLICATING = `
import { program, defineResource } from "cairn-iac";
import { writeFile, rm, readFile, mkdir } from "node:fs/promises";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
const Dup = defineResource<{ n: number }, { n: number }>("e2e:Dup", {
  provider: {
    async create({ inputs, ctx }) {
      await mkdir(join(ctx.workDir, "started"), { recursive: true });
      await writeFile(join(ctx.workDir, "started", String(inputs.n)), "");
      await new Promise((r) => setTimeout(r, Number(process.env.SLOW_MS ?? 0)));
      await mkdir(join(ctx.workDir, "objs"), { recursive: true });
      const id = inputs.n + "." + randomUUID();
      await writeFile(join(ctx.workDir, "objs", id), "x");
      return { id, outputs: inputs };
    },
    async read({ id, outputs, ctx }) {
      try { await readFile(join(ctx.workDir, "objs", id)); return { n: Number(id.split(".")[0]) }; } catch { return undefined; }
    },
    async delete({ id, ctx }) { await rm(join(ctx.workDir, "objs", id), { force: true }); },
  },
  schema: { inputs: { n: {} }, outputs: { n: {} } },
});
export default program("dup", () => {
  for (let i = 0; i < 8; i++) new Dup("d" + i, { n: i });
});
`;

/** The objects of the duplicating program's cloud, by resource number: how many each has. */
async function objectsOf(dir: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const f of await readdir(join(dir, "objs")).catch(() => [] as string[])) out[f.split(".")[0]!] = (out[f.split(".")[0]!] ?? 0) + 1;
  return out;
}

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

  it("kill -9 mid-create with a provider that can neither resume nor repeat a create: the next up stops naming each, until told what became of it; nothing is made twice", async () => {
    const dir = await tempProject({ "infra.ts": DUPLICATING });
    const child = start(dir, ["up", "--yes", "--parallel", "2"], { SLOW_MS: "600" });
    const done = finish(child);
    // Kill while creates are in flight: some objects exist, and two more creates have started.
    await waitFor(async () => (await readdir(join(dir, "objs")).catch(() => [])).length >= 2 && (await readdir(join(dir, "started"))).length >= 4);
    process.kill(-child.pid!, "SIGKILL");
    await done;
    const made = await objectsOf(dir);

    // WHEN the next up (or preview) runs THEN it stops before planning, naming each create in flight, and makes nothing
    const r = await cli(dir, ["up", "--yes"], { SLOW_MS: "0" });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toMatch(/interrupted creates? may have made (an object|objects) the state does not record:/);
    expect(r.stderr).toContain("this run stopped before planning anything");
    expect(r.stderr).toMatch(/state import (e2e:Dup|<type>) \S+ <id> --forget-interrupted /);
    const named = [...r.stderr.matchAll(/^ {2}- (urn:cairn:dev::dup::e2e:Dup::d(\d)) \(a e2e:Dup, started /gm)].map((m) => ({ urn: m[1]!, n: m[2]! }));
    expect(named.length).toBeGreaterThan(0);
    for (const { n } of named) await access(join(dir, "started", n)); // each named create had started
    expect(await objectsOf(dir)).toEqual(made);
    const preview = await cli(dir, ["preview"]);
    expect(preview.code).toBe(1);
    expect(preview.stderr).toContain(named[0]!.urn);
    expect(await objectsOf(dir)).toEqual(made);

    // WHEN the user says what became of each: an object that exists is imported, one that does not is forgotten
    const forget: string[] = [];
    for (const { urn, n } of named) {
      const id = (await readdir(join(dir, "objs")).catch(() => [] as string[])).find((f) => f.startsWith(`${n}.`));
      if (!id) {
        forget.push("--forget-interrupted", urn);
        continue;
      }
      const imported = await cli(dir, ["state", "import", "e2e:Dup", urn, id, "--yes", "--forget-interrupted", urn]);
      expect(imported.code, imported.stdout + imported.stderr).toBe(0);
    }
    const next = await cli(dir, ["up", "--yes", ...forget], { SLOW_MS: "0" });
    expect(next.code, next.stdout + next.stderr).toBe(0);
    // THEN every resource has exactly one object
    expect(await objectsOf(dir)).toEqual({ 0: 1, 1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 1 });
    const again = await cli(dir, ["preview", "--expect-no-changes"]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });
});

