import { describe, expect, it } from "vitest";
import type { Urn } from "../../src/core/urn.js";
import { StateProjection } from "../../src/state/state-projection.js";
import { emptyState, type ResourceState, type StackState } from "../../src/state/types.js";

const urn = (name: string) => `urn:cairn:dev::web::local:File::${name}` as Urn;
const file = (name: string): ResourceState => ({ urn: urn(name), type: "local:File", id: `${name}.txt`, inputs: {}, outputs: {}, deps: [] });

function loaded(...names: string[]): StackState {
  const s = emptyState("web", "dev");
  for (const n of names) s.resources[urn(n)] = file(n);
  return s;
}

describe("a journal's state projection", () => {
  it("applies mutations without changing the state it was opened with", () => {
    const state = loaded("a");
    const p = new StateProjection(state);
    p.apply([{ kind: "upsert", resource: file("b") }, { kind: "remove", urn: urn("a") }]);
    expect(Object.keys(p.state.resources)).toEqual([urn("b")]);
    expect(p.state.serial).toBe(1);
    expect(Object.keys(state.resources)).toEqual([urn("a")]);
    expect(state.serial).toBe(0);
  });

  it("shares its map of resources with a snapshot until the next change copies it", () => {
    const p = new StateProjection(loaded("a"));
    p.apply([{ kind: "upsert", resource: file("b") }]);
    p.advance(undefined, 5);
    const snapshotMap = p.state.resources;
    expect(p.state.serial).toBe(5);
    p.apply([{ kind: "remove", urn: urn("a") }]);
    expect(Object.keys(snapshotMap).sort()).toEqual([urn("a"), urn("b")]);
    expect(Object.keys(p.state.resources)).toEqual([urn("b")]);
  });

  it("takes the state a compaction was given, and goes back to the one before when that snapshot is not written", () => {
    const p = new StateProjection(loaded("a"));
    const before = p.state;
    const undo = p.advance(loaded("c"), 9);
    expect(Object.keys(p.state.resources)).toEqual([urn("c")]);
    expect(p.state.serial).toBe(9);
    undo();
    expect(p.state).toBe(before);
    expect(p.state.serial).toBe(0);
  });
});
