import { describe, expect, it } from "vitest";
import { decisionLine } from "../../src/plan/steps/index.js";
import { STEP_KINDS, type PlanStep } from "../../src/plan/plan.js";
import type { Urn } from "../../src/core/urn.js";
import type { Predicate } from "../../src/core/predicate.js";

const urn = (name: string) => `urn:cairn:dev::app::local:File::${name}` as Urn;
const base = { type: "local:File", deps: [] as Urn[] };
const meta = { deps: [] as Urn[], protect: false, retainOnDelete: false };
const changing = { id: "i", olds: { content: "a" }, news: { content: "b" }, outputs: {}, secretKeys: [], meta, prior: { deps: [] } };

/** One step of each kind, with the line the debug trace prints for it. */
const cases: [PlanStep, string][] = [
  [{ ...base, kind: "create", urn: urn("new"), news: {}, secretKeys: [], meta }, "plan create urn:cairn:dev::app::local:File::new: not in state"],
  [{ ...base, ...changing, kind: "update", urn: urn("cfg"), changed: ["content"], drift: [] }, "plan update urn:cairn:dev::app::local:File::cfg: changed content"],
  [
    { ...base, ...changing, kind: "replace", urn: urn("cert"), changed: ["path", "content"], drift: [], replaceKeys: ["path"], reason: "attributes", deleteFirst: true },
    "plan replace urn:cairn:dev::app::local:File::cert: attributes; replace keys path; changed path, content; delete first",
  ],
  [{ ...base, kind: "delete", urn: urn("old"), id: "i", olds: {}, outputs: {}, retain: false, deposed: false, secretKeys: [], prior: { deps: [] } }, "plan delete urn:cairn:dev::app::local:File::old: not in the program"],
  [{ ...base, kind: "read", urn: urn("zone"), id: "z", deferred: true }, "plan read urn:cairn:dev::app::local:File::zone: deferred to apply"],
  [
    {
      ...base, kind: "wait", urn: urn("issued"), name: "issued", named: true, target: urn("cert"), subject: "cert", until: {} as Predicate, untilText: "cert.status == \"ISSUED\"",
      timeoutMs: 1, intervalMs: 1, defaultTimeout: true, needed: true, why: "its target is replaced", readyNow: null,
    },
    "plan wait urn:cairn:dev::app::local:File::issued: runs (its target is replaced)",
  ],
  [{ ...base, kind: "same", urn: urn("kept"), meta }, "plan same urn:cairn:dev::app::local:File::kept: no change"],
];

describe("plan decisions in the debug trace", () => {
  it("every step kind has a line naming its URN and why (keys, never values)", () => {
    expect(new Set(cases.map(([s]) => s.kind))).toEqual(new Set(STEP_KINDS));
    for (const [step, line] of cases) expect(decisionLine(step)).toBe(line);
  });

  it("a replace forced by a dependency names the dependency deleted first", () => {
    const step = { ...base, ...changing, kind: "replace", urn: urn("rec"), changed: [], drift: [], replaceKeys: [], reason: "dependency", cause: urn("zone"), deleteFirst: true } as PlanStep;
    expect(decisionLine(step)).toBe("plan replace urn:cairn:dev::app::local:File::rec: dependency (urn:cairn:dev::app::local:File::zone); delete first");
  });
});
