import { describe, expect, it } from "vitest";
import { waitSkipped } from "../../../src/apply/handlers/wait-ended.js";
import { actionHandlerOf } from "../../../src/apply/handlers/index.js";
import type { EngineEvent } from "../../../src/apply/events.js";
import type { Action } from "../../../src/plan/actions.js";
import { urnOf } from "./fake-context.js";

type WaitAction = Extract<Action, { kind: "wait" }>;

const action: WaitAction = {
  id: `${urnOf("ready", "cairn:wait")}#wait`, kind: "wait", index: 0,
  step: {
    kind: "wait", urn: urnOf("ready", "cairn:wait"), type: "cairn:wait", deps: [urnOf("db")], name: "ready", named: true, target: urnOf("db"), subject: "db",
    until: { op: "eq", path: "status", value: "ready" } as never, untilText: 'db.status == "ready"', timeoutMs: 60_000, intervalMs: 1_000, defaultTimeout: true, needed: true, why: "db is created", readyNow: null,
  },
};

function ended(reason: Parameters<typeof waitSkipped>[1], started: boolean): EngineEvent[] {
  const events: EngineEvent[] = [];
  waitSkipped(action, reason, { next: (e) => void events.push(e) }, started);
  return events;
}

describe("a wait the scheduler skips", () => {
  it("tells its end once, naming the dependency that failed", () => {
    expect(ended({ kind: "dependency-failed", dependency: `${urnOf("db")}#create` }, false)).toEqual([
      { type: "wait-ended", urn: action.step.urn, name: "ready", outcome: { kind: "dependency-failed", dependency: urnOf("db") }, message: expect.stringContaining('wait "ready"') },
    ]);
  });

  it("tells it was cancelled, with no reads, when the run stopped starting work before its turn", () => {
    expect(ended({ kind: "cancelled" }, false)).toMatchObject([{ type: "wait-ended", outcome: { kind: "cancelled", reads: 0, elapsedMs: 0 } }]);
  });

  it("tells nothing more once it had started: cancelled while polling, it told its own end", () => {
    expect(ended({ kind: "cancelled" }, true)).toEqual([]);
  });

  it("is what the handler table answers for a skipped wait, and nothing for the other kinds", () => {
    expect(actionHandlerOf(action).skipped).toBe(waitSkipped);
    expect(actionHandlerOf({ ...action, kind: "create" } as unknown as Action).skipped).toBeUndefined();
  });
});
