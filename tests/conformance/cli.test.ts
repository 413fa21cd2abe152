import { describe, expect, it } from "vitest";
import { readFile, writeFile, access } from "node:fs/promises";
import { join } from "node:path";
import { cli, tempProject } from "../e2e/cli-harness.js";

// Objects are files in ./cloud; a provider can be told to hang (a promise that never settles, no timer).
const program = (body: string) => `
import { program, defineResource, output } from "cairn-iac";
import { writeFile, rm, readFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
const Obj = defineResource<{ name: string; value?: string }, { name: string; value?: string }>("cli:conf:Obj", {
  provider: {
    idempotentCreate: true, // cloud/<name>: a create made again writes the same object
    async create({ inputs, ctx }) {
      if (process.env.HANG === inputs.name) return new Promise(() => {});
      await mkdir(join(ctx.workDir, "cloud"), { recursive: true });
      await writeFile(join(ctx.workDir, "cloud", inputs.name), JSON.stringify(inputs));
      return { id: inputs.name, outputs: inputs };
    },
    async read({ id, ctx }) {
      try { return JSON.parse(await readFile(join(ctx.workDir, "cloud", id), "utf8")); } catch { return undefined; }
    },
    async update({ id, news, ctx }) {
      await writeFile(join(ctx.workDir, "cloud", id), JSON.stringify(news));
      return news;
    },
    async delete({ id, ctx }) { await rm(join(ctx.workDir, "cloud", id), { force: true }); },
  },
  schema: { inputs: { name: { forceNew: true }, value: {} }, outputs: { name: {}, value: {} } },
});
export default program("cliconf", ({ config }) => {
${body}
});
`;

const exists = (p: string) => access(p).then(() => true, () => false);
const lockOf = (dir: string) => join(dir, ".cairn", "stacks", "dev", "lock");

describe("conformance: the CLI never exits 0 in silence", () => {
  it("a provider promise that never settles ends the run non-zero, naming it, with the lock released", async () => {
    const dir = await tempProject({ "infra.ts": program(`new Obj("a", { name: "a" }); new Obj("b", { name: "b" });`) });
    const r = await cli(dir, ["up", "--yes"], { HANG: "b" });
    expect(r.code).toBe(1);
    expect(r.stderr + r.stdout).toMatch(/create of "b": its provider call never settled and nothing else was left to run; it was abandoned and recorded as uncertain/);
    expect(await exists(lockOf(dir))).toBe(false);
    // State is valid and kept what was done; the next run reports the abandoned create and finishes.
    const again = await cli(dir, ["up", "--yes"]);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/An interrupted create of .*::b/);
    expect(JSON.parse(await readFile(join(dir, "cloud", "b"), "utf8"))).toEqual({ name: "b" });
  });

  it("a cycle through apply() exits 1 with the chain, before any call, with the lock released", async () => {
    const dir = await tempProject({
      "infra.ts": program(`let later: any; const a = new Obj("a", { name: "a", value: output(1).apply(() => later.value) }); later = new Obj("b", { name: "b", value: a.value });`),
    });
    const r = await cli(dir, ["up", "--yes"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/Dependency cycle through apply\(\): "a" \(.*\) → "b" \(.*\) → "a"/);
    expect(await exists(join(dir, "cloud"))).toBe(false);
    expect(await exists(lockOf(dir))).toBe(false);
  });

  it("--target naming nothing exits 1", async () => {
    const dir = await tempProject({ "infra.ts": program(`new Obj("a", { name: "a" });`) });
    const r = await cli(dir, ["up", "--yes", "--target", "urn:cairn:dev::cliconf::cli:conf:Obj::nope"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--target urn:cairn:dev::cliconf::cli:conf:Obj::nope: no resource with this URN/);
  });
});

describe("conformance: saved plans", () => {
  it("preview --out writes a plan that up --plan applies exactly, once", async () => {
    const dir = await tempProject({ "infra.ts": program(`new Obj("a", { name: "a", value: config.get("v") ?? "1" });`) });
    const saved = await cli(dir, ["preview", "--out", "plan.json"]);
    expect(saved.code).toBe(0);
    expect(saved.stderr).toMatch(/Saved the plan to plan.json/);
    const applied = await cli(dir, ["up", "--plan", "plan.json", "--yes"]);
    expect(applied.code).toBe(0);
    expect(JSON.parse(await readFile(join(dir, "cloud", "a"), "utf8"))).toEqual({ name: "a", value: "1" });
    // The state moved on: the same plan is refused, and nothing is done.
    const stale = await cli(dir, ["up", "--plan", "plan.json", "--yes"]);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/changed since this plan was made \(serial \d+ → \d+\); nothing was applied/);
  });

  it("up --plan refuses a plan made from a different program or config", async () => {
    const dir = await tempProject({ "infra.ts": program(`new Obj("a", { name: "a", value: config.get("v") ?? "1" });`) });
    expect((await cli(dir, ["preview", "--out", "plan.json"])).code).toBe(0);
    expect((await cli(dir, ["config", "set", "v", "2"])).code).toBe(0);
    const r = await cli(dir, ["up", "--plan", "plan.json", "--yes"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/The program changed since this plan was made/);
    expect(await exists(join(dir, "cloud"))).toBe(false);
  });

  it("a saved plan keeps secret values encrypted", async () => {
    const dir = await tempProject({ "infra.ts": program(`new Obj("a", { name: "a", value: config.requireSecret("pw") });`) });
    expect((await cli(dir, ["config", "set", "pw", "hunter2-very-secret", "--secret"])).code).toBe(0);
    expect((await cli(dir, ["preview", "--out", "plan.json"])).code).toBe(0);
    const text = await readFile(join(dir, "plan.json"), "utf8");
    expect(text).not.toContain("hunter2-very-secret");
    expect(text).toContain('"$secret"');
    const r = await cli(dir, ["up", "--plan", "plan.json", "--yes"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(await readFile(join(dir, "cloud", "a"), "utf8")).value).toBe("hunter2-very-secret");
  });

  it("a file that is not a plan is refused with what to do", async () => {
    const dir = await tempProject({ "infra.ts": program(`new Obj("a", { name: "a" });`) });
    await writeFile(join(dir, "plan.json"), "{}");
    const r = await cli(dir, ["up", "--plan", "plan.json", "--yes"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/plan.json is not a Cairn plan file \(written by `preview --out`\)/);
  });
});
