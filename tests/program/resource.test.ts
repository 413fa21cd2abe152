import { describe, expect, it } from "vitest";
import { EvalContext, runInContext } from "../../src/program/context.js";
import { ComponentResource, NODE, urnOf } from "../../src/program/resource.js";
import { output } from "../../src/program/output.js";
import { program } from "../../src/entry/program.js";
import { memoryType } from "../helpers.js";
import { firstValueFrom } from "rxjs";
import { ValueResolver } from "../../src/runtime/values.js";
import type { CustomNode } from "../../src/program/node.js";

const { Type: Box } = memoryType<{ size: number; label?: string }, { size: number; label?: string; volume: number }>("test:res:Box", {
  inputs: { size: {}, label: {} },
  outputs: { size: {}, label: {}, volume: {} },
});

class Shelf extends ComponentResource {
  readonly box: InstanceType<typeof Box>;
  constructor(name: string) {
    super("test:res:Shelf", name);
    this.box = new Box(`${name}-box`, { size: 1 }, { parent: this });
  }
}

describe("resources", () => {
  it("get URNs from stack, project, parent types, type and name", () => {
    const ctx = new EvalContext("proj", "stg", "x");
    const { box, shelf } = runInContext(ctx, () => {
      const box = new Box("b", { size: 1 });
      const shelf = new Shelf("s");
      return { box, shelf };
    });
    expect(urnOf(box)).toBe("urn:cairn:stg::proj::test:res:Box::b");
    expect(urnOf(shelf.box)).toBe("urn:cairn:stg::proj::test:res:Shelf$test:res:Box::s-box");
  });

  it("two resources with one URN are one error naming both", () => {
    const ctx = new EvalContext("proj", "dev", "x");
    expect(() =>
      runInContext(ctx, () => {
        new Box("dup", { size: 1 });
        new Box("dup", { size: 2 });
      }),
    ).toThrow(/Duplicate resource URN urn:cairn:dev::proj::test:res:Box::dup: resource "dup" \(test:res:Box\) and resource "dup" \(test:res:Box\)/);
  });

  it("records dependencies from input outputs and dependsOn", () => {
    const ctx = new EvalContext("proj", "dev", "x");
    runInContext(ctx, () => {
      const a = new Box("a", { size: 1 });
      const b = new Box("b", { size: 2 });
      const c = new Box("c", { size: a.size, label: output({ nested: [b.label] }).apply((x) => JSON.stringify(x)) }, { dependsOn: [] });
      const d = new Box("d", { size: 3 }, { dependsOn: c });
      expect([...c[NODE].deps].map((n) => n.name).sort()).toEqual(["a", "b"]);
      expect([...d[NODE].deps].map((n) => n.name)).toEqual(["c"]);
    });
  });

  it("refuses resources created outside a program, or in a callback first run after the plan was made, saying what to do", async () => {
    expect(() => new Box("loose", { size: 1 })).toThrow(/outside a program/);
    const ctx = new EvalContext("proj", "dev", "x");
    const late = runInContext(ctx, () => output(1).apply(() => new Box("inner", { size: 1 })));
    ctx.sealed = true;
    await expect(firstValueFrom(late.resolve(new ValueResolver()))).rejects.toThrow(/"inner" \(test:res:Box\) was declared inside an apply\(\) callback on a value that first ran after the plan was made.*up applies it in its next round/);
    expect(ctx.nodes).toEqual([]);
  });

  it("registers a resource declared in a callback with the evaluation that made the output, once per value", async () => {
    const ctx = new EvalContext("proj", "dev", "x");
    const made = runInContext(ctx, () => output(["a", "b"]).apply((names) => names.map((n) => new Box(n, { size: 1 })).length));
    await firstValueFrom(made.resolve(new ValueResolver()));
    await firstValueFrom(made.resolve(new ValueResolver())); // a second phase: the same resources, not a second declaration
    expect(ctx.nodes.map((n) => [n.name, n.declaredIn])).toEqual([["a", { on: [], waitsFor: "a value" }], ["b", { on: [], waitsFor: "a value" }]]);
  });

  it("aliases resolve to earlier URNs", () => {
    const ctx = new EvalContext("proj", "dev", "x");
    runInContext(ctx, () => {
      const shelf = new Shelf("s");
      const moved = new Box("renamed", { size: 1 }, { parent: shelf, aliases: [{ name: "old" }, { name: "old", parent: null }, "urn:cairn:dev::proj::x:Y::z"] });
      expect((moved[NODE] as CustomNode).options.aliases).toEqual([
        "urn:cairn:dev::proj::test:res:Shelf$test:res:Box::old",
        "urn:cairn:dev::proj::test:res:Box::old",
        "urn:cairn:dev::proj::x:Y::z",
      ]);
    });
  });

  it("evaluations are scoped per run: two programs evaluate concurrently", async () => {
    const make = (n: number) =>
      program(`p${n}`, async () => {
        for (let i = 0; i < 20; i++) {
          new Box(`b${i}`, { size: i });
          await new Promise((r) => setTimeout(r, 1));
        }
      });
    const [a, b] = await Promise.all([make(1).evaluate({ stack: "dev" }), make(2).evaluate({ stack: "dev" })]);
    expect(a.nodes).toHaveLength(20);
    expect(b.nodes).toHaveLength(20);
    expect(a.nodes.every((n) => n.urn.includes("::p1::"))).toBe(true);
  });
});
