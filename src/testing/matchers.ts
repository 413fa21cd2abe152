import type { WaitOutcomeKind } from "../wait/outcome.js";
import type { Plan, StepKind } from "../plan/plan.js";
import { toTestPlan, type TestPlan, type TestUpResult, type TestWait } from "./results.js";

/** What a matcher returns to `expect.extend` (vitest and Jest alike). */
export interface MatcherResult {
  /** Whether the expectation holds. */
  pass: boolean;
  /** Why it failed (or, under `.not`, why it passed). */
  message: () => string;
}

/** The typed matchers `cairn-iac/testing/vitest` adds to `expect(...)`. */
export interface CairnMatchers<R = unknown> {
  /** The plan (or a run's plan) has a step for resource or wait `name`, of kind `op` when given. */
  toHaveStep(name: string, op?: StepKind): R;
  /** The run's wait `name` ended with `outcome` (`"satisfied"`, `"timed-out"`, …, or `"not-needed"`). */
  toHaveWaitOutcome(name: string, outcome: WaitOutcomeKind | "not-needed"): R;
  /** The run has a failed step for `resource`, whose error contains or matches `message` when given. */
  toHaveFailed(resource: string, message?: string | RegExp): R;
}

function planOf(received: unknown): TestPlan | undefined {
  if (!received || typeof received !== "object") return undefined;
  const r = received as Partial<TestUpResult & TestPlan & Plan>;
  if (Array.isArray(r.changes) && typeof r.step === "function") return r as TestPlan;
  if (r.plan && typeof r.plan === "object" && "changes" in r.plan) return r.plan as TestPlan;
  if (Array.isArray(r.steps) && typeof r.version === "number") return toTestPlan(r as Plan);
  return undefined;
}

function resultOf(received: unknown, matcher: string): TestUpResult {
  if (received && typeof received === "object" && "waits" in received && "failures" in received) return received as TestUpResult;
  throw new TypeError(`${matcher} takes the result of run.up() (or run.destroy()); got ${received === null ? "null" : typeof received}.`);
}

/**
 * The matchers as plain functions, for `expect.extend(cairnMatchers)` in vitest or Jest; `import
 * "cairn-iac/testing/vitest"` does that for vitest, with types. Plain objects and `toMatchObject` work without them.
 *
 * @example
 * import { expect } from "vitest";
 * expect.extend(cairnMatchers);
 * expect(await run.preview()).toHaveStep("cert", "create");
 */
export const cairnMatchers = {
  /** The plan (or a run's plan) has a step for `name`, of kind `op` when given. */
  toHaveStep(received: unknown, name: string, op?: StepKind): MatcherResult {
    const plan = planOf(received);
    if (!plan) throw new TypeError(`toHaveStep takes a plan (run.preview()) or a run's result (run.up()).`);
    const pass = plan.steps.some((s) => s.name === name && (op === undefined || s.op === op));
    const all = plan.steps.map((s) => `${s.op} ${s.name}`).join(", ") || "none";
    const what = `${op ? `a ${op} step` : "a step"} for "${name}"`;
    return { pass, message: () => (pass ? `expected the plan not to have ${what}` : `expected the plan to have ${what}; its steps: ${all}`) };
  },

  /** The run's wait `name` ended with `outcome`. */
  toHaveWaitOutcome(received: unknown, name: string, outcome: WaitOutcomeKind | "not-needed"): MatcherResult {
    const w: TestWait | undefined = resultOf(received, "toHaveWaitOutcome").waits[name];
    const pass = w?.outcome === outcome;
    const names = Object.keys(resultOf(received, "toHaveWaitOutcome").waits).join(", ") || "none";
    return {
      pass,
      message: () =>
        pass ? `expected wait "${name}" not to end ${outcome}` : w ? `expected wait "${name}" to end ${outcome}, but it ended ${w.outcome}: ${w.message}` : `the run has no wait "${name}"; its waits: ${names}`,
    };
  },

  /** The run has a failed step for `resource`, whose error contains or matches `message` when given. */
  toHaveFailed(received: unknown, resource: string, message?: string | RegExp): MatcherResult {
    const r = resultOf(received, "toHaveFailed");
    const ok = (e: string) => message === undefined || (typeof message === "string" ? e.includes(message) : message.test(e));
    const pass = r.failures.some((f) => f.resource === resource && ok(f.error));
    const seen = r.failures.map((f) => `${f.op} ${f.resource}: ${f.error}`).join("; ") || "no failures";
    return { pass, message: () => (pass ? `expected "${resource}" not to have failed` : `expected "${resource}" to have failed${message ? ` with ${String(message)}` : ""}; the run had ${seen}`) };
  },
};
