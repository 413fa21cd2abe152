import { describe, expect, it } from "vitest";
import { OpenOperations } from "../../src/state/open-operations.js";
import type { PendingOperation } from "../../src/state/types.js";
import type { Urn } from "../../src/core/urn.js";

const op = (n: number): PendingOperation => ({ op: n, kind: "create", urn: `urn:cairn:s::p::t::r${n}` as Urn, type: "t", since: "2026-01-01T00:00:00.000Z" });

describe("OpenOperations", () => {
  it("keeps recovered operations first, then new ones by number, through any order of ends", () => {
    const open = new OpenOperations(10, [op(7), op(3)]);
    for (let n = 10; n < 15; n++) open.set(op(n));
    expect([open.delete(12), open.delete(10), open.delete(12), open.delete(3), open.delete(99)]).toEqual([true, true, false, true, false]);
    expect(open.values().map((p) => p.op)).toEqual([7, 11, 13, 14]);
    expect([open.get(7)?.op, open.get(11)?.op, open.get(10), open.get(3)]).toEqual([7, 11, undefined, undefined]);
  });

  it("stays exact while thousands begin and end, the oldest kept open throughout", () => {
    const open = new OpenOperations(0, []);
    open.set(op(0)); // never ends: the front cannot move past it
    for (let n = 1; n < 5000; n++) {
      open.set(op(n));
      if (n > 2) expect(open.delete(n - 2)).toBe(n - 2 !== 0);
    }
    expect(open.values().map((p) => p.op)).toEqual([0, 4998, 4999]);
    open.delete(0);
    for (let n = 5000; n < 9000; n++) {
      open.set(op(n));
      open.delete(n - 1);
    }
    expect(open.values().map((p) => p.op)).toEqual([4998, 8999]);
    expect(open.get(8999)?.op).toBe(8999);
    open.delete(4998);
    for (let n = 9000; n < 12000; n++) {
      open.set(op(n));
      open.delete(n - 1);
    }
    expect(open.values().map((p) => p.op)).toEqual([11999]);
    expect([open.get(11999)?.op, open.get(5000)]).toEqual([11999, undefined]);
  });
});
