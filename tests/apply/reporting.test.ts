import { describe, expect, it } from "vitest";
import { ActionRuns } from "../../src/apply/action-runs.js";
import { emptySummary, reportingHooks } from "../../src/apply/reporting.js";
import type { EngineEvent } from "../../src/apply/events.js";
import type { Action } from "../../src/plan/actions.js";

const urn = (name: string) => `urn:cairn:dev::web::test:Db::${name}`;
const action = (name: string, kind: string, index: number, step: object = {}) =>
  ({ id: `${urn(name)}#${kind}`, kind, index, step: { kind: "create", urn: urn(name), type: "test:Db", deps: [], news: {}, secretKeys: [], ...step } }) as unknown as Action;

function reporting() {
  const events: EngineEvent[] = [];
  const sink = { next: (e: EngineEvent) => void events.push(e) };
  const summary = emptySummary();
  const hooks = reportingHooks({ events: sink, node: () => undefined }, summary, new ActionRuns(4, sink));
  return { events, summary, hooks };
}

describe("reporting how actions went", () => {
  it("counts successes by kind, each reported started before it succeeded", () => {
    const r = reporting();
    const [a, b] = [action("a", "create", 0), action("b", "delete", 1)];
    r.hooks.succeeded(a, 0);
    r.hooks.succeeded(b, 0);
    expect(r.summary).toMatchObject({ succeeded: 2, failed: 0, done: { create: 1, delete: 1 } });
    expect(r.events.map((e) => `${e.type} ${"kind" in e ? e.kind : ""}`)).toEqual(["step-started create", "step-succeeded create", "step-started delete", "step-succeeded delete"]);
  });

  it("reports an action that calls no provider started when the scheduler starts it, and one that does only at its call", () => {
    const r = reporting();
    r.hooks.started(action("w", "wait", 0));
    r.hooks.started(action("c", "create", 1));
    expect(r.events).toEqual([{ type: "step-started", urn: urn("w"), kind: "wait" }]);
  });

  it("tells a failure with the step's secret values masked in the provider's message", () => {
    const r = reporting();
    r.hooks.failed(action("db", "create", 0, { news: { password: "pw-secret-9" }, secretKeys: ["password"] }), new Error("password pw-secret-9 is too short"));
    expect(r.summary.failed).toBe(1);
    const failed = r.events.find((e) => e.type === "step-failed");
    expect(failed).toMatchObject({ urn: urn("db"), kind: "create" });
    expect(failed && "error" in failed ? failed.error : "").toMatch(/^password \[secret\] is too short/);
  });

  it("tells a skip by its reason: cancelled, or the dependency that failed", () => {
    const r = reporting();
    r.hooks.skipped(action("a", "create", 0), { kind: "cancelled" });
    r.hooks.skipped(action("b", "update", 1), { kind: "dependency-failed", dependency: `${urn("a")}#create` });
    expect(r.summary.skipped).toBe(2);
    expect(r.events.map((e) => (e.type === "step-skipped" ? e.reason : e.type))).toEqual(["cancelled", `dependency failed: ${urn("a")}`]);
  });
});
