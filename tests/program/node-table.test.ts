import { describe, expect, it } from "vitest";
import { NodeTable } from "../../src/program/node-table.js";
import type { ResourceNode } from "../../src/program/node.js";

const node = (name: string, index: number) => ({ name, index }) as unknown as ResourceNode;

describe("NodeTable", () => {
  it("keeps a value per node by its place, and answers like a map", () => {
    const [a, b, c] = [node("a", 0), node("b", 5), node("c", 2)];
    const t = new NodeTable<string>();
    t.set(a, "A").set(b, "B");
    expect([t.get(a), t.get(b), t.get(c), t.has(c), t.size]).toEqual(["A", "B", undefined, false, 2]);
    t.set(a, "A2");
    expect([t.get(a), t.size]).toEqual(["A2", 2]);
    t.set(c, "C");
    expect([...t].map(([n, v]) => `${n.name}=${v}`)).toEqual(["a=A2", "c=C", "b=B"]); // by place
  });

  it("keeps nodes without a place, or whose place another node holds, beside: nothing is mixed up", () => {
    const mine = node("mine", 1);
    const other = node("other", 1); // the same place in a second evaluation
    const loose = node("loose", -1);
    const unset = { name: "unset" } as unknown as ResourceNode; // built by hand, no index at all
    const t = new NodeTable<number>();
    t.set(mine, 1).set(other, 2).set(loose, 3).set(unset, 4);
    expect([t.get(mine), t.get(other), t.get(loose), t.get(unset), t.size]).toEqual([1, 2, 3, 4, 4]);
    t.set(other, 20);
    expect([t.get(other), t.size]).toEqual([20, 4]);
    const seen: string[] = [];
    t.forEach((v, n) => seen.push(`${n.name}=${v}`));
    expect(seen).toEqual(["mine=1", "other=20", "loose=3", "unset=4"]);
  });
});
