import { describe, expect, it } from "vitest";
import { decide, withIgnoredChanges, type DecisionInput } from "../../src/plan/decide.js";
import { UNKNOWN } from "../../src/core/unknown.js";

const base = (over: Partial<DecisionInput> = {}): DecisionInput => ({
  news: { name: "a", size: 1 },
  forceNew: ["name"],
  replaceOnChanges: [],
  deleteBeforeReplace: false,
  canUpdate: true,
  replaceRequested: false,
  ...over,
});
const prior = { inputs: { name: "a", size: 1 } };

describe("the planning decision table", () => {
  it("no prior object: create", () => expect(decide(base())).toEqual({ kind: "create" }));
  it("equal inputs: same", () => expect(decide(base({ prior }))).toEqual({ kind: "same" }));
  it("changed attribute: update naming it", () => expect(decide(base({ prior, news: { name: "a", size: 2 } }))).toEqual({ kind: "update", changed: ["size"] }));
  it("changed force-new attribute: replace, create first", () =>
    expect(decide(base({ prior, news: { name: "b", size: 1 } }))).toEqual({ kind: "replace", changed: ["name"], replaceKeys: ["name"], reason: "attributes", deleteFirst: false }));
  it("deleteBeforeReplace: replace, delete first", () =>
    expect(decide(base({ prior, news: { name: "b", size: 1 }, deleteBeforeReplace: true }))).toMatchObject({ kind: "replace", deleteFirst: true }));
  it("tainted object: replace even when unchanged", () => expect(decide(base({ prior: { ...prior, tainted: true } }))).toMatchObject({ kind: "replace", reason: "tainted" }));
  it("--replace: replace even when unchanged", () => expect(decide(base({ prior, replaceRequested: true }))).toMatchObject({ kind: "replace", reason: "requested" }));
  it("replaceOnChanges turns an update into a replace", () =>
    expect(decide(base({ prior, news: { name: "a", size: 2 }, replaceOnChanges: ["size"] }))).toMatchObject({ kind: "replace", replaceKeys: ["size"], reason: "replaceOnChanges" }));
  it('replaceOnChanges "*" matches any attribute', () =>
    expect(decide(base({ prior, news: { name: "a", size: 2 }, replaceOnChanges: ["*"] }))).toMatchObject({ kind: "replace" }));
  it("a provider without update replaces", () => expect(decide(base({ prior, news: { name: "a", size: 2 }, canUpdate: false }))).toMatchObject({ kind: "replace" }));
  it("an unknown value counts as a change; unknown in a force-new attribute replaces", () => {
    expect(decide(base({ prior, news: { name: "a", size: UNKNOWN } }))).toEqual({ kind: "update", changed: ["size"] });
    expect(decide(base({ prior, news: { name: UNKNOWN, size: 1 } }))).toMatchObject({ kind: "replace", replaceKeys: ["name"] });
  });
  it("the provider's diff wins: normalisation is a no-op", () =>
    expect(decide(base({ prior, news: { name: "A.", size: 1 }, providerDiff: { kind: "same" } }))).toEqual({ kind: "same" }));
  it("the provider can demand replacement and delete-first", () =>
    expect(decide(base({ prior, news: { name: "a", size: 9 }, providerDiff: { kind: "replace", changed: ["size"], replaceKeys: ["size"], deleteBeforeReplace: true } }))).toMatchObject({
      kind: "replace",
      replaceKeys: ["size"],
      deleteFirst: true,
    }));
  it("ignoreChanges keeps prior values", () => {
    expect(withIgnoredChanges({ name: "b", size: 5 }, { name: "a", size: 1 }, ["size"])).toEqual({ name: "b", size: 1 });
    expect(withIgnoredChanges({ name: "b", extra: 1 }, { name: "a" }, ["extra"])).toEqual({ name: "b" });
    expect(withIgnoredChanges({ name: "b" }, undefined, ["name"])).toEqual({ name: "b" });
  });
});
