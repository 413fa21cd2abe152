import { describe, expect, it } from "vitest";
import { MAX_ROUNDS, roundQuestion, runRounds, type RoundSteps } from "../../src/stack/rounds.js";
import { newPlan, type DeferredPart, type Plan, type PlanStep } from "../../src/plan/plan.js";
import type { StackState } from "../../src/state/types.js";
import type { Urn } from "../../src/core/urn.js";

const state: StackState = { version: 1, project: "p", stack: "dev", serial: 0, resources: {}, outputs: {} } as unknown as StackState;
const part: DeferredPart = { kind: "declared", type: "t:T", pattern: "x-…", waitsFor: "src.items" };
const create = { kind: "create", urn: "urn:cairn:dev::p::t:T::a" as Urn, type: "t:T", deps: [], news: {}, secretKeys: [], meta: { deps: [], protect: false, retainOnDelete: false } } as PlanStep;

function plan(steps: PlanStep[], deferred?: DeferredPart[]): Plan {
  return newPlan({ project: "p", stack: "dev", baseSerial: 0, fingerprint: "", mode: "update", refresh: [], drift: [] }, { steps, outputs: {}, secretOutputs: [], outputsChanged: false, diagnostics: [], ...(deferred ? { deferred } : {}) });
}

/** Steps whose planner hands out `plans` in turn, and that record what they applied. */
function steps(plans: Plan[]): RoundSteps & { applied: Plan[]; notes: string[] } {
  const applied: Plan[] = [];
  const notes: string[] = [];
  return {
    applied, notes,
    plan: async () => plans.shift() ?? plan([]),
    apply: async (p) => (applied.push(p), { result: { plan: p, summary: { ok: true, succeeded: p.steps.length, failed: 0, skipped: 0, done: {}, durationMs: 1 } }, state }),
    note: (m) => void notes.push(m),
    stopped: () => false,
  };
}

describe("up in rounds", () => {
  it("applies rounds until a plan is complete, adding up their summaries", async () => {
    const s = steps([plan([create], [part]), plan([create])]);
    const r = await runRounds(plan([create], [part]), state, s);
    expect(s.applied.length).toBe(3);
    expect(r.rounds?.length).toBe(3);
    expect(r.summary?.succeeded).toBe(3);
    expect(s.notes).toEqual([expect.stringContaining("Round 2"), expect.stringContaining("Round 3")]);
  });

  it("stops after one round when the plan is complete", async () => {
    const s = steps([]);
    const r = await runRounds(plan([create]), state, s);
    expect(s.applied.length).toBe(1);
    expect(r.rounds).toBeUndefined();
  });

  it("ends when a later round has nothing to do", async () => {
    const s = steps([plan([])]);
    const r = await runRounds(plan([create], [part]), state, s);
    expect(s.applied.length).toBe(1);
    expect(r.summary?.ok).toBe(true);
  });

  it("refuses a value still unknown after its round applied, naming it", async () => {
    const s = steps([plan([], [part])]);
    await expect(runRounds(plan([create], [part]), state, s)).rejects.toThrow(/Values are still unknown after the resources they come from were applied.*t:T "x-…" \(waits for src\.items\)/);
    expect(s.applied.length).toBe(1);
  });

  it("does not go on after a failed round", async () => {
    const s = steps([plan([create])]);
    s.apply = async (p) => ({ result: { plan: p, summary: { ok: false, succeeded: 0, failed: 1, skipped: 0, done: {}, durationMs: 1 } }, state });
    const r = await runRounds(plan([create], [part]), state, s);
    expect(r.summary?.ok).toBe(false);
    expect(r.rounds).toBeUndefined();
  });

  it(`stops after ${MAX_ROUNDS} rounds that each defer again`, async () => {
    const s = steps(Array.from({ length: MAX_ROUNDS + 5 }, () => plan([create], [part])));
    await expect(runRounds(plan([create], [part]), state, s)).rejects.toThrow(new RegExp(`up stopped after ${MAX_ROUNDS} rounds`));
    expect(s.applied.length).toBe(MAX_ROUNDS);
  });
});

describe("asking before a round", () => {
  const prior = { deps: [] };
  const del = { kind: "delete", urn: "urn:cairn:dev::p::t:T::old" as Urn, type: "t:T", deps: [], id: "i-1", outputs: {}, secretKeys: [], meta: { deps: [], protect: false, retainOnDelete: false }, prior } as unknown as PlanStep;
  const replace = { ...create, kind: "replace", id: "i-2", olds: {}, outputs: {}, changed: [], drift: [], replaceKeys: ["v"], reason: "attributes", deleteFirst: false, prior } as unknown as PlanStep;

  it("asks about the first round whatever it does", () => {
    expect(roundQuestion(plan([create]), 1)).toBe('Apply these changes to stack "dev"?');
  });

  it("applies a later round that only creates without asking again", () => {
    expect(roundQuestion(plan([create]), 2)).toBeUndefined();
  });

  it("asks again about a later round that deletes or replaces, naming the round", () => {
    expect(roundQuestion(plan([create, del]), 2)).toBe('Round 2 deletes or replaces resources. Apply it to stack "dev"?');
    expect(roundQuestion(plan([replace]), 3)).toBe('Round 3 deletes or replaces resources. Apply it to stack "dev"?');
  });
});
