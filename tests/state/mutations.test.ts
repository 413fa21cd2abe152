import { describe, expect, it } from "vitest";
import { applyMutations, copyOfResources } from "../../src/state/mutations.js";
import { emptyState } from "../../src/state/types.js";
import { resource } from "./helpers.js";

describe("state mutations", () => {
  it("apply in order, bumping the serial once per call that changes something", () => {
    const s = emptyState("proj", "dev");
    applyMutations(s, [{ kind: "upsert", resource: resource("a") }, { kind: "upsert", resource: resource("b") }, { kind: "remove", urn: resource("a").urn }]);
    applyMutations(s, []);
    expect(Object.keys(s.resources)).toEqual([resource("b").urn]);
    expect(s.serial).toBe(emptyState("proj", "dev").serial + 1);
  });

  it("copyOfResources: the same records in the same order, in a map of its own", () => {
    const records = Object.fromEntries(["c", "a", "b"].map((n) => [resource(n).urn, resource(n)]));
    const copy = copyOfResources(records);
    expect(Object.keys(copy)).toEqual(Object.keys(records));
    for (const urn of Object.keys(records)) expect(copy[urn]).toBe(records[urn]);
    delete copy[resource("a").urn];
    expect(Object.keys(records)).toHaveLength(3);
  });
});
