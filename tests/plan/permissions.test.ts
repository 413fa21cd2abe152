import { describe, expect, it } from "vitest";
import type { PlanStep } from "../../src/plan/plan.js";
import type { ProviderOperation } from "../../src/provider/provider.js";
import { planOperations, planPermissions, type PermissionsOf } from "../../src/plan/permissions.js";
import { operationPermissions } from "../../src/providers/aws/cloudcontrol/operation-permissions.js";
import { handlerPermissions } from "../../src/providers/aws/cloudcontrol/permissions.js";

const urn = (type: string, name: string) => `urn:cairn:dev::app::${type}::${name}`;

/** A step of the kind given, with only what the permissions read. */
function step(kind: PlanStep["kind"], type: string, name: string, extra: Record<string, unknown> = {}): PlanStep {
  return { kind, type, urn: urn(type, name), deps: [], ...extra } as unknown as PlanStep;
}
const wait = (name: string, target: string, needed = true) => step("wait", "cairn:wait", name, { target, needed });

/** A provider double: every operation of type `t:X` needs `t:<op>X`; `t:Silent` says nothing. */
const permissionsOf: PermissionsOf = (type, op) => (type === "t:Silent" ? undefined : [`${type}:${op}`, "shared:Action"]);

describe("the operations a plan runs, step by step", () => {
  const cases: { plan: string; steps: PlanStep[]; refreshed?: boolean; read?: string[]; want: Record<string, ProviderOperation[]> }[] = [
    { plan: "a refresh-only plan (no step): reads of the types in state", steps: [], read: ["t:Queue", "t:Zone"], want: { "t:Queue": ["read"], "t:Zone": ["read"] } },
    { plan: "a create", steps: [step("create", "t:Queue", "q")], want: { "t:Queue": ["create"] } },
    { plan: "an update", steps: [step("update", "t:Queue", "q")], want: { "t:Queue": ["update"] } },
    { plan: "a replace: a create and a delete", steps: [step("replace", "t:Queue", "q")], want: { "t:Queue": ["create", "delete"] } },
    { plan: "a delete", steps: [step("delete", "t:Queue", "q", { retain: false })], want: { "t:Queue": ["delete"] } },
    { plan: "a forget (retainOnDelete): nothing", steps: [step("delete", "t:Queue", "q", { retain: true })], want: {} },
    { plan: "a lookup", steps: [step("read", "t:Zone", "z")], want: { "t:Zone": ["read"] } },
    { plan: "no change: nothing", steps: [step("same", "t:Queue", "q")], want: {} },
    { plan: "no change after a refresh: a read", steps: [step("same", "t:Queue", "q"), step("delete", "t:Old", "o", { retain: true })], refreshed: true, want: { "t:Queue": ["read"], "t:Old": ["read"] } },
    { plan: "an import: a read", steps: [step("same", "t:Queue", "q", { adopt: { id: "q1" } })], want: { "t:Queue": ["read"] } },
    { plan: "a wait: reads of its target's type", steps: [step("create", "t:Db", "db"), wait("up", urn("t:Db", "db"))], want: { "t:Db": ["create", "read"] } },
    {
      plan: "waits on two objects of one type: a list too",
      steps: [step("same", "t:Db", "a"), step("same", "t:Db", "b"), wait("wa", urn("t:Db", "a")), wait("wb", urn("t:Db", "b"))],
      want: { "t:Db": ["read", "list"] },
    },
    { plan: "a wait on a wait: its root target's type", steps: [step("same", "t:Db", "a"), wait("w1", urn("t:Db", "a")), wait("w2", urn("cairn:wait", "w1"))], want: { "t:Db": ["read", "list"] } },
    { plan: "a wait not needed: nothing", steps: [step("same", "t:Db", "a"), wait("w", urn("t:Db", "a"), false)], want: {} },
  ];
  for (const c of cases) {
    it(`${c.plan}`, () => {
      const opts = { refreshed: c.refreshed ?? false, read: c.read ?? [] };
      const ops = planOperations(c.steps, opts);
      expect(Object.fromEntries([...ops].map(([t, s]) => [t, [...s]]))).toEqual(Object.fromEntries(Object.entries(c.want).map(([t, o]) => [t, expect.arrayContaining(o)])));
      expect(planPermissions(c.steps, permissionsOf, opts).operations).toEqual(Object.fromEntries(Object.entries(c.want).sort(([a], [b]) => a.localeCompare(b))));
    });
  }
});

describe("the policy a plan needs", () => {
  it("allows every action the providers name, sorted and each once, on every resource", () => {
    const p = planPermissions([step("replace", "t:Queue", "q"), step("create", "t:Bucket", "b")], permissionsOf);
    expect(p.policy).toEqual({
      Version: "2012-10-17",
      Statement: [{ Effect: "Allow", Action: ["shared:Action", "t:Bucket:create", "t:Queue:create", "t:Queue:delete"], Resource: "*" }],
    });
    expect(p.unstated).toEqual([]);
  });

  it("names the types whose providers do not say, and leaves them out", () => {
    const p = planPermissions([step("create", "t:Silent", "s"), step("delete", "t:Queue", "q", { retain: false })], permissionsOf);
    expect(p.unstated).toEqual(["t:Silent"]);
    expect(p.policy.Statement[0]!.Action).toEqual(["shared:Action", "t:Queue:delete"]);
  });

  it("has no statement for a plan that calls nothing", () => {
    expect(planPermissions([step("same", "t:Queue", "q")], permissionsOf).policy).toEqual({ Version: "2012-10-17", Statement: [] });
  });
});

describe("a Cloud Control type's operations", () => {
  const sqs = handlerPermissions("AWS::SQS::Queue");

  it("a create needs CreateResource, the request's polling, the read back and the create and read handlers' permissions", () => {
    const create = operationPermissions(sqs, "create")!;
    expect(create).toEqual([...new Set([
      "cloudformation:CreateResource", "cloudformation:GetResource", "cloudformation:GetResourceRequestStatus", "cloudformation:ListResourceRequests",
      ...sqs!.create, ...sqs!.read,
    ])].sort());
    expect(create).toContain("sqs:CreateQueue");
  });

  it("a delete needs DeleteResource and the delete handler's; a list ListResources and the list and read handlers'", () => {
    expect(operationPermissions(sqs, "delete")).toEqual([...new Set(["cloudformation:DeleteResource", "cloudformation:GetResourceRequestStatus", "cloudformation:ListResourceRequests", ...sqs!.delete])].sort());
    expect(operationPermissions(sqs, "list")).toEqual([...new Set(["cloudformation:GetResource", "cloudformation:ListResources", ...sqs!.list, ...sqs!.read])].sort());
    expect(operationPermissions(sqs, "read")).toEqual(["cloudformation:GetResource", ...sqs!.read].sort());
  });

  it("says nothing for a type the registry does not have", () => {
    expect(operationPermissions(handlerPermissions("AWS::IAM::Policy"), "create")).toBeUndefined();
  });
});
