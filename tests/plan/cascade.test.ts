import { describe, expect, it } from "vitest";
import { cascadeDeleteFirst, deleteFirstChain } from "../../src/plan/cascade.js";
import type { PlanStep } from "../../src/plan/plan.js";
import type { GraphNode } from "../../src/program/node.js";
import { emptyState, type ResourceState, type StackState } from "../../src/state/types.js";
import type { Urn } from "../../src/core/urn.js";

const u = (n: string) => `urn:cairn:dev::p::t:m:T::${n}` as Urn;
const meta = (deps: string[]) => ({ deps: deps.map(u), protect: false, retainOnDelete: false });
const object = { id: "1", olds: {}, outputs: {}, secretKeys: [] as string[] };
const replace = (n: string, deleteFirst: boolean, deps: string[] = []): PlanStep => ({
  kind: "replace", urn: u(n), type: "t:m:T", deps: deps.map(u), ...object, news: {}, changed: [], drift: [], replaceKeys: [], reason: "attributes", deleteFirst, meta: meta(deps), prior: { deps: deps.map(u) },
});
const update = (n: string, deps: string[]): PlanStep => ({ kind: "update", urn: u(n), type: "t:m:T", deps: deps.map(u), ...object, news: {}, changed: [], drift: [], meta: meta(deps), prior: { deps: deps.map(u) } });
const same = (n: string, deps: string[]): PlanStep => ({ kind: "same", urn: u(n), type: "t:m:T", deps: deps.map(u), ...object, meta: meta(deps) }) as unknown as PlanStep;

/** A graph node for a step (the cascade reads only its name; steps are keyed by node). */
const node = (n: string) => ({ kind: "custom", name: n, urn: u(n) }) as unknown as GraphNode;
function stateOf(records: [string, string[]][]): StackState {
  const s = emptyState("p", "dev");
  for (const [n, deps] of records) s.resources[u(n)] = { urn: u(n), type: "t:m:T", id: n, inputs: {}, outputs: {}, deps: deps.map(u) } as unknown as ResourceState;
  return s;
}

describe("cascade: who must be replaced delete-first with a resource that is", () => {
  it("names the chain from a resource to the one whose delete-first replace started it", () => {
    const forced = new Map([[u("c"), u("b")], [u("b"), u("a")]]);
    expect(deleteFirstChain(u("c"), forced)).toBe('"c" → "b" → "a"');
    expect(deleteFirstChain(u("a"), forced)).toBe('"a"');
  });

  it("adds a user that keeps referencing it (same, update, or create-first replace), and leaves one that lets go", () => {
    const nodes = { a: node("a"), b: node("b"), c: node("c"), d: node("d"), e: node("e") };
    const steps = new Map<GraphNode, PlanStep>([
      [nodes.a, replace("a", true)],
      [nodes.b, same("b", ["a"])], // keeps its reference
      [nodes.c, update("c", ["a"])], // still references it after its update
      [nodes.d, replace("d", false, ["a"])], // create-first: the old object holds on
      [nodes.e, update("e", [])], // no longer depends on a: lets go when updated, before the delete
    ]);
    const state = stateOf([["a", []], ["b", ["a"]], ["c", ["a"]], ["d", ["a"]], ["e", ["a"]]]);
    const { add, errors } = cascadeDeleteFirst(steps, state, new Map(), undefined);
    expect(errors).toEqual([]);
    expect([...add.entries()].sort()).toEqual([[u("b"), u("a")], [u("c"), u("a")], [u("d"), u("a")]]);
  });

  it("refuses a user outside --target, naming it and what to add", () => {
    const a = node("a");
    const b = node("b");
    const steps = new Map<GraphNode, PlanStep>([[a, replace("a", true)], [b, same("b", ["a"])]]);
    const { add, errors } = cascadeDeleteFirst(steps, stateOf([["a", []], ["b", ["a"]]]), new Map(), new Set([a]));
    expect(add.size).toBe(0);
    expect(errors).toEqual([{ severity: "error", urn: u("b"), summary: expect.stringContaining(`outside --target. Add --target ${u("b")}`) }]);
  });

  it("adds nothing when no replace is delete-first, or the user is already forced", () => {
    const a = node("a");
    const b = node("b");
    const state = stateOf([["a", []], ["b", ["a"]]]);
    expect(cascadeDeleteFirst(new Map<GraphNode, PlanStep>([[a, replace("a", false)], [b, same("b", ["a"])]]), state, new Map(), undefined).add.size).toBe(0);
    const forced = new Map([[u("b"), u("a")]]);
    expect(cascadeDeleteFirst(new Map<GraphNode, PlanStep>([[a, replace("a", true)], [b, same("b", ["a"])]]), state, forced, undefined).add.size).toBe(0);
  });
});
