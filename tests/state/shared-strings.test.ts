import { describe, expect, it } from "vitest";
import { shareStrings } from "../../src/state/shared-strings.js";
import type { StackState } from "../../src/state/types.js";

// Strings made at run time, as JSON.parse makes them: equal, but not the same string.
const fresh = (s: string) => [...s].join("");

describe("shareStrings", () => {
  it("leaves a parsed state equal to what was written, its dependencies' lists shared when empty", () => {
    const text = JSON.stringify({
      version: 1, project: "p", stack: "s", serial: 3, outputs: {},
      resources: {
        "urn:cairn:s::p::t:A::a": { urn: "urn:cairn:s::p::t:A::a", type: "t:A", id: "1", inputs: { name: "x", n: 1 }, outputs: { name: "x", arn: "arn:1" }, deps: [] },
        "urn:cairn:s::p::t:B::b": { urn: "urn:cairn:s::p::t:B::b", type: "t:B", id: "2", inputs: { v: "arn:1" }, outputs: { v: "arn:2" }, deps: ["urn:cairn:s::p::t:A::a", "urn:cairn:s::p::t:A::gone"] },
        "urn:cairn:s::p::t:A::c": { urn: "urn:cairn:s::p::t:A::c", type: fresh("t:A"), id: "3", inputs: {}, outputs: {}, deps: [] },
      },
    });
    const state = JSON.parse(text) as StackState;
    shareStrings(state);
    expect(JSON.stringify(state)).toBe(text);
    const [a, b, c] = Object.values(state.resources);
    expect(Object.isFrozen(a!.deps) && a!.deps === c!.deps).toBe(true);
    expect(b!.deps).toEqual(["urn:cairn:s::p::t:A::a", "urn:cairn:s::p::t:A::gone"]); // one it cannot name is kept as it is
    expect(() => (a!.deps as string[]).push("x")).toThrow(); // shared: nothing may add to it
  });
});
