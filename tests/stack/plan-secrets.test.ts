import { describe, expect, it } from "vitest";
import { PLAN_FORMAT_VERSION, type Plan, type PlanStep } from "../../src/plan/plan.js";
import { planHasSecrets } from "../../src/stack/plan-secrets.js";
import type { Urn } from "../../src/core/urn.js";

const urn = (name: string) => `urn:cairn:dev::app::test:Db::${name}` as Urn;
const meta = { deps: [], protect: false, retainOnDelete: false };

function plan(steps: PlanStep[], secretOutputs: string[] = []): Plan {
  return {
    version: PLAN_FORMAT_VERSION, project: "app", stack: "dev", baseSerial: 1, fingerprint: "f", mode: "update",
    refresh: [], drift: [], steps, outputs: {}, secretOutputs, outputsChanged: false, diagnostics: [],
  };
}

const create = (secretKeys: string[]): PlanStep => ({ kind: "create", urn: urn("db"), type: "test:Db", deps: [], news: { password: "pw" }, secretKeys, meta });
const update = (secretKeys: string[]): PlanStep => ({
  kind: "update", urn: urn("db"), type: "test:Db", deps: [], id: "db-1", olds: { password: "a" }, news: { password: "b" },
  outputs: {}, changed: ["password"], drift: [], secretKeys, meta, prior: { deps: [] },
});
const remove = (secretKeys: string[]): PlanStep => ({
  kind: "delete", urn: urn("old"), type: "test:Db", deps: [], id: "old-1", olds: { password: "pw" }, outputs: {},
  retain: false, deposed: false, secretKeys, prior: { deps: [] },
});

describe("a plan needs the passphrase when applying it stores secret values", () => {
  it("a created or updated resource with a secret attribute stores it", () => {
    expect(planHasSecrets(plan([create(["password"])]))).toBe(true);
    expect(planHasSecrets(plan([update(["password"])]))).toBe(true);
  });

  it("a deleted resource's secrets leave state with its record: no passphrase for them", () => {
    expect(planHasSecrets(plan([remove(["password"])]))).toBe(false);
  });

  it("steps without secrets need none; a secret stack output does", () => {
    expect(planHasSecrets(plan([create([]), remove([])]))).toBe(false);
    expect(planHasSecrets(plan([remove([])], ["token"]))).toBe(true);
  });
});
