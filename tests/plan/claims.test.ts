import { describe, expect, it } from "vitest";
import { claimResources } from "../../src/plan/claims.js";
import { defineResource } from "../../src/program/define.js";
import { evaluateProgram, type ProgramFn } from "../../src/program/evaluate.js";
import { buildGraph } from "../../src/graph/graph.js";
import type { Provider } from "../../src/provider/provider.js";
import type { Urn } from "../../src/core/urn.js";
import { emptyState, type ResourceState, type StackState } from "../../src/state/types.js";

const provider: Provider<{ n: string }, { n: string }> = {
  async create({ inputs }) {
    return { id: inputs.n, outputs: inputs };
  },
  async read({ outputs }) {
    return outputs;
  },
  async delete() {},
};
const Thing = defineResource<{ n: string }, { n: string }>("claims:test:Thing", { provider });
const urn = (name: string) => `urn:cairn:dev::p::claims:test:Thing::${name}` as Urn;
const record = (name: string): ResourceState => ({ urn: urn(name), type: "claims:test:Thing", id: name, inputs: { n: name }, outputs: { n: name }, deps: [] });
const stateOf = (...names: string[]): StackState => ({ ...emptyState("p", "dev"), resources: Object.fromEntries(names.map((n) => [urn(n), record(n)])) });

/** The claims a program makes on a state, with its nodes by name. */
async function claimsOf(fn: ProgramFn, state: StackState) {
  const ev = await evaluateProgram({ name: "p", fn, location: { dir: ".", command: "npx tsx infra.ts" } }, { stack: "dev", config: {} });
  const graph = buildGraph(ev.nodes);
  const claims = claimResources(graph, state);
  const claimOf = (name: string) => {
    const n = graph.order.find((x) => x.name === name)!;
    return n.kind === "custom" ? claims.get(n) : undefined;
  };
  return { claims, claimOf };
}

describe("claimResources", () => {
  it("a resource takes its own URN's record; records no resource claims are not claimed", async () => {
    const state = stateOf("a", "gone");
    const { claims, claimOf } = await claimsOf(() => void [new Thing("a", { n: "a" }), new Thing("new", { n: "new" })], state);
    expect(claimOf("a")).toEqual({ prior: state.resources[urn("a")] });
    expect(claimOf("new")).toBeUndefined();
    expect([claims.hasUrn(urn("a")), claims.hasUrn(urn("gone")), claims.hasUrn(urn("new"))]).toEqual([true, false, false]);
  });

  it("a renamed resource takes its alias's record once, never another resource's own, and claims the old URN", async () => {
    const state = stateOf("old", "b");
    const { claims, claimOf } = await claimsOf(
      () =>
        void [
          new Thing("renamed", { n: "x" }, { aliases: [urn("old")] }),
          new Thing("second", { n: "y" }, { aliases: [urn("old"), urn("b")] }), // "old" is taken, "b" is a resource of the program
          new Thing("b", { n: "b" }),
        ],
      state,
    );
    expect(claimOf("renamed")).toEqual({ prior: state.resources[urn("old")], movedFrom: urn("old") });
    expect(claimOf("second")).toBeUndefined();
    expect(claimOf("b")).toEqual({ prior: state.resources[urn("b")] });
    expect([claims.hasUrn(urn("old")), claims.hasUrn(urn("renamed"))]).toEqual([true, false]);
  });

  it("still looks when the program's first resource is new (no record under its URN): the next one's alias is claimed", async () => {
    const { claims } = await claimsOf(() => void [new Thing("x", { n: "x" }), new Thing("y", { n: "y" }, { aliases: [urn("z")] })], stateOf("z", "w"));
    expect([claims.hasUrn(urn("z")), claims.hasUrn(urn("w"))]).toEqual([true, false]);
  });
});
