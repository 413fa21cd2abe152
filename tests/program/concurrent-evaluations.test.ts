import { describe, expect, it } from "vitest";
import { evaluateProgram, type Evaluation, type ProgramSpec } from "../../src/program/evaluate.js";
import { output, type Output } from "../../src/program/output.js";
import { memoryType, resolveWith } from "../helpers.js";

const { Type: Box } = memoryType<{ v: unknown }>("test:concurrent:Box");
const turn = () => new Promise((r) => setImmediate(r));
const spec = (name: string, fn: ProgramSpec["fn"]): ProgramSpec => ({ name, fn, location: { dir: ".", command: "npx tsx infra.ts" } });
const urns = (ev: Evaluation) => ev.nodes.map((n) => n.urn.split("::").pop());

describe("two evaluations at the same time", () => {
  it("interleave without sharing what they record, and a resource an apply callback of one declares is its own", async () => {
    // GIVEN two programs that take turns: alpha settles nested apply callbacks (one declares a resource)
    // while beta declares its resources between alpha's turns
    const refused: string[] = [];
    const alpha = spec("alpha", async () => {
      new Box("a1", { v: 1 });
      await turn();
      const nested: Output<number> = output(1).apply((x) =>
        output(x + 1).apply((y) => {
          try {
            new Box("a-inside", { v: y });
          } catch (e) {
            refused.push((e as Error).message);
          }
          return y;
        }),
      );
      expect((await resolveWith(nested)).known).toBe(true);
      await turn();
      new Box("a2", { v: 2 });
    });
    const beta = spec("beta", async () => {
      for (const name of ["b1", "b2", "b3"]) {
        new Box(name, { v: name });
        await turn();
      }
    });

    // WHEN both evaluate at once
    const [a, b] = await Promise.all([evaluateProgram(alpha, { stack: "dev" }), evaluateProgram(beta, { stack: "dev" })]);

    // THEN each recorded its own resources: alpha's callback declared into alpha, marked as declared there
    expect(urns(a)).toEqual(["a1", "a-inside", "a2"]);
    expect(urns(b)).toEqual(["b1", "b2", "b3"]);
    expect(refused).toEqual([]);
    expect(a.nodes[1]!.declaredIn).toEqual({ on: [], waitsFor: "a value" });
  });

  it("a program evaluated from inside another's apply callback declares its resources", async () => {
    // GIVEN an apply callback (settled while planning, outside any evaluation) that evaluates another program
    const inner = spec("inner", () => void new Box("i1", { v: 1 }));
    let started: Promise<Evaluation> | undefined;
    const derived = output(1).apply((x) => ((started = evaluateProgram(inner, { stack: "dev" })), x));

    // WHEN the callback runs
    await resolveWith(derived);

    // THEN the inner program is not taken for the callback: its resource is declared
    expect(urns(await started!)).toEqual(["i1"]);
  });

  it("a resource declared in a callback of an output made outside any evaluation is refused, saying where to declare it", async () => {
    const derived = output(1).apply(() => new Box("late", { v: 1 }).id);
    await expect(resolveWith(derived)).rejects.toThrow(/was created inside an apply\(\) callback of an output made outside any program/);
  });
});
