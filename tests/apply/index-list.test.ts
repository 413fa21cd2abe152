import { describe, expect, it } from "vitest";
import { IndexList } from "../../src/apply/index-list.js";
import { reverseEdges } from "../../src/core/reverse-edges.js";

describe("IndexList", () => {
  it("keeps the order indices were added in, through removals at the head, middle and tail", () => {
    const l = new IndexList(8);
    for (const i of [5, 1, 7, 3, 0]) l.add(i);
    l.add(1); // already in: no change
    expect([l.toArray(), l.size]).toEqual([[5, 1, 7, 3, 0], 5]);
    expect([l.delete(5), l.delete(7), l.delete(0), l.delete(0)]).toEqual([true, true, true, false]);
    expect([l.toArray(), l.size, l.has(1), l.has(7)]).toEqual([[1, 3], 2, true, false]);
    l.add(7);
    l.add(5);
    expect(l.toArray()).toEqual([1, 3, 7, 5]);
    for (const i of [1, 3, 7, 5]) l.delete(i);
    expect([l.toArray(), l.size]).toEqual([[], 0]);
    l.add(2);
    expect(l.toArray()).toEqual([2]);
  });
});

describe("reverseEdges", () => {
  it("lists each node's users in ascending order, duplicates kept, nodes without users empty", () => {
    const { at, users } = reverseEdges([[], [0], [0, 1], undefined, [2, 0, 2]]);
    const of = (i: number) => [...users.subarray(at[i], at[i + 1])];
    expect([of(0), of(1), of(2), of(3), of(4)]).toEqual([[1, 2, 4], [2], [4, 4], [], []]);
  });

  it("refuses an edge to a node that does not exist", () => {
    expect(() => reverseEdges([[1]])).toThrow("node 0 depends on node 1, which does not exist");
  });
});
