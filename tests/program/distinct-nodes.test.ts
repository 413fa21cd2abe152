import { describe, expect, it } from "vitest";
import { DistinctNodes, NO_NODES } from "../../src/program/distinct-nodes.js";
import type { ResourceNode } from "../../src/program/node.js";

const node = (name: string) => ({ name }) as unknown as ResourceNode;

describe("DistinctNodes", () => {
  it("keeps each node once, in the order first added", () => {
    const [a, b, c] = [node("a"), node("b"), node("c")];
    const d = new DistinctNodes();
    for (const n of [a, b, a, c, b]) d.add(n);
    expect(d.list()).toEqual([a, b, c]);
  });

  it("stays exact past the length where it starts keeping a set", () => {
    const nodes = Array.from({ length: 40 }, (_, i) => node(`n${i}`));
    const d = new DistinctNodes();
    for (const n of [...nodes, ...[...nodes].reverse()]) d.add(n);
    expect(d.list()).toEqual(nodes);
  });

  it("hands out the shared empty list when nothing was added", () => {
    expect(new DistinctNodes().list()).toBe(NO_NODES);
  });
});
