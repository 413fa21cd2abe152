import { describe, expect, it } from "vitest";
import { buildGraph } from "../../src/graph/graph.js";
import { EvalContext, runInContext } from "../../src/program/context.js";
import { ComponentResource, NODE } from "../../src/program/resource.js";
import type { ResourceNode } from "../../src/program/node.js";
import { memoryType } from "../helpers.js";

const { Type: Node } = memoryType<{ v?: unknown }, { v?: unknown }>("test:graph:Node", { inputs: { v: {} }, outputs: { v: {} } });
const eval_ = (fn: () => void) => {
  const ctx = new EvalContext("g", "dev", "x");
  runInContext(ctx, fn);
  return ctx.nodes;
};

describe("graph", () => {
  it("orders dependencies first", () => {
    const nodes = eval_(() => {
      const a = new Node("a", {});
      const b = new Node("b", { v: a.v });
      new Node("c", { v: b.v }, { dependsOn: [a] });
    });
    const order = buildGraph(nodes).order.map((n) => n.name);
    expect(order.indexOf("a")).toBeLessThan(order.indexOf("b"));
    expect(order.indexOf("b")).toBeLessThan(order.indexOf("c"));
  });

  it("a cycle is an error listing its members", () => {
    const nodes = eval_(() => {
      const a = new Node("a", {});
      const b = new Node("b", { v: a.v });
      const c = new Node("c", { v: b.v });
      a[NODE].deps = [...a[NODE].deps, c[NODE]]; // only possible through internals: outputs cannot refer forward
    });
    expect(() => buildGraph(nodes)).toThrow(/Dependency cycle: "a" .* → "c" .* → "b" .* → "a"/);
  });

  it("depending on a component means depending on everything inside it", () => {
    let nodes: ResourceNode[] = [];
    nodes = eval_(() => {
      const comp = new ComponentResource("test:graph:Group", "grp");
      new Node("x", {}, { parent: comp });
      new Node("y", {}, { parent: comp });
      new Node("after", {}, { dependsOn: comp });
    });
    const g = buildGraph(nodes);
    const after = g.order.find((n) => n.name === "after")!;
    expect(g.deps.get(after)!.map((n) => n.name).sort()).toEqual(["x", "y"]);
    expect(g.order.some((n) => (n.kind as string) === "component")).toBe(false);
  });

  it("lists each dependency once, whether named directly, through a component, or inherited from one", () => {
    let nodes: ResourceNode[] = [];
    nodes = eval_(() => {
      const base = new Node("base", {});
      const comp = new ComponentResource("test:graph:Group", "grp", { dependsOn: [base] });
      const inner = new Node("inner", { v: base.v }, { parent: comp, dependsOn: [base] });
      new Node("user", { v: inner.v }, { dependsOn: [comp, inner] });
    });
    const g = buildGraph(nodes);
    const deps = (name: string) => g.deps.get(g.order.find((n) => n.name === name)!)!.map((n) => n.name);
    expect(deps("inner")).toEqual(["base"]);
    expect(deps("user")).toEqual(["inner"]);
  });

  it("keeps the order nodes were declared in when each comes after what it uses; a component's later children still come first", () => {
    const plain = eval_(() => {
      const a = new Node("a", {});
      new Node("b", {});
      new Node("c", { v: a.v });
    });
    expect(buildGraph(plain).order.map((n) => n.name)).toEqual(["a", "b", "c"]);
    const late = eval_(() => {
      const comp = new ComponentResource("test:graph:Group", "grp");
      new Node("user", {}, { dependsOn: comp });
      new Node("first", {});
      new Node("child", {}, { parent: comp });
    });
    expect(buildGraph(late).order.map((n) => n.name)).toEqual(["child", "user", "first"]);
  });

  it("handles a 10,000-long chain without overflowing the stack", () => {
    const nodes = eval_(() => {
      let prev = new Node("n0", {});
      for (let i = 1; i < 10_000; i++) prev = new Node(`n${i}`, { v: prev.v });
    });
    const g = buildGraph(nodes);
    expect(g.order[0]!.name).toBe("n0");
    expect(g.order[9999]!.name).toBe("n9999");
  });
});
