import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Program } from "../../src/entry/program.js";
import type { ProgramFn } from "../../src/program/evaluate.js";
import type { EngineEvent } from "../../src/apply/events.js";
import { renderPlan } from "../../src/cli/render/plan.js";
import { writePlanFile } from "../../src/plan/saved-plan.js";
import { everyKind, failingCheck, failingCreate, loop, subclasses, Thing } from "./site-fixture/infra.js";

const FIXTURE = "tests/program/site-fixture/infra.ts";
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function stackOf(fn: ProgramFn) {
  const dir = await mkdtemp(join(tmpdir(), "cairn-sites-"));
  dirs.push(dir);
  const stack = new Program("sites", fn, { dir, command: "npx tsx infra.ts" }).stack();
  const events: EngineEvent[] = [];
  stack.events.subscribe((e) => events.push(e));
  return { dir, stack, events };
}

/** Every file under `dir`, by path relative to it, with its bytes. */
async function filesUnder(dir: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const full = join(e.parentPath, e.name);
    out.set(full.slice(dir.length), await readFile(full));
  }
  return out;
}

/** The sites (as printed) of the nodes named `names` that `fn` declares. */
async function sitesOf(fn: ProgramFn, names: string[]): Promise<string[]> {
  const ev = await new Program("sites", fn).evaluate({ stack: "dev" });
  return names.map((name) => String(ev.nodes.find((n) => n.name === name)?.site));
}

describe("declaration sites", () => {
  it("each resource, wait and lookup remembers the line of the program that declared it", async () => {
    expect(await sitesOf(everyKind, ["fine", "wait(fine)", "found"])).toEqual([`${FIXTURE}:32:13`, `${FIXTURE}:33:3`, `${FIXTURE}:34:9`]);
  });

  it("a user's subclass of a defined type, a component and its child each remember the user's line", async () => {
    expect(await sitesOf(subclasses, ["big", "pair", "pair-child"])).toEqual([`${FIXTURE}:56:3`, `${FIXTURE}:57:3`, `${FIXTURE}:52:5`]);
  });

  it("resources declared on one line (a loop) share one site; the next line has its own", async () => {
    const ev = await new Program("sites", loop).evaluate({ stack: "dev" });
    const [a, b, c, after] = ev.nodes.map((n) => n.site);
    expect(String(a)).toBe(`${FIXTURE}:39:31`);
    expect(b).toBe(a);
    expect(c).toBe(a);
    expect(String(after)).toBe(`${FIXTURE}:40:3`);
    // Another evaluation keeps sites of its own (a site holds V8's call site, and what that frame holds).
    const again = await new Program("sites", loop).evaluate({ stack: "dev" });
    expect(again.nodes[0]!.site).not.toBe(a);
    expect(String(again.nodes[0]!.site)).toBe(String(a));
  });

  it("an error from a failing provider create names the line that declared the resource", async () => {
    const { stack, events } = await stackOf(failingCreate);
    const r = await stack.up();
    expect(r.summary?.ok).toBe(false);
    const failed = events.find((e): e is Extract<EngineEvent, { type: "step-failed" }> => e.type === "step-failed");
    expect(failed).toMatchObject({ error: "the cloud refused v=13", site: `${FIXTURE}:22:3` });
  });

  it("a plan diagnostic (a failed check) carries the line that declared the resource as a field, and the plan prints it once", async () => {
    const { stack } = await stackOf(failingCheck);
    const plan = await stack.preview();
    expect(plan.diagnostics.map((d) => ({ ...d, site: String(d.site) }))).toEqual([
      { severity: "error", urn: "urn:cairn:dev::sites::sites:test:Thing::negative", attribute: "v", summary: `"negative" (sites:test:Thing), input "v": must not be negative`, site: `${FIXTURE}:27:3` },
    ]);
    const shown = renderPlan(plan);
    expect(shown).toContain(`error: "negative" (sites:test:Thing), input "v": must not be negative\n  --> ${FIXTURE}:27:3`);
    expect(shown.split(`${FIXTURE}:27:3`)).toHaveLength(2);
  });

  it("preview --diff names where each changed resource was declared; the compact plan does not", async () => {
    const { stack } = await stackOf(failingCreate);
    const plan = await stack.preview();
    expect(renderPlan(plan, { diff: true })).toContain(`+ create urn:cairn:dev::sites::sites:test:Thing::unlucky\n      declared at ${FIXTURE}:22:3\n`);
    expect(renderPlan(plan)).not.toContain("declared at");
  });

  it("sites never reach the state files, saved plans or fingerprints: only where code sits differs", async () => {
    // GIVEN the same resource declared on two different lines
    const a = await stackOf(() => void new Thing("same", { v: 1 }));
    const b = await stackOf(() => {
      // (a line further down)
      new Thing("same", { v: 1 });
    });
    // WHEN both are planned, saved and applied
    const plans = [await a.stack.preview(), await b.stack.preview()];
    expect(plans[0]!.fingerprint).toBe(plans[1]!.fingerprint);
    await writePlanFile(join(a.dir, "plan.json"), plans[0]!, undefined);
    expect(await readFile(join(a.dir, "plan.json"), "utf8")).not.toMatch(/declaration-site|declared/);
    await a.stack.up();
    await b.stack.up();
    // THEN the state folders hold the same bytes
    const [fa, fb] = [await filesUnder(join(a.dir, ".cairn")), await filesUnder(join(b.dir, ".cairn"))];
    expect(fa.size).toBeGreaterThan(0);
    expect([...fa.keys()].sort()).toEqual([...fb.keys()].sort());
    for (const [path, bytes] of fa) expect(bytes.toString("utf8"), path).toBe(fb.get(path)!.toString("utf8"));
  });
});
