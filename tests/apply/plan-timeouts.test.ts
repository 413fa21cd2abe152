import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { defineResource } from "../../src/program/define.js";
import { Program } from "../../src/entry/program.js";
import type { Provider } from "../../src/provider/provider.js";
import type { EngineEvent } from "../../src/apply/events.js";
import type { PlanStep } from "../../src/plan/plan.js";

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

let hang = false;
const provider: Provider<{ v: number }, { v: number }> = {
  async create({ inputs }) {
    return { id: `t-${inputs.v}`, outputs: { v: inputs.v } };
  },
  async read({ outputs }) {
    return outputs;
  },
  async diff({ olds, news }) {
    return olds.v === news.v ? { kind: "same" } : { kind: "replace", changed: ["v"], replaceKeys: ["v"] };
  },
  // The old object's delete never answers while `hang` is set: only a time limit ends it.
  delete: () => (hang ? new Promise<void>(() => {}) : Promise.resolve()),
};
const Thing = defineResource<{ v: number }, { v: number }>("plantimeouts:test:Thing", { provider, schema: { inputs: { v: {} }, outputs: { v: {} } } });

describe("the plan is the contract: apply takes every time limit from the plan's steps", () => {
  it("a replace's delete half is bounded by the step's own timeouts, not looked up in the program", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cairn-plan-timeouts-"));
    dirs.push(dir);
    let v = 1;
    const prog = new Program("plantimeouts", () => void new Thing("t", { v }), { dir, command: "npx tsx infra.ts" });
    const stack = prog.stack();
    await stack.up();
    v = 2;
    const plan = await stack.preview();
    const step = plan.steps.find((s) => s.kind === "replace") as Extract<PlanStep, { kind: "replace" }>;
    expect(step).toBeDefined();
    // The program sets no customTimeouts; the plan says 100 ms for deletes. A handler reading the program
    // would give the hanging delete the 30-minute default instead.
    step.meta.timeouts = { delete: 100 };
    hang = true;
    const events: EngineEvent[] = [];
    stack.events.subscribe((e) => events.push(e));
    const r = await stack.apply(plan);
    hang = false;
    expect(r.summary?.ok).toBe(false);
    const failed = events.find((e) => e.type === "step-failed" && e.kind === "delete-replaced") as Extract<EngineEvent, { type: "step-failed" }> | undefined;
    expect(failed?.error).toMatch(/did not finish within 100ms \(customTimeouts\.delete\)/);
  }, 20_000);
});
