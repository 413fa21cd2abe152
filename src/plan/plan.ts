import type { Urn } from "../core/urn.js";
import type { Props, StateMutation } from "../state/types.js";
import type { DeclarationSite } from "../core/declaration-site.js";
import type { Diagnostic } from "../core/diagnostic.js";
import { STEP_KINDS, stepKindOf, type PlanStep, type StepKind } from "./steps/index.js";
import type { PlanMode } from "./steps/step-parts.js";

export type { DataLoss, ReplaceReason, StepMeta, StepBase, AdoptedObject, PriorObject } from "./steps/step-parts.js";
export type { PlanStep, StepKind, StepOf } from "./steps/index.js";
export { STEP_KINDS, isChanging } from "./steps/index.js";

/**
 * A problem found while planning, as every layer reports one (see {@link Diagnostic}); errors stop the run
 * after all of them are reported. The site, when set, is left out of saved plans and `--json`'s plan.
 *
 * @example plan.diagnostics.filter((d) => d.severity === "error").map((d) => d.summary)
 */
export type PlanDiagnostic = Diagnostic;

/**
 * What the stack knows of a plan besides what planning decides: which stack it is for, the state serial
 * and program it was made against, its mode, and what a refresh found.
 *
 * @example const head: PlanHead = { project: "web", stack: "dev", baseSerial: 4, fingerprint: "", mode: "destroy", refresh: [], drift: [] };
 */
export interface PlanHead {
  project: string;
  stack: string;
  /** The state serial the plan was made against. */
  baseSerial: number;
  /**
   * A hash of the evaluated program (resources, options, plain inputs, config): `up --plan` refuses another.
   * Empty for a plan only the run that made it applies (`up`, destroy, refresh-only), which needs none.
   */
  fingerprint: string;
  /** What the plan does: a normal update, a destroy, or only recording what a refresh found. */
  mode: PlanMode;
  /** What a refresh found (`--refresh`, `--refresh-only`): recorded in state before any step runs. */
  refresh: StateMutation[];
  /** Drift a refresh found, for display. */
  drift: DriftFinding[];
}

/**
 * What planning decides: the steps, the stack outputs as planned, the problems found, and what is left for
 * a later round. The planner returns one; a destroy or refresh-only plan has its own.
 *
 * @example const body: PlanBody = { steps: [], outputs: {}, secretOutputs: [], outputsChanged: false, diagnostics: [] };
 */
export interface PlanBody {
  steps: PlanStep[];
  /** Stack outputs as planned: values may hold unknowns. */
  outputs: Props;
  secretOutputs: string[];
  /** The stack outputs differ from those in state. */
  outputsChanged: boolean;
  /**
   * Why an output is not known yet, when it is a wait that has not held: `{ url: "waits for healthy, which
   * has not held yet" }`. Absent when there is none.
   */
  outputNotes?: Record<string, string>;
  diagnostics: PlanDiagnostic[];
  /**
   * What this plan leaves for a later round because it waits for a value known only during apply (see
   * {@link DeferredPart}); absent or empty when the plan is complete.
   */
  deferred?: DeferredPart[];
  /**
   * Values whose `apply` callbacks could not be run on stand-ins while planning (they failed there), so
   * whether they declare resources is not known: `up` plans once more after applying this plan.
   */
  unforeseen?: string[];
  /** The `--target` URNs the plan was made for (a saved plan applies them as they were). */
  targets?: Urn[];
}

/**
 * A plan: plain, serialisable data. `up` applies exactly this, and refuses if the state's serial moved on.
 * Every plan is made by `newPlan`, whole: its head from the stack, its body from planning.
 *
 * @example
 * const plan = await stack.preview();
 * plan.steps.filter(s => s.kind !== "same").length // number of changes
 */
export interface Plan extends PlanHead, PlanBody {
  /** Format version of this data (saved plans are refused by a Cairn that does not know it). */
  version: typeof PLAN_FORMAT_VERSION;
}

/**
 * The plan of `head` and `body`, in this build's format: the one way a {@link Plan} is made. Optional parts
 * a body leaves out stay absent (a saved plan and `--json` show only what there is).
 *
 * @example newPlan({ project: "web", stack: "dev", baseSerial: 4, fingerprint: "", mode: "update", refresh: [], drift: [] }, await planProgram(input))
 */
export function newPlan(head: PlanHead, body: PlanBody): Plan {
  const { outputNotes, deferred, unforeseen, targets } = body;
  return {
    version: PLAN_FORMAT_VERSION,
    project: head.project,
    stack: head.stack,
    baseSerial: head.baseSerial,
    fingerprint: head.fingerprint,
    mode: head.mode,
    refresh: head.refresh,
    drift: head.drift,
    steps: body.steps,
    outputs: body.outputs,
    secretOutputs: body.secretOutputs,
    outputsChanged: body.outputsChanged,
    ...(outputNotes && Object.keys(outputNotes).length ? { outputNotes } : {}),
    diagnostics: body.diagnostics,
    ...(deferred?.length ? { deferred } : {}),
    ...(unforeseen?.length ? { unforeseen } : {}),
    ...(targets?.length ? { targets } : {}),
  };
}

/**
 * A part of the program a plan cannot plan yet, because it waits for a value only the apply makes known:
 * `declared`, a resource an `apply` callback will declare; `node`, a resource, wait or lookup the program
 * declared that reads such a callback's result; `kept`, an object a callback declared in an earlier run,
 * kept (not deleted) until the callback runs again. `up` plans and applies them in its next round.
 *
 * @example { kind: "declared", type: "aws:route53:RecordSet", name: "validation-a.example.dev", waitsFor: "cert.domainValidationOptions" }
 */
export interface DeferredPart {
  kind: "declared" | "node" | "kept";
  type: string;
  /** Known unless it depends on the unknown value (then `pattern` shows it: `validation-…`). */
  name?: string;
  pattern?: string;
  /** Known for `node` and `kept`, and for `declared` when its name is. */
  urn?: Urn;
  /** The value it waits for, as the program names it. */
  waitsFor: string;
  site?: DeclarationSite;
}

/** True when a plan leaves parts for a later round (see {@link DeferredPart}). */
export function isPartial(plan: Plan): boolean {
  return (plan.deferred?.length ?? 0) > 0;
}

/** The version of the plan format this build writes and applies. */
export const PLAN_FORMAT_VERSION = 1;

/** A difference between state and the cloud, found by a refresh. */
export type DriftFinding =
  | { kind: "gone"; urn: Urn; type: string }
  | { kind: "drift"; urn: Urn; type: string; changed: string[] };

/** True when applying the plan would change anything (cloud objects or state). */
export function hasChanges(plan: Plan): boolean {
  return isPartial(plan) || plan.outputsChanged || plan.refresh.length > 0 || plan.steps.some((s) => stepKindOf(s).changes(s));
}

/**
 * True when the plan changes something beyond recording what a refresh observed of properties the program
 * does not declare (a status): what `preview --expect-no-changes` checks. Drift of a declared property, an
 * object gone, and every step that changes anything count.
 *
 * @example if (opts.expectNoChanges && changesBeyondObserved(plan)) process.exitCode = 1;
 */
export function changesBeyondObserved(plan: Plan): boolean {
  return isPartial(plan) || plan.outputsChanged || plan.drift.length > 0 || plan.steps.some((s) => stepKindOf(s).changes(s));
}

/**
 * The state records a refresh updates with what it observed (before any step runs). When nothing else
 * changes ({@link changesBeyondObserved} is false) they are all there is: recorded, nothing to apply.
 *
 * @example refreshRecords(await stack.preview({ refresh: true })) // 1: a status moved on
 */
export function refreshRecords(plan: Plan): number {
  return plan.refresh.filter((m) => m.kind === "upsert").length;
}

/** Counts steps by kind. */
export function countSteps(steps: readonly PlanStep[]): Record<StepKind, number> {
  const c = Object.fromEntries(STEP_KINDS.map((k) => [k, 0])) as Record<StepKind, number>;
  for (const s of steps) c[s.kind]++;
  return c;
}

/** One wait's "ready now?" answer: does `until` hold on the last known state (no reads, no waiting)? */
export interface WaitReadiness {
  urn: Urn;
  name: string;
  /** null when the target's state is not known yet (it is being created or replaced). */
  ready: boolean | null;
  /** Whether the wait will run in this plan. */
  needed: boolean;
}

/**
 * Evaluates every wait of a plan once against the last known state, without waiting: which are already
 * satisfied. `preview --json` reports it as `waits`.
 *
 * @example waitsReadyNow(await stack.preview()) // [{ urn, name: "issued", ready: true, needed: false }]
 */
export function waitsReadyNow(plan: Plan): WaitReadiness[] {
  const out: WaitReadiness[] = [];
  for (const s of plan.steps) if (s.kind === "wait") out.push({ urn: s.urn, name: s.name, ready: s.readyNow, needed: s.needed });
  return out;
}
