import { describe, expect, it } from "vitest";
import { toTestPlan } from "../../src/testing/results.js";
import { PLAN_FORMAT_VERSION, type Plan, type PlanStep } from "../../src/plan/plan.js";
import type { Urn } from "../../src/core/urn.js";
import type { Predicate } from "../../src/core/predicate.js";

const always: Predicate = { op: "exists", path: ["id"] };

const urn = (name: string, type = "test:Box") => `urn:cairn:dev::app::${type}::${name}` as Urn;
const meta = { deps: [], protect: false, retainOnDelete: false };
const prior = { deps: [] };

function plan(steps: PlanStep[]): Plan {
  return {
    version: PLAN_FORMAT_VERSION, project: "app", stack: "dev", baseSerial: 0, fingerprint: "f", mode: "update",
    refresh: [], drift: [], steps, outputs: {}, secretOutputs: [], outputsChanged: false, diagnostics: [],
  };
}

const wait = (name: string, needed: boolean): PlanStep => ({
  kind: "wait", urn: urn(name, "cairn:wait"), type: "cairn:wait", deps: [urn("a")], name, named: true, target: urn("a"), subject: "a",
  until: always, untilText: "a.id exists", timeoutMs: 1000, intervalMs: 100, defaultTimeout: true, needed, why: needed ? "runs because a is created" : "not needed", readyNow: null,
});

describe("toTestPlan: a plan as test data", () => {
  const steps: PlanStep[] = [
    { kind: "create", urn: urn("a"), type: "test:Box", deps: [], news: { size: 1 }, secretKeys: [], meta },
    { kind: "same", urn: urn("kept"), type: "test:Box", deps: [], meta },
    { kind: "same", urn: urn("moved"), type: "test:Box", deps: [], meta, movedFrom: urn("old") },
    { kind: "same", urn: urn("adopted"), type: "test:Box", deps: [], meta, adopt: { id: "box-1", inputs: {}, outputs: {}, secretKeys: [] } },
    { kind: "read", urn: urn("now"), type: "test:Box", deps: [], id: "x", deferred: false },
    { kind: "read", urn: urn("later"), type: "test:Box", deps: [], id: "y", deferred: true },
    {
      kind: "replace", urn: urn("r"), type: "test:Box", deps: [], id: "r-1", olds: { size: 1 }, news: { size: 2 }, outputs: {}, changed: ["size"], drift: [],
      replaceKeys: ["size"], reason: "attributes", deleteFirst: false, secretKeys: [], meta, prior,
    },
    wait("ready", true),
    wait("idle", false),
  ];

  it("lists every step that changes something (an adopting import records an object) or runs, and nothing else", () => {
    expect(toTestPlan(plan(steps)).changes).toEqual(["create a", "same moved", "same adopted", "read later", "replace r", "wait ready"]);
  });

  it("flattens each step to the fields its kind has, named for tests", () => {
    const p = toTestPlan(plan(steps));
    expect(p.step("a")).toEqual({ name: "a", op: "create", type: "test:Box", urn: urn("a"), inputs: { size: 1 }, raw: steps[0] });
    expect(p.step("r")).toEqual({
      name: "r", op: "replace", type: "test:Box", urn: urn("r"), inputs: { size: 2 }, before: { size: 1 }, changed: ["size"], replaceKeys: ["size"],
      reason: "attributes", deleteFirst: false, raw: steps[6],
    });
    expect(p.step("later")).toEqual({ name: "later", op: "read", type: "test:Box", urn: urn("later"), deferred: true, raw: steps[5] });
    expect(p.step("ready")).toEqual({
      name: "ready", op: "wait", type: "cairn:wait", urn: urn("ready", "cairn:wait"), needed: true, why: "runs because a is created", until: "a.id exists", timeoutMs: 1000, raw: steps[7],
    });
    expect(p.step("kept")).toEqual({ name: "kept", op: "same", type: "test:Box", urn: urn("kept"), raw: steps[1] });
  });
});
