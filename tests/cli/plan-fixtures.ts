import type { Plan, PlanStep, StepMeta } from "../../src/plan/plan.js";
import type { Urn } from "../../src/core/urn.js";

/** A URN in the test project. */
export const urn = (type: string, name: string) => `urn:cairn:dev::app::${type}::${name}` as Urn;

const meta: StepMeta = { deps: [], protect: false, retainOnDelete: false };

/** Plan steps as plain data, with defaults for what a test does not care about. */
export const step = {
  create: (name: string, news: Record<string, unknown>, o: Partial<Extract<PlanStep, { kind: "create" }>> = {}): PlanStep => ({ kind: "create", urn: urn("t:Thing", name), type: "t:Thing", deps: [], news, secretKeys: [], meta, ...o }),
  update: (name: string, olds: Record<string, unknown>, news: Record<string, unknown>, changed: string[], o: Partial<Extract<PlanStep, { kind: "update" }>> = {}): PlanStep => ({
    kind: "update", urn: urn("t:Thing", name), type: "t:Thing", deps: [], id: `id-${name}`, olds, news, outputs: { ...olds }, changed, drift: [], secretKeys: [], meta, prior: { deps: [] }, ...o,
  }),
  replace: (name: string, olds: Record<string, unknown>, news: Record<string, unknown>, o: Partial<Extract<PlanStep, { kind: "replace" }>> = {}): PlanStep => ({
    kind: "replace", urn: urn("t:Thing", name), type: "t:Thing", deps: [], id: `id-${name}`, olds, news, outputs: { ...olds }, changed: [], drift: [], replaceKeys: [], reason: "attributes", deleteFirst: false, secretKeys: [], meta, prior: { deps: [] }, ...o,
  }),
  delete: (name: string, olds: Record<string, unknown>, o: Partial<Extract<PlanStep, { kind: "delete" }>> = {}): PlanStep => ({
    kind: "delete", urn: urn("t:Thing", name), type: "t:Thing", deps: [], id: `id-${name}`, olds, outputs: olds, retain: false, deposed: false, secretKeys: [], prior: { deps: [] }, ...o,
  }),
};

/** A plan around the given steps. */
export function planOf(steps: PlanStep[], o: Partial<Plan> = {}): Plan {
  return { version: 1, project: "app", stack: "dev", baseSerial: 1, fingerprint: "", mode: "update", refresh: [], drift: [], steps, outputs: {}, secretOutputs: [], outputsChanged: false, diagnostics: [], ...o };
}
