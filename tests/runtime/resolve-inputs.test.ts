import { describe, expect, it } from "vitest";
import { resolveInputsNow } from "../../src/runtime/resolve-inputs.js";
import { ValueResolver } from "../../src/runtime/values.js";
import { output, secret } from "../../src/program/output.js";

describe("resolving a resource's inputs", () => {
  it("plain data resolves at once to itself, keys in order, undefined values dropped", () => {
    const nested = { b: [1, { c: "x" }] };
    const r = resolveInputsNow({ z: "last?", a: nested, gone: undefined, n: 0 }, new ValueResolver());
    expect(r).not.toBeInstanceOf(Promise);
    const { values, secretKeys, deps } = r as Exclude<typeof r, Promise<unknown>>;
    expect(Object.keys(values)).toEqual(["z", "a", "n"]);
    expect(values.a).toBe(nested);
    expect(secretKeys).toEqual([]);
    expect(deps).toEqual([]);
  });

  it("outputs known now resolve at once, beside plain data, with their secrecy", () => {
    const r = resolveInputsNow({ plain: "p", known: output("k"), hidden: secret("s") }, new ValueResolver());
    expect(r).not.toBeInstanceOf(Promise);
    expect(r).toEqual({ values: { plain: "p", known: "k", hidden: "s" }, secretKeys: ["hidden"], deps: [] });
  });

  it("a promise among the inputs makes the result come later, with the plain data as it was when resolving began", async () => {
    const inputs: Record<string, unknown> = { first: "a", later: Promise.resolve(2), hidden: secret("s"), last: "z" };
    const r = resolveInputsNow(inputs, new ValueResolver());
    expect(r).toBeInstanceOf(Promise);
    inputs.first = "changed after";
    const { values, secretKeys } = await r;
    expect(values).toEqual({ first: "a", later: 2, hidden: "s", last: "z" });
    expect(Object.keys(values)).toEqual(["first", "later", "hidden", "last"]);
    expect(secretKeys).toEqual(["hidden"]);
  });
});
