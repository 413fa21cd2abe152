import { describe, expect, it } from "vitest";
import type { PlanStep } from "../../src/plan/plan.js";
import { planGraph } from "../../src/plan/picture/from-plan.js";
import { stateGraph } from "../../src/plan/picture/from-state.js";
import { selectGraph } from "../../src/plan/picture/select.js";
import { UserError } from "../../src/core/diagnostic.js";
import type { ResourceState } from "../../src/state/types.js";
import { planOf, step, urn } from "../cli/plan-fixtures.js";

const meta = { deps: [], protect: false, retainOnDelete: false };
const site = urn("acme:Site", "www");

/** A wait on `target` that runs, until its status is ready. */
const waitOn = (name: string, target: string, needed = true): PlanStep => ({
  kind: "wait", urn: urn("cairn:wait", name), type: "cairn:wait", deps: [urn("t:Thing", target)], name, named: true, target: urn("t:Thing", target), subject: target,
  until: { op: "eq", path: ["status"], value: "ready" } as never, untilText: `${target}.status == "ready"`, timeoutMs: 600_000, intervalMs: 5000, defaultTimeout: false, needed, why: "runs because svc is created", readyNow: null,
});

/** One step of every kind of change, a wait gating a create, and a deferred part. */
const everyKind = planOf(
  [
    step.create("svc", { a: 1 }, { meta: { ...meta, parent: site } }),
    waitOn("ready", "svc"),
    step.create("note", { a: 1 }, { deps: [urn("cairn:wait", "ready")] }),
    step.update("cfg", { a: 1 }, { a: 2 }, ["a"], { deps: [urn("t:Thing", "svc")] }),
    step.replace("web", { a: 1 }, { a: 2 }),
    step.replace("db", { a: 1 }, { a: 2 }, { deleteFirst: true }),
    step.delete("old", { a: 1 }),
    step.delete("bucket", { a: 1 }, { dataLoss: { allowed: false } }),
    { kind: "same", urn: urn("t:Thing", "quiet"), type: "t:Thing", deps: [], id: "q", news: {}, meta } as unknown as PlanStep,
  ],
  { deferred: [{ kind: "declared", type: "t:Record", pattern: "validation-…", waitsFor: "svc.records" }] },
);

const look = (name: string) => planGraph(everyKind).nodes.find((n) => n.name === name)?.look;

describe("a plan's picture", () => {
  it("draws each step by what it does: create, update, replace in its order, delete, data loss, wait, unchanged", () => {
    expect(["svc", "cfg", "web", "db", "old", "bucket", "ready", "quiet"].map(look)).toEqual([
      "create", "update", "replace-create-first", "replace-delete-first", "delete", "data-loss", "wait", "same",
    ]);
  });

  it("draws a wait with its predicate and timeout, an edge to the target it polls and a gate to what reads it", () => {
    const g = planGraph(everyKind);
    expect(g.nodes.find((n) => n.name === "ready")?.notes).toEqual(['until svc.status == "ready"', "timeout 10m"]);
    expect(g.edges).toContainEqual({ from: urn("t:Thing", "svc"), to: urn("cairn:wait", "ready"), kind: "polls" });
    expect(g.edges).toContainEqual({ from: urn("cairn:wait", "ready"), to: urn("t:Thing", "note"), kind: "gate" });
    expect(g.edges).toContainEqual({ from: urn("t:Thing", "svc"), to: urn("t:Thing", "cfg"), kind: "dependency" });
  });

  it("draws a deferred part with its reason, from the node whose value it waits for", () => {
    const g = planGraph(everyKind);
    const part = g.nodes.find((n) => n.look === "deferred")!;
    expect(part).toMatchObject({ name: "validation-…", type: "t:Record", notes: ["deferred: declared in apply() on svc.records"] });
    expect(g.edges).toContainEqual({ from: urn("t:Thing", "svc"), to: part.id, kind: "defers" });
  });

  it("draws no edge to a deferred part when two nodes share the name it waits for", () => {
    const twice = planOf([step.create("svc", {}), { ...step.create("svc", {}), urn: urn("t:Other", "svc") }], { deferred: everyKind.deferred! });
    expect(planGraph(twice).edges.filter((e) => e.kind === "defers")).toEqual([]);
  });

  it("groups a component's children in its cluster", () => {
    const g = planGraph(everyKind);
    expect(g.clusters).toEqual([{ urn: site, name: "www", type: "acme:Site" }]);
    expect(g.nodes.filter((n) => n.cluster === site).map((n) => n.name)).toEqual(["svc"]);
  });
});

describe("a state's picture", () => {
  const r = (name: string, deps: string[] = [], parent?: string): ResourceState => ({ urn: urn("t:Thing", name), type: "t:Thing", id: name, inputs: {}, outputs: {}, deps: deps.map((d) => urn("t:Thing", d)), ...(parent ? { parent: parent as never } : {}) });

  it("draws every resource, its recorded dependencies, and components as clusters", () => {
    const g = stateGraph("app/dev", [r("vpc"), r("subnet", ["vpc"], site), r("db", ["subnet"], site)]);
    expect(g.nodes.map((n) => [n.name, n.look, n.cluster])).toEqual([["vpc", "resource", undefined], ["subnet", "resource", site], ["db", "resource", site]]);
    expect(g.edges.map((e) => `${e.from.split("::").at(-1)}→${e.to.split("::").at(-1)}`)).toEqual(["vpc→subnet", "subnet→db"]);
    expect(g.clusters.map((c) => c.name)).toEqual(["www"]);
  });
});

describe("selecting a part of a picture", () => {
  const chain = stateGraph("app/dev", ["a", "b", "c", "d", "e"].map((n, i, all) => ({ urn: urn("t:Thing", n), type: "t:Thing", id: n, inputs: {}, outputs: {}, deps: i ? [urn("t:Thing", all[i - 1]!)] : [] })));
  const names = (g: { nodes: { name: string }[] }) => g.nodes.map((n) => n.name);

  it("keeps a target and what it depends on and what depends on it, up to --depth edges each way", () => {
    expect(names(selectGraph(chain, { targets: ["c"] }))).toEqual(["a", "b", "c", "d", "e"]);
    const near = selectGraph(chain, { targets: ["c"], depth: 1 });
    expect(names(near)).toEqual(["b", "c", "d"]);
    expect(near.edges).toHaveLength(2);
    expect(near.hidden).toBe(2);
  });

  it("keeps the nodes whose URN contains the filter, whatever its case", () => {
    expect(names(selectGraph(chain, { filter: "::D" }))).toEqual(["d"]);
  });

  it("refuses a target that names no node, naming it", () => {
    expect(() => selectGraph(chain, { targets: ["nope"] })).toThrow(UserError);
    expect(() => selectGraph(chain, { targets: ["nope"] })).toThrow(/"nope" names no node/);
  });

  it("leaves out a plan's unchanged resources, but those next to a change", () => {
    const plan = planOf([step.create("new", {}, { deps: [urn("t:Thing", "near")] }), { ...everyKind.steps.at(-1)!, urn: urn("t:Thing", "near") }, { ...everyKind.steps.at(-1)!, urn: urn("t:Thing", "far") }]);
    expect(names(selectGraph(planGraph(plan), { changesOnly: true }))).toEqual(["new", "near"]);
  });
});
