import type { ApplySummary, EngineEvent } from "../apply/events.js";
import type { ActionKind } from "../plan/actions.js";
import type { WaitOutcome, WaitOutcomeKind } from "../wait/outcome.js";
import { hasChanges, type Plan, type PlanDiagnostic, type PlanStep, type ReplaceReason, type StepKind, type DataLoss } from "../plan/plan.js";
import { nameOf, type Urn } from "../core/urn.js";
import type { Props, StackState } from "../state/types.js";
import type { MockCall } from "./mock-table.js";
import { acts, stepKindOf, stepName } from "../plan/steps/index.js";
import { UserError } from "../core/diagnostic.js";

/**
 * One step of a plan, flattened for assertions: `{ name: "cert", op: "create", inputs: {…} }`. Values not
 * known until apply are `UNKNOWN` (from `cairn`).
 */
export interface TestStep {
  /** The resource's name; for a wait, its display name (its `name` option, else `wait(<target>)`). */
  name: string;
  op: StepKind;
  type: string;
  urn: Urn;
  /** The inputs the resource will have (create, update, replace). */
  inputs?: Props;
  /** The inputs it has now (update, replace, delete). */
  before?: Props;
  /** Attributes that change (update, replace). */
  changed?: string[];
  /** Attributes that force the replace. */
  replaceKeys?: string[];
  /** Why a replace happens. */
  reason?: ReplaceReason;
  /** The old object is deleted before the new one is created. */
  deleteFirst?: boolean;
  /**
   * A replace or delete that deletes a stateful object with its data: `{ allowed }` says whether the program
   * allows it (`allowDataLoss: true`); `up` refuses it otherwise, unless `allowDataLoss` names the resource.
   */
  dataLoss?: DataLoss;
  /** A wait: whether it runs in this plan. */
  needed?: boolean;
  /** A wait: why it runs, or why it is not needed. */
  why?: string;
  /** A wait: its `until` condition as text (`cert.status == "ISSUED"`). */
  until?: string;
  /** A wait: its timeout. */
  timeoutMs?: number;
  /** A read: done during apply rather than while planning. */
  deferred?: boolean;
  /** The engine's step, unchanged. */
  raw: PlanStep;
}

/**
 * A plan as a test sees it: plain data (`toMatchObject` works on every part) plus `step(name, op?)` to pick one
 * step or fail listing them.
 */
export interface TestPlan {
  steps: TestStep[];
  /** What the plan does, one `"<op> <name>"` per step that changes something or runs (`"create cert"`, `"wait issued"`). */
  changes: string[];
  /** The stack outputs as planned (values not known yet are `UNKNOWN`). */
  outputs: Props;
  /** Whether applying it would change anything. */
  hasChanges: boolean;
  diagnostics: PlanDiagnostic[];
  /** The engine's plan, unchanged (it can be applied with `run.stack.apply(plan)`). */
  plan: Plan;
  /** The step of resource `name` (and kind `op`); throws listing the plan's steps when there is none. */
  step(name: string, op?: StepKind): TestStep;
}

/**
 * How a wait ended, flattened: `{ outcome: "satisfied", reads: 2, elapsedMs: 30000, … }`. `"not-needed"` is a
 * wait the plan skipped (nothing around it changed); it made no reads.
 */
export type TestWait = {
  outcome: WaitOutcomeKind | "not-needed";
  urn: Urn;
  /** The outcome as the CLI prints it (`wait "issued" timed out after 75m0s: …`). */
  message: string;
  /** The engine's outcome, unchanged (absent for `"not-needed"`). */
  detail?: WaitOutcome;
  reads?: number;
  elapsedMs?: number;
} & Record<string, unknown>;

/** A step that failed: the resource, the operation, and the provider's error message. */
export interface TestFailure {
  resource: string;
  urn: Urn;
  op: ActionKind;
  /** What went wrong, without where. */
  error: string;
  /** Where the program declared the resource (`infra.ts:12:3`), when known. */
  site?: string;
}

/** A resource as the state holds it after a run. */
export interface TestResource {
  urn: Urn;
  type: string;
  id: string;
  inputs: Props;
  outputs: Props;
}

/** What `run.up()` and `run.destroy()` return: everything a test asserts on, as plain data. */
export interface TestUpResult {
  /** True when every step succeeded. */
  ok: boolean;
  /** The plan that was applied. */
  plan: TestPlan;
  /** The stack outputs after the run. */
  outputs: Props;
  /** Every resource in state after the run, by name (by URN when two share a name). */
  resources: Record<string, TestResource>;
  /** The inputs each resource's provider received in this run (its last create or update), by name. */
  inputs: Record<string, Props>;
  /** How each wait ended, by name (its `name` option, else `wait(<target>)`). */
  waits: Record<string, TestWait>;
  /** The steps that failed. */
  failures: TestFailure[];
  /** The engine events of this run, in order. */
  events: EngineEvent[];
  /** The mocked provider calls of this run, in order. */
  calls: MockCall[];
  /** The state after the run: start another run from it with `up({ from: result.state })`. */
  state: StackState;
  summary?: ApplySummary;
}


/** Which field of a step each optional {@link TestStep} field is, when the step has it. */
const TEST_FIELDS = {
  inputs: "news", before: "olds", changed: "changed", replaceKeys: "replaceKeys", reason: "reason", deleteFirst: "deleteFirst", dataLoss: "dataLoss",
  deferred: "deferred", needed: "needed", why: "why", until: "untilText", timeoutMs: "timeoutMs",
} as const satisfies Partial<Record<keyof TestStep, string>>;

function flatten(s: PlanStep): TestStep {
  const out: Record<string, unknown> = { name: stepName(s), op: s.kind, type: s.type, urn: s.urn, raw: s };
  for (const [field, from] of Object.entries(TEST_FIELDS)) if (from in s) out[field] = (s as unknown as Record<string, unknown>)[from];
  return out as unknown as TestStep;
}

/**
 * The plan as test data.
 *
 * @example toTestPlan(await stack.preview()).changes // ["create cert", "wait issued"]
 */
export function toTestPlan(plan: Plan): TestPlan {
  const steps = plan.steps.map(flatten);
  const out = {
    steps,
    changes: plan.steps.filter(acts).map((s) => `${s.kind} ${stepName(s)}`),
    outputs: plan.outputs,
    hasChanges: hasChanges(plan),
    diagnostics: plan.diagnostics,
    plan,
  };
  // Not enumerable: the plan stays plain data for toEqual and snapshots.
  Object.defineProperty(out, "step", {
    enumerable: false,
    value: (name: string, op?: StepKind): TestStep => {
      const found = steps.find((s) => s.name === name && (op === undefined || s.op === op));
      if (found) return found;
      const all = steps.map((s) => `${s.op} ${s.name}`).join(", ") || "none";
      throw new UserError(`The plan has no ${op ? `${op} step` : "step"} for "${name}"; its steps: ${all}.`);
    },
  });
  return out as TestPlan;
}

/** Items keyed by resource name, or by URN where two share a name. */
export function byName<T>(items: readonly { urn: Urn; value: T }[]): Record<string, T> {
  const counts = new Map<string, number>();
  for (const { urn } of items) counts.set(nameOf(urn), (counts.get(nameOf(urn)) ?? 0) + 1);
  const out: Record<string, T> = {};
  for (const { urn, value } of items) out[counts.get(nameOf(urn))! > 1 ? urn : nameOf(urn)] = value;
  return out;
}

/** How each wait of the plan ended (from the run's `wait-ended` events), or `not-needed`. */
function waitsOf(plan: Plan, events: readonly EngineEvent[]): Record<string, TestWait> {
  const out: Record<string, TestWait> = {};
  for (const s of plan.steps) {
    const why = stepKindOf(s).notNeeded?.(s);
    if (why !== undefined) out[stepName(s)] = { outcome: "not-needed", urn: s.urn, message: why, reads: 0 };
  }
  for (const e of events) {
    if (e.type !== "wait-ended") continue;
    const { kind, ...details } = e.outcome;
    out[e.name] = { ...details, outcome: kind, urn: e.urn, message: e.message, detail: e.outcome };
  }
  return out;
}

/** The inputs each provider received in this run: its last create or update. */
function inputsOf(calls: readonly MockCall[]): Record<string, Props> {
  const last = new Map<Urn, Props>();
  for (const c of calls) if ((c.op === "create" || c.op === "update") && c.inputs) last.set(c.urn, c.inputs);
  return byName([...last].map(([urn, value]) => ({ urn, value })));
}

/** Everything a test asserts on after an apply, from the plan, the run's events and calls, and the state after. */
export function toTestUpResult(plan: Plan, summary: ApplySummary | undefined, events: EngineEvent[], calls: MockCall[], state: StackState): TestUpResult {
  const failures: TestFailure[] = events.flatMap((e) => (e.type === "step-failed" ? [{ resource: nameOf(e.urn), urn: e.urn, op: e.kind, error: e.error, ...(e.site ? { site: e.site } : {}) }] : []));
  const resources = byName(
    Object.values(state.resources).map((r) => ({ urn: r.urn, value: { urn: r.urn, type: r.type, id: r.id, inputs: r.inputs, outputs: r.outputs } })),
  );
  return {
    ok: summary?.ok ?? false,
    plan: toTestPlan(plan),
    outputs: state.outputs,
    resources,
    inputs: inputsOf(calls),
    waits: waitsOf(plan, events),
    failures,
    events,
    calls,
    state,
    ...(summary ? { summary } : {}),
  };
}
