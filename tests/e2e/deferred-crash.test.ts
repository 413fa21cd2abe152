import { describe, expect, it } from "vitest";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { cli, finish, start, tempProject, waitFor } from "./cli-harness.js";

/**
 * A source whose `items` are known only once it is created, and one slow item declared per entry inside
 * apply(): `up` needs two rounds. Each create writes a file, and the source counts how often it was made.
 */
const PROGRAM = `
import { program, defineResource } from "cairn-iac";
import { writeFile, rm, readFile, mkdir, appendFile } from "node:fs/promises";
import { join } from "node:path";
const Source = defineResource<{ count: number }, { count: number; items: string[] }>("e2e:Source", {
  provider: {
    async create({ inputs, ctx }) {
      await appendFile(join(ctx.workDir, "source-creates"), "x");
      return { id: "source", outputs: { count: inputs.count, items: Array.from({ length: inputs.count }, (_, i) => "item" + i) } };
    },
    async read({ outputs }) { return outputs; },
    async delete() {},
  },
  schema: { inputs: { count: {} }, outputs: { count: {}, items: {} } },
});
const Item = defineResource<{ name: string }, { name: string }>("e2e:Item", {
  provider: {
    idempotentCreate: true, // items/<name>: a create made again writes the same file
    async create({ inputs, ctx }) {
      await mkdir(join(ctx.workDir, "items"), { recursive: true });
      await new Promise((r) => setTimeout(r, Number(process.env.SLOW_MS ?? 0)));
      await writeFile(join(ctx.workDir, "items", inputs.name), "x");
      return { id: inputs.name, outputs: inputs };
    },
    async read({ id, outputs, ctx }) {
      try { await readFile(join(ctx.workDir, "items", id)); return outputs; } catch { return undefined; }
    },
    async delete({ id, ctx }) { await rm(join(ctx.workDir, "items", id), { force: true }); },
  },
  schema: { inputs: { name: {} }, outputs: { name: {} } },
});
export default program("rounds", () => {
  const source = new Source("source", { count: 6 });
  source.items.apply((items) => items.map((name) => new Item(name, { name })));
});
`;

describe("deferred resources, end to end", () => {
  it("kill -9 in the second round of up, then the next up converges without duplicates", async () => {
    const dir = await tempProject({ "infra.ts": PROGRAM });
    const preview = await cli(dir, ["preview"]);
    expect(preview.code, preview.stderr).toBe(3);
    expect(preview.stdout).toContain('e2e:Item "…": declared in apply() on source.items');

    const child = start(dir, ["up", "--yes", "--parallel", "2"], { SLOW_MS: "400" });
    const done = finish(child);
    // Killed once the second round has made some items, not all.
    await waitFor(async () => (await readdir(join(dir, "items")).catch(() => [])).length >= 2);
    process.kill(-child.pid!, "SIGKILL");
    await done;
    expect((await readdir(join(dir, "items"))).length).toBeLessThan(6);

    const r = await cli(dir, ["up", "--yes"], { SLOW_MS: "0" });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).not.toContain("Round 2"); // the items are known now: one round plans them all
    expect((await readdir(join(dir, "items"))).sort()).toEqual(["item0", "item1", "item2", "item3", "item4", "item5"]);
    expect(await readFile(join(dir, "source-creates"), "utf8")).toBe("x");
    const state = JSON.parse(await readFile(join(dir, ".cairn/stacks/dev/state.json"), "utf8"));
    expect(Object.keys(state.resources)).toHaveLength(7);
    const again = await cli(dir, ["preview", "--expect-no-changes"]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });
});
