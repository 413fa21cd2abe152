import { describe, expect, it, vi } from "vitest";
import { Output, isOutput, output } from "../../src/program/output.js";

/** A second copy of the output module, as a second copy of Cairn in node_modules would bring (its own class). */
async function secondCopy(): Promise<typeof import("../../src/program/output.js")> {
  vi.resetModules(); // the next import loads the module (and what it imports) afresh
  return import("../../src/program/output.js");
}

describe("recognising outputs", () => {
  it("recognises an output made by another copy of Cairn in the same process, which instanceof does not", async () => {
    const other = await secondCopy();
    expect(other.Output).not.toBe(Output); // really a second class
    const foreign = other.output(1);
    expect(foreign instanceof Output).toBe(false);
    expect(isOutput(foreign)).toBe(true);
    expect(other.isOutput(output("x"))).toBe(true);
  });

  it("does not take plain values, promises, or objects with an output inside for outputs", () => {
    for (const v of [undefined, null, 1, "s", {}, [], Promise.resolve(1), { a: output(1) }, [output(1)]]) expect(isOutput(v)).toBe(false);
    expect(isOutput(output(1).apply((n) => n + 1))).toBe(true);
  });
});
