import { describe, expect, it } from "vitest";
import { PLAN_FORMAT_VERSION, newPlan, type PlanBody, type PlanHead } from "../../src/plan/plan.js";
import type { Urn } from "../../src/core/urn.js";

const head: PlanHead = { project: "web", stack: "dev", baseSerial: 4, fingerprint: "fp", mode: "update", refresh: [], drift: [{ kind: "gone", urn: "urn:cairn:dev::web::t:T::a" as Urn, type: "t:T" }] };
const body: PlanBody = { steps: [], outputs: { url: "x" }, secretOutputs: [], outputsChanged: true, diagnostics: [] };

describe("newPlan", () => {
  it("makes a plan of this build's format from the stack's head and planning's body", () => {
    const plan = newPlan(head, body);
    expect(plan).toEqual({ version: PLAN_FORMAT_VERSION, ...head, ...body });
  });

  it("leaves out optional parts a body has empty, so saved plans and --json show only what there is", () => {
    const plan = newPlan(head, { ...body, outputNotes: {}, deferred: [], unforeseen: [], targets: [] });
    expect(Object.keys(plan).sort()).toEqual(Object.keys({ version: 1, ...head, ...body }).sort());
  });

  it("keeps the optional parts a body fills", () => {
    const target = "urn:cairn:dev::web::t:T::a" as Urn;
    const plan = newPlan(head, { ...body, outputNotes: { url: "waits for ready" }, unforeseen: ["a.v"], targets: [target] });
    expect(plan).toMatchObject({ outputNotes: { url: "waits for ready" }, unforeseen: ["a.v"], targets: [target] });
  });
});
