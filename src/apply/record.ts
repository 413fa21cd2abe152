import type { PlanStep, StepMeta } from "../plan/plan.js";
import type { Urn } from "../core/urn.js";
import type { DeposedObject, Props, ResourceState } from "../state/types.js";

/** The cloud object a step ended with. */
export interface ObjectFacts {
  id: string;
  inputs: Props;
  outputs: Props;
  secretKeys: string[];
}

/**
 * The state record of a resource after a step: built whole from the step's facts and the object, never by
 * spreading the previous record, so an option removed from the program (protect, timeouts) is removed
 * from state too.
 *
 * @example recordFor(step.urn, step.type, step.meta, { id, inputs: news, outputs, secretKeys }, { deposed })
 */
export function recordFor(urn: Urn, type: string, meta: StepMeta, o: ObjectFacts, extra: { tainted?: boolean; deposed?: DeposedObject[] } = {}): ResourceState {
  const r: ResourceState = { urn, type, id: o.id, inputs: o.inputs, outputs: o.outputs, deps: meta.deps };
  if (o.secretKeys.length) r.secretKeys = o.secretKeys;
  if (meta.provider) r.provider = meta.provider;
  if (meta.parent) r.parent = meta.parent;
  if (meta.protect) r.protect = true;
  if (meta.retainOnDelete) r.retainOnDelete = true;
  if (meta.timeouts) r.timeouts = meta.timeouts;
  if (meta.triggers !== undefined) r.triggers = meta.triggers;
  if (meta.declaredIn) r.declaredIn = meta.declaredIn;
  if (extra.tainted) r.tainted = true;
  if (extra.deposed?.length) r.deposed = extra.deposed;
  return r;
}

/** The record of a resource whose object is unchanged (a `same` step): the object as recorded, the rest from the step. */
export function sameRecord(step: Extract<PlanStep, { kind: "same" }>, prior: ResourceState): ResourceState {
  const o = { id: prior.id, inputs: prior.inputs, outputs: prior.outputs, secretKeys: prior.secretKeys ?? [] };
  const r = recordFor(step.urn, step.type, step.meta, o, prior.deposed ? { deposed: prior.deposed } : {});
  // The object is unchanged, so the waits that held on it still do.
  if (prior.waitsHeld?.length) r.waitsHeld = prior.waitsHeld;
  // Unchanged, its inputs are still not the program's (only an apply of it records them).
  if (prior.inputsUnknown) r.inputsUnknown = true;
  return r;
}

/** The fields of a record that holds no option: {@link sameRecordIsPrior} answers for those alone. */
const PLAIN_RECORD = new Set(["urn", "type", "id", "inputs", "outputs", "deps", "secretKeys"]);
/** The fields of a step's meta that sets no option. */
const PLAIN_META = new Set(["deps", "protect", "retainOnDelete"]);

/**
 * True when `sameRecord(step, prior)` would be `prior` as it is, told without making it (building and
 * comparing every record would be most of a small change to a large stack): a record holding no option, nothing tainted or
 * deposed, of the same type and dependencies, for a step whose meta sets no option either. False whenever
 * it cannot tell so cheaply (any other field, on either side): then compare the whole record.
 *
 * @example if (!sameRecordIsPrior(step, prior) && !isDeepStrictEqual(sameRecord(step, prior), prior)) rewrite();
 */
export function sameRecordIsPrior(step: Extract<PlanStep, { kind: "same" }>, prior: ResourceState): boolean {
  const m = step.meta;
  if (m.protect || m.retainOnDelete) return false;
  for (const k in m) if (!PLAIN_META.has(k)) return false;
  for (const k in prior) if (!PLAIN_RECORD.has(k)) return false;
  if (prior.secretKeys !== undefined && prior.secretKeys.length === 0) return false; // recordFor leaves an empty list out
  if (prior.type !== step.type || prior.deps.length !== m.deps.length) return false;
  for (let i = 0; i < m.deps.length; i++) if (prior.deps[i] !== m.deps[i]) return false;
  return true;
}

/** The old object of a create-first replace, kept as deposed until its delete succeeds. */
export function deposedFrom(step: Extract<PlanStep, { kind: "replace" }>): DeposedObject {
  const d: DeposedObject = { id: step.id, inputs: step.olds, outputs: step.outputs, deps: step.prior.deps };
  if (step.secretKeys.length) d.secretKeys = step.secretKeys;
  if (step.prior.provider) d.provider = step.prior.provider;
  return d;
}

/** The record without one deposed object (deleted at last). */
export function withoutDeposed(r: ResourceState, id: string): ResourceState {
  const rest = (r.deposed ?? []).filter((d) => d.id !== id);
  const { deposed: _d, ...others } = r;
  return rest.length ? { ...others, deposed: rest } : others;
}
