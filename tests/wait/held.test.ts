import { describe, expect, it } from "vitest";
import { heldMark, stillHeld, withHeld } from "../../src/wait/held.js";
import type { ResourceState } from "../../src/state/types.js";
import type { Predicate } from "../../src/core/predicate.js";

const until: Predicate = { op: "eq", path: ["status"], value: "ready" };
const mark = heldMark("urn:cairn:dev::app::cairn:wait::healthy", 'server.status == "ready"');
const record = (over: Partial<ResourceState> = {}): ResourceState => ({ urn: "urn:cairn:dev::app::t:S::server" as never, type: "t:S", id: "s-1", inputs: {}, outputs: { status: "ready" }, deps: [], ...over });

describe("a wait's recorded satisfaction", () => {
  it("is a digest of the wait and its condition: another condition, or another wait, is another mark", () => {
    expect(mark).toMatch(/^w:[0-9a-f]{16}$/);
    expect(heldMark("urn:cairn:dev::app::cairn:wait::healthy", 'server.status == "serving"')).not.toBe(mark);
    expect(heldMark("urn:cairn:dev::app::cairn:wait::other", 'server.status == "ready"')).not.toBe(mark);
  });

  it("counts only on the same object, marked, not tainted, whose recorded outputs still satisfy until", () => {
    expect(stillHeld(record({ waitsHeld: [mark] }), { mark, until, id: "s-1" })).toBe(true);
    expect(stillHeld(record(), { mark, until, id: "s-1" })).toBe(false);
    expect(stillHeld(record({ waitsHeld: [mark] }), { mark, until, id: "s-2" })).toBe(false);
    expect(stillHeld(record({ waitsHeld: [mark], tainted: true }), { mark, until, id: "s-1" })).toBe(false);
    expect(stillHeld(record({ waitsHeld: [mark], outputs: { status: "starting" } }), { mark, until, id: "s-1" })).toBe(false);
    expect(stillHeld(undefined, { mark, until, id: "s-1" })).toBe(false);
  });

  it("is set and cleared on the record, which is left alone when nothing changes", () => {
    const marked = withHeld(record(), mark, true)!;
    expect(marked.waitsHeld).toEqual([mark]);
    expect(withHeld(marked, mark, true)).toBeUndefined();
    expect(withHeld(record(), mark, false)).toBeUndefined();
    expect(withHeld({ ...marked, waitsHeld: [mark, "w:other"] }, mark, false)!.waitsHeld).toEqual(["w:other"]);
    expect("waitsHeld" in withHeld(marked, mark, false)!).toBe(false);
    expect(withHeld(marked, mark, true, { status: "ready", url: "u" })!.outputs).toEqual({ status: "ready", url: "u" });
  });
});
