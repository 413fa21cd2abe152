import { describe, expect, it } from "vitest";
import { planToJson } from "../../src/cli/json/plan.js";
import { jsonEvent, JSON_VERSION } from "../../src/cli/json/schema.js";
import { renderPlan } from "../../src/cli/render/plan.js";
import { changesBeyondObserved, type Plan } from "../../src/plan/plan.js";
import type { ResourceState } from "../../src/state/types.js";
import { UNKNOWN } from "../../src/core/unknown.js";
import { planOf, step, urn } from "./plan-fixtures.js";

const u = urn("t:Thing", "db");
const observed: ResourceState = { urn: u, type: "t:Thing", id: "db-1", inputs: { name: "db" }, outputs: { name: "db", status: "modifying" }, deps: [] };
/** What `preview --refresh` plans when a refresh saw only a status move on. */
const statusOnly = (o: Partial<Plan> = {}) => planOf([], { refresh: [{ kind: "upsert", resource: observed }], ...o });

const event = (plan: Plan) => jsonEvent.parse({ v: JSON_VERSION, type: "plan", time: "2026-01-01T00:00:00.000Z", elapsed_ms: 0, ...planToJson(plan) });

describe("a refresh that records only observed values is no change, in every view of the plan", () => {
  it("--json says has_changes false, as --expect-no-changes judges, and counts the records the refresh updates", () => {
    const plan = statusOnly();
    expect(changesBeyondObserved(plan)).toBe(false);
    expect(event(plan)).toMatchObject({ has_changes: false, refresh_records: 1 });
  });

  it("the printed plan says there is nothing to apply and what the refresh records, with no count line", () => {
    const text = renderPlan(statusOnly());
    expect(text).toContain('No changes to apply. Stack "dev" is up to date; the refresh records what it observed of 1 resource in state.');
    expect(text).not.toContain("Plan:");
  });

  it("drift of a declared property is a change in all three", () => {
    const plan = statusOnly({ drift: [{ kind: "drift", urn: u, type: "t:Thing", changed: ["name"] }], steps: [step.update("db", { name: "x" }, { name: "db" }, ["name"])] });
    expect(changesBeyondObserved(plan)).toBe(true);
    expect(event(plan)).toMatchObject({ has_changes: true, refresh_records: 1 });
    expect(renderPlan(plan)).toContain("Plan: 1 to update.");
    expect(renderPlan(plan)).not.toContain("No changes");
  });

  it("a plan without a refresh keeps its plain no-change line", () => {
    expect(renderPlan(planOf([]))).toContain('No changes. Stack "dev" is up to date.');
    expect(event(planOf([]))).toMatchObject({ has_changes: false, refresh_records: 0, output_notes: {} });
  });
});

describe("--json plan events carry the plan's notes on unknown outputs", () => {
  it("an output waiting for a wait that has not held says so under output_notes", () => {
    const plan = planOf([], { outputs: { url: UNKNOWN }, outputNotes: { url: "waits for healthy, which has not held yet" } });
    expect(event(plan)).toMatchObject({ output_notes: { url: "waits for healthy, which has not held yet" } });
  });
});
