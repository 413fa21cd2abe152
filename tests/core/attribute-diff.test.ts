import { describe, expect, it } from "vitest";
import { diffAttributes, diffValue } from "../../src/core/attribute-diff.js";
import { UNKNOWN } from "../../src/core/unknown.js";

describe("attribute-level diff", () => {
  it("names the changed leaf of a nested object, and what was added or removed", () => {
    expect(diffValue("tags", { env: "dev", owner: "bob", team: "a" }, { env: "prod", team: "a", cost: "x" })).toEqual([
      { attribute: "tags", path: "tags.env", kind: "changed", before: "dev", after: "prod" },
      { attribute: "tags", path: "tags.owner", kind: "removed", before: "bob" },
      { attribute: "tags", path: "tags.cost", kind: "added", after: "x" },
    ]);
  });

  it("compares arrays of equal length element by element", () => {
    expect(diffValue("records", ["1.1.1.1", "2.2.2.2"], ["1.1.1.1", "3.3.3.3"])).toEqual([{ attribute: "records", path: "records[1]", kind: "changed", before: "2.2.2.2", after: "3.3.3.3" }]);
  });

  it("aligns arrays of different lengths, so an insertion is one added element, not a cascade of changes", () => {
    expect(diffValue("records", ["a", "b", "c"], ["a", "x", "b", "c"])).toEqual([{ attribute: "records", path: "records[1]", kind: "added", after: "x" }]);
    expect(diffValue("records", ["a", "b", "c"], ["a", "c"])).toEqual([{ attribute: "records", path: "records[1]", kind: "removed", before: "b" }]);
  });

  it("quotes keys that are not identifiers and recurses through arrays of objects", () => {
    expect(diffValue("alias", [{ "zone-id": "Z1" }], [{ "zone-id": "Z2" }])).toEqual([{ attribute: "alias", path: 'alias[0]["zone-id"]', kind: "changed", before: "Z1", after: "Z2" }]);
  });

  it("an unknown new value is one change, however deep the old one was", () => {
    expect(diffValue("tags", { a: { b: 1 } }, UNKNOWN)).toEqual([{ attribute: "tags", path: "tags", kind: "changed", before: { a: { b: 1 } }, after: UNKNOWN }]);
  });

  it("a secret attribute shows neither its values nor its structure", () => {
    const changes = diffAttributes({ password: { v: "hunter2" } }, { password: { v: "hunter3" } }, ["password"], ["password"]);
    expect(changes).toEqual([{ attribute: "password", path: "password", kind: "changed", before: "[secret]", after: "[secret]" }]);
    expect(JSON.stringify(changes)).not.toMatch(/hunter/);
  });
});
