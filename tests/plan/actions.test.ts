import { describe, expect, it } from "vitest";
import { ACTION_KINDS, buildActionGraph, findCycle } from "../../src/plan/actions.js";
import { STEP_KINDS, type PlanStep } from "../../src/plan/plan.js";
import type { Urn } from "../../src/core/urn.js";

const u = (n: string) => `urn:cairn:dev::p::t:m:T::${n}` as Urn;
const meta = (deps: string[] = []) => ({ deps: deps.map(u), protect: false, retainOnDelete: false });
const object = { id: "1", olds: {}, outputs: {}, secretKeys: [] as string[] };

const create = (n: string, deps: string[] = []): PlanStep => ({ kind: "create", urn: u(n), type: "t:m:T", deps: deps.map(u), news: {}, secretKeys: [], meta: meta(deps) });
const update = (n: string, deps: string[], priorDeps: string[]): PlanStep => ({ kind: "update", urn: u(n), type: "t:m:T", deps: deps.map(u), ...object, news: {}, changed: [], drift: [], meta: meta(deps), prior: { deps: priorDeps.map(u) } });
const replace = (n: string, deleteFirst: boolean, deps: string[] = [], priorDeps: string[] = deps): PlanStep => ({
  kind: "replace", urn: u(n), type: "t:m:T", deps: deps.map(u), ...object, news: {}, changed: [], drift: [], replaceKeys: [], reason: "attributes", deleteFirst, meta: meta(deps), prior: { deps: priorDeps.map(u) },
});
const del = (n: string, priorDeps: string[] = [], deposed = false): PlanStep => ({ kind: "delete", urn: u(n), type: "t:m:T", deps: [], ...object, id: deposed ? "old" : "1", retain: false, deposed, prior: { deps: priorDeps.map(u) } });

/** `x#kind` → the `y#kind`s it waits for, short names. */
function edges(steps: PlanStep[]): Record<string, string[]> {
  const short = (id: string) => id.slice(id.lastIndexOf("::") + 2);
  const { actions, deps } = buildActionGraph({ steps });
  return Object.fromEntries(actions.map((a, i) => [short(a.id), deps[i]!.map((d) => short(actions[d]!.id)).sort()]));
}

describe("the action graph: ordering as edges", () => {
  it("every step kind becomes the actions it needs, and every action kind comes from some step", () => {
    // Only the fields actionsOf looks at, for the kinds no helper above builds.
    const read = (n: string, deferred: boolean) => ({ kind: "read", urn: u(n), type: "t:m:T", deps: [], deferred }) as unknown as PlanStep;
    const waitStep = (n: string, needed: boolean) => ({ kind: "wait", urn: u(n), type: "cairn:wait", deps: [], needed }) as unknown as PlanStep;
    const same = (n: string) => ({ kind: "same", urn: u(n), type: "t:m:T", deps: [] }) as unknown as PlanStep;
    const retained = { ...(del("kept") as Extract<PlanStep, { kind: "delete" }>), retain: true } as PlanStep;
    const cases: [PlanStep, string[]][] = [
      [create("c"), ["create"]],
      [update("u", [], []), ["update"]],
      [replace("r", false), ["replace", "delete-replaced"]],
      [del("d"), ["delete"]],
      [retained, ["forget"]],
      [read("deferred", true), ["read"]],
      [read("known", false), []],
      [waitStep("needed", true), ["wait"]],
      [waitStep("unneeded", false), []],
      [same("s"), []],
    ];
    for (const [step, kinds] of cases) expect(buildActionGraph({ steps: [step] }).actions.map((a) => a.kind), `${step.kind} ${step.urn}`).toEqual(kinds);
    expect(new Set(cases.map(([s]) => s.kind))).toEqual(new Set(STEP_KINDS));
    expect(new Set(cases.flatMap(([, k]) => k))).toEqual(new Set(ACTION_KINDS));
  });

  it("creates follow what they depend on", () => {
    expect(edges([create("a"), create("b", ["a"])])).toEqual({ "a#create": [], "b#create": ["a#create"] });
  });

  it("create-first replace: the old half waits for the new half and for every user to let go", () => {
    expect(edges([replace("a", false), replace("b", false, ["a"]), update("c", ["a"], ["a"])])).toEqual({
      "a#replace": [],
      "a#delete-replaced": ["a#replace", "b#delete-replaced", "c#update"],
      "b#replace": ["a#replace"],
      "b#delete-replaced": ["b#replace"],
      "c#update": ["a#replace"],
    });
  });

  it("delete-first replace: the new half waits for the old half, which waits for users' old halves", () => {
    expect(edges([replace("a", true), replace("b", true, ["a"])])).toEqual({
      "a#delete-replaced": ["b#delete-replaced"],
      "a#replace": ["a#delete-replaced"],
      "b#delete-replaced": [],
      "b#replace": ["a#replace", "b#delete-replaced"],
    });
  });

  it("deletes of removed resources wait for their users' deletes; deposed objects keep their dependencies", () => {
    expect(edges([del("x"), del("a", ["x"]), del("b", ["x"], true), del("b"), update("c", [], ["x"])])).toEqual({
      "x#delete": ["a#delete", "b#deposed:old", "c#update"],
      "a#delete": [],
      "b#deposed:old": [],
      "b#delete": ["b#deposed:old"],
      "c#update": [],
    });
  });

  it("a create-first replace whose user is replaced create-first yet still needs it cannot be ordered: the planner must have prevented it", () => {
    expect(() => buildActionGraph({ steps: [replace("a", true), replace("b", false, ["a"])] })).toThrow(/The apply order has a cycle: .*a#delete-replaced/);
  });

  it("findCycle names a cycle in order, and finds none in a graph without one", () => {
    // a → b → c → a, d waits for a (behind the cycle, not on it), e for nothing
    expect(findCycle([[1], [2], [0], [0], []])).toEqual([0, 1, 2, 0]);
    expect(findCycle([[], [0], [0, 1], []])).toBeUndefined();
  });

  it("an edge is listed once, however many reasons add it", () => {
    // b depends on a twice over: its inputs and its recorded dependencies both name a
    const steps = [create("a"), { ...(create("b", ["a"]) as Extract<PlanStep, { kind: "create" }>), deps: [u("a"), u("a")] } as PlanStep];
    expect(buildActionGraph({ steps }).deps).toEqual([[], [0]]);
  });
});
