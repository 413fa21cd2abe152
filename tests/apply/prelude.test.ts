import { describe, expect, it } from "vitest";
import { recordPrelude } from "../../src/apply/prelude.js";
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
