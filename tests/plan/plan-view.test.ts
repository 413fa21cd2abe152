import { describe, expect, it } from "vitest";
import { whyOf } from "../../src/cli/render/why.js";
import { PLAN_FORMAT_VERSION, type Plan, type PlanStep } from "../../src/plan/plan.js";
import { STACK_REFERENCE_TYPE } from "../../src/program/stack-reference.js";
import type { Urn } from "../../src/core/urn.js";

const urn = (type: string, name: string) => `urn:cairn:dev::app::${type}::${name}` as Urn;
const meta = { deps: [], protect: false, retainOnDelete: false };
const ref = urn(STACK_REFERENCE_TYPE, "net");
const server = urn("test:Server", "web");

function plan(steps: PlanStep[]): Plan {
  return {
    version: PLAN_FORMAT_VERSION, project: "app", stack: "dev", baseSerial: 1, fingerprint: "f", mode: "update",
    refresh: [], drift: [], steps, outputs: {}, secretOutputs: [], outputsChanged: false, diagnostics: [],
  };
}

const refUpdate: PlanStep = {
  kind: "update", urn: ref, type: STACK_REFERENCE_TYPE, deps: [], id: "net/prod",
  olds: { project: "net", stack: "prod", values: { vpcId: "vpc-1" }, secretValues: {} },
  news: { project: "net", stack: "prod", values: { vpcId: "vpc-2" }, secretValues: {} },
  outputs: {}, changed: ["values"], drift: [], secretKeys: [], meta, prior: { deps: [] },
};
const serverUpdate: PlanStep = {
  kind: "update", urn: server, type: "test:Server", deps: [ref], id: "i-1", olds: { vpc: "vpc-1" }, news: { vpc: "vpc-2" },
  outputs: {}, changed: ["vpc"], drift: [], secretKeys: [], meta, prior: { deps: [ref] },
};
// An old object of the reference left by an interrupted replace: deposed deletes come last in a plan.
const refDeposed: PlanStep = {
  kind: "delete", urn: ref, type: STACK_REFERENCE_TYPE, deps: [], id: "old", olds: {}, outputs: {}, retain: false, deposed: true, secretKeys: [], prior: { deps: [] },
};

describe("plan view: what a step's reasons read of its plan", () => {
  it("names the stack output a dependent reads, even when the reference also has a deposed object to delete", () => {
    const expected = "vpc changed (output vpcId of stack net/prod changed since this stack's last run)";
    expect(whyOf(serverUpdate, plan([refUpdate, serverUpdate]))).toBe(expected);
    expect(whyOf(serverUpdate, plan([refUpdate, serverUpdate, refDeposed]))).toBe(expected);
  });
});
