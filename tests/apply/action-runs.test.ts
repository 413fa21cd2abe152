import { describe, expect, it, vi } from "vitest";
import { ActionRuns } from "../../src/apply/action-runs.js";
import type { Action } from "../../src/plan/actions.js";
import type { EngineEvent } from "../../src/apply/events.js";
import type { ScopedResolver } from "../../src/runtime/values.js";

const action = (name: string, index: number) => ({ id: `urn:cairn:s::p::t::${name}#create`, kind: "create", index, step: { urn: `urn:cairn:s::p::t::${name}` } }) as unknown as Action;

describe("ActionRuns", () => {
  it("reports each action started once, and times it from then", () => {
    const events: EngineEvent[] = [];
    const runs = new ActionRuns(2, { next: (e: EngineEvent) => void events.push(e) } as never);
    const [a, b] = [action("a", 0), action("b", 1)];
    vi.useFakeTimers({ now: 0 }); // a clock at the epoch: 0 is a start time like any other
    try {
      runs.report(a);
      runs.report(a);
      expect([runs.reported(a), runs.reported(b)]).toEqual([true, false]);
      vi.setSystemTime(250);
      expect(runs.finished(a)).toBe(250);
      expect(runs.finished(b)).toBe(0); // reported as it ends
      expect(events.map((e) => (e.type === "step-started" ? e.urn.split("::").pop() : e.type))).toEqual(["a", "b"]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("remembers a running action's resolver until it ends", () => {
    const runs = new ActionRuns(3, { next: () => {} } as never);
    const [a, b] = [action("a", 0), action("b", 2)];
    const scope = { awaiting: new Set() } as unknown as ScopedResolver;
    runs.setScope(a, scope);
    runs.setScope(b, scope);
    expect([runs.scopeOf(a), runs.scopeOf(b)]).toEqual([scope, scope]);
    runs.finished(a);
    runs.drop(b);
    expect([runs.scopeOf(a), runs.scopeOf(b)]).toEqual([undefined, undefined]);
  });
});
