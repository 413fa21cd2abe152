import type { Urn } from "../program/urn.js";
import type { Props } from "../state/types.js";

/** What a replace happens for: the attributes that force it, a tainted object, or `--replace`. */
export type ReplaceReason = "attributes" | "tainted" | "requested" | "replaceOnChanges";

/** State-only facts a step records along with its resource (they are not provider inputs). */
export interface StepMeta {
  parent?: Urn;
  deps: Urn[];
  protect: boolean;
  retainOnDelete: boolean;
}

interface StepBase {
  urn: Urn;
  type: string;
  /** URNs of the steps that must finish before this one. */
  deps: Urn[];
}

/**
 * One thing the engine will do, as plain data. The plan is a list of these; printing, serialising and
 * applying are all `switch (step.kind)`.
 */
export type PlanStep =
  | (StepBase & { kind: "create"; news: Props; secretKeys: string[]; meta: StepMeta; movedFrom?: Urn })
  | (StepBase & {
      kind: "update";
      id: string;
      olds: Props;
      news: Props;
      /** Prior outputs, given to the provider. */
      outputs: Props;
      changed: string[];
      secretKeys: string[];
      meta: StepMeta;
      movedFrom?: Urn;
    })
  | (StepBase & {
      kind: "replace";
      id: string;
      olds: Props;
      news: Props;
      outputs: Props;
      changed: string[];
      replaceKeys: string[];
      reason: ReplaceReason;
      deleteFirst: boolean;
      secretKeys: string[];
      meta: StepMeta;
      movedFrom?: Urn;
    })
  | (StepBase & {
      kind: "delete";
      id: string;
      olds: Props;
      outputs: Props;
      /** `retainOnDelete`: forget it, leave the cloud object. */
      retain: boolean;
      /** An old object left by an interrupted replace, not the resource's current one. */
      deposed: boolean;
      secretKeys: string[];
    })
  | (StepBase & { kind: "read"; id: string; deferred: boolean })
  | (StepBase & { kind: "same"; meta: StepMeta; movedFrom?: Urn });

/** The kinds of step. */
export type StepKind = PlanStep["kind"];

/** Every step kind, for exhaustiveness tests and summaries. */
export const STEP_KINDS: readonly StepKind[] = ["create", "update", "replace", "delete", "read", "same"];

/** A problem found while planning; errors stop the run after all of them are reported. */
export interface PlanDiagnostic {
  severity: "error" | "warning";
  message: string;
  urn?: Urn;
}

/**
 * A plan: plain, serialisable data. `up` applies exactly this, and refuses if the state's serial moved on.
 *
 * @example
 * const plan = await stack.preview();
 * plan.steps.filter(s => s.kind !== "same").length // number of changes
 */
export interface Plan {
  project: string;
  stack: string;
  /** The state serial the plan was made against. */
  baseSerial: number;
  /** `true` when the plan destroys everything (made by `destroy`). */
  destroy: boolean;
  steps: PlanStep[];
  /** Stack outputs as planned: values may hold unknowns. */
  outputs: Props;
  secretOutputs: string[];
  /** The stack outputs differ from those in state. */
  outputsChanged: boolean;
  diagnostics: PlanDiagnostic[];
}

/** True when applying the plan would change anything (cloud objects or state). */
export function hasChanges(plan: Plan): boolean {
  return plan.outputsChanged || plan.steps.some((s) => (s.kind === "same" ? s.movedFrom !== undefined : s.kind !== "read"));
}

/** Counts steps by kind. */
export function countSteps(steps: readonly PlanStep[]): Record<StepKind, number> {
  const c = Object.fromEntries(STEP_KINDS.map((k) => [k, 0])) as Record<StepKind, number>;
  for (const s of steps) c[s.kind]++;
  return c;
}
