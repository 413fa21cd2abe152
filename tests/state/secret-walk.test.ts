import { describe, expect, it } from "vitest";
import { secretValuesOf, visitResourceSecrets, visitSecretProps, visitSecrets } from "../../src/state/secret-walk.js";
import type { ResourceState } from "../../src/state/types.js";

const collect = (walk: (visit: (v: unknown) => void) => boolean) => {
  const found: unknown[] = [];
  const stopped = walk((v) => void found.push(v));
  return { found, stopped };
};

describe("the secret walk", () => {
  it("finds the values of the keys named secret that a bag has, and nothing else", () => {
    const { found, stopped } = collect((visit) => visitSecretProps({ pw: "hunter2", user: "admin", token: { a: 1 } }, ["pw", "token", "absent"], visit));
    expect(found).toEqual(["hunter2", { a: 1 }]);
    expect(stopped).toBe(false);
  });

  it("never takes a name inherited from Object.prototype for an attribute", () => {
    expect(collect((visit) => visitSecretProps({ pw: "x" }, ["constructor", "toString", "pw"], visit)).found).toEqual(["x"]);
  });

  it("walks a plan step's news, olds and outputs, in that order", () => {
    const step = { secretKeys: ["pw"], news: { pw: "new" }, olds: { pw: "old" }, outputs: { pw: "out", id: "i-1" } };
    expect(collect((visit) => visitSecrets(step, visit)).found).toEqual(["new", "old", "out"]);
  });

  it("lists a record's secret values (what a message is masked for)", () => {
    expect(secretValuesOf({ secretKeys: ["pw", "key"], inputs: { pw: "a", key: "b" }, outputs: { pw: "c", other: "d" } })).toEqual(["a", "b", "c"]);
    expect(secretValuesOf({ outputs: { pw: "c" } })).toEqual([]);
  });

  it("finds nothing in a record whose secret keys are absent or empty", () => {
    expect(collect((visit) => visitSecrets({ inputs: { pw: "x" } }, visit)).found).toEqual([]);
    expect(collect((visit) => visitSecrets({ secretKeys: [], inputs: { pw: "x" } }, visit)).found).toEqual([]);
  });

  it("walks a resource's inputs and outputs, then each deposed object by its own keys", () => {
    const r: ResourceState = {
      urn: "urn:cairn:dev::db",
      type: "test:Db",
      id: "db-2",
      inputs: { pw: "in", user: "u" },
      outputs: { pw: "out" },
      secretKeys: ["pw"],
      deps: [],
      deposed: [
        { id: "db-1", inputs: { key: "old-key", pw: "not-secret-here" }, outputs: {}, deps: [], secretKeys: ["key"] },
        { id: "db-0", inputs: { pw: "no keys" }, outputs: {}, deps: [] },
      ],
    } as unknown as ResourceState;
    expect(collect((visit) => visitResourceSecrets(r, visit)).found).toEqual(["in", "out", "old-key"]);
  });

  it("stops at the first value the visitor answers true to, and says so", () => {
    const seen: unknown[] = [];
    const stopped = visitSecrets({ secretKeys: ["a", "b"], inputs: { a: 1, b: 2 }, outputs: { a: 3 } }, (v) => {
      seen.push(v);
      return v === 2;
    });
    expect(stopped).toBe(true);
    expect(seen).toEqual([1, 2]);
  });
});
