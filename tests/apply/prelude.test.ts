import { describe, expect, it } from "vitest";
import { publishWithoutActions, recordPrelude } from "../../src/apply/prelude.js";
import { defineResource } from "../../src/program/define.js";
import { evaluateProgram } from "../../src/program/evaluate.js";
import { buildGraph } from "../../src/graph/graph.js";
import { ValueResolver } from "../../src/runtime/values.js";
import { NodeTable } from "../../src/program/node-table.js";
import type { Provider } from "../../src/provider/provider.js";
import type { Plan, PlanStep } from "../../src/plan/plan.js";
import type { JournalWriter } from "../../src/state/journal-writer.js";
import type { ResourceState, StateMutation } from "../../src/state/types.js";
import type { Urn } from "../../src/core/urn.js";

const urn = (name: string) => `urn:cairn:s::p::t:Thing::${name}` as Urn;
const record = (name: string, over: Partial<ResourceState> = {}): ResourceState => ({ urn: urn(name), type: "t:Thing", id: `id-${name}`, inputs: { n: name }, outputs: { n: name }, deps: [], ...over });
const same = (name: string, meta: Partial<Extract<PlanStep, { kind: "same" }>["meta"]> = {}, over: Partial<Extract<PlanStep, { kind: "same" }>> = {}): PlanStep =>
  ({ kind: "same", urn: urn(name), type: "t:Thing", deps: meta.deps ?? [], meta: { deps: [], protect: false, retainOnDelete: false, ...meta }, ...over }) as PlanStep;

/** What the prelude records for `steps` against `records`. */
function prelude(records: ResourceState[], steps: PlanStep[]): StateMutation[] {
  const written: StateMutation[] = [];
  const journal = { state: { resources: Object.fromEntries(records.map((r) => [r.urn, r])) }, mutate: (m: StateMutation[]) => void written.push(...m) } as unknown as JournalWriter;
  recordPrelude({ steps, refresh: [] } as unknown as Plan, journal);
  return written;
}

describe("recordPrelude", () => {
  it("writes nothing for unchanged resources whose record is already what the program says", () => {
    const a = record("a");
    const b = record("b", { deps: [urn("a")], secretKeys: ["n"] });
    expect(prelude([a, b], [same("a"), same("b", { deps: [urn("a")] })])).toEqual([]);
  });

  it("rewrites the record when the program changed its dependencies or options, or the record holds more", () => {
    const written = prelude(
      [record("deps"), record("protect"), record("unprotect", { protect: true }), record("empty-secrets", { secretKeys: [] }), record("tainted", { tainted: true })],
      [same("deps", { deps: [urn("x")] }), same("protect", { protect: true }), same("unprotect"), same("empty-secrets"), same("tainted")],
    );
    const byName = Object.fromEntries(written.map((m) => (m.kind === "upsert" ? [m.resource.urn.split("::").pop(), m.resource] : ["?", m])));
    expect(Object.keys(byName).sort()).toEqual(["deps", "empty-secrets", "protect", "tainted", "unprotect"]);
    expect(byName.deps!.deps).toEqual([urn("x")]);
    expect(byName.protect!.protect).toBe(true);
    expect("protect" in byName.unprotect!).toBe(false);
    expect("secretKeys" in byName["empty-secrets"]!).toBe(false);
    expect("tainted" in byName.tainted!).toBe(false);
  });

  it("moves a renamed resource's record to its new URN", () => {
    const written = prelude([record("old")], [same("new", {}, { movedFrom: urn("old") } as never)]);
    expect(written.map((m) => m.kind)).toEqual(["remove", "upsert"]);
  });
});

describe("publishWithoutActions", () => {
  const provider: Provider<{ name: string; password?: string }, { name: string; token: string }> = {
    async create({ inputs }) {
      return { id: inputs.name, outputs: { name: inputs.name, token: "t" } };
    },
    async read({ outputs }) {
      return outputs;
    },
    async delete() {},
  };
  const Vault = defineResource<{ name: string; password?: string }, { name: string; token: string }>("prelude:test:Vault", {
    provider,
    schema: { inputs: { name: {}, password: {} }, outputs: { name: {}, token: { secret: true } } },
  });

  /** The secret attributes of the value publishWithoutActions gives each resource of a program whose resources are all recorded and unchanged. */
  async function settledSecrets(records: (urnOf: (name: string) => Urn) => ResourceState[]): Promise<(name: string) => ReadonlySet<string>> {
    const spec = { name: "p", fn: () => void ["a", "b", "c"].map((n) => new Vault(n, { name: n })), location: { dir: ".", command: "npx tsx infra.ts" } };
    const graph = buildGraph((await evaluateProgram(spec, { stack: "s", config: {} })).nodes);
    const nodeOf = (name: string) => graph.order.find((n) => n.name === name)!;
    const journal = { state: { resources: Object.fromEntries(records((n) => nodeOf(n).urn).map((r) => [r.urn, r])) } } as unknown as JournalWriter;
    const values = new ValueResolver(undefined, undefined, graph.order.length);
    const plan = { steps: graph.order.map((n) => ({ kind: "same", urn: n.urn, type: n.type })) } as unknown as Plan;
    publishWithoutActions(graph.order, plan, new NodeTable(0), journal, values);
    return (name) => {
      let keys: ReadonlySet<string> | undefined;
      values.value(nodeOf(name)).subscribe((v) => (keys = v.secretKeys)); // published: delivered at once
      return keys!;
    };
  }

  it("gives unchanged resources their type's secret attributes, sharing one set, and a set of their own only for secrets they recorded", async () => {
    const set = await settledSecrets((urnOf) => [
      { urn: urnOf("a"), type: "prelude:test:Vault", id: "a", inputs: { name: "a" }, outputs: { name: "a", token: "t" }, deps: [] },
      { urn: urnOf("b"), type: "prelude:test:Vault", id: "b", inputs: { name: "b" }, outputs: { name: "b", token: "t" }, deps: [] },
      { urn: urnOf("c"), type: "prelude:test:Vault", id: "c", inputs: { name: "c", password: "pw" }, outputs: { name: "c", token: "t" }, deps: [], secretKeys: ["password"] },
    ]);
    expect([...set("a")]).toEqual(["token"]);
    expect(set("b")).toBe(set("a")); // the type's one set: not one per resource
    expect([...set("c")].sort()).toEqual(["password", "token"]);
    expect(set("c")).not.toBe(set("a"));
  });
});
