import type { ActionKind } from "../plan/actions.js";
import type { WaitOutcomeKind } from "../wait/outcome.js";
import type { TestFailure, TestUpResult, TestWait } from "./results.js";

/** What {@link expectFailure} looks for; every field given must match. */
export interface FailureExpectation {
  /** The resource (or wait) whose step failed, by name. */
  resource?: string;
  /** The operation that failed (`create`, `update`, `delete`, `wait`, …). */
  op?: ActionKind;
  /** Text the error contains, or a pattern it matches. */
  message?: string | RegExp;
}

/** Thrown by the `expect…` helpers when the run did not do what the test expected. */
export class TestExpectationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TestExpectationError";
  }
}

const matches = (text: string, want: string | RegExp | undefined) => want === undefined || (typeof want === "string" ? text.includes(want) : want.test(text));

function describe(want: FailureExpectation): string {
  const parts = [want.resource ? `resource "${want.resource}"` : "", want.op ? `op ${want.op}` : "", want.message ? `message ${String(want.message)}` : ""].filter(Boolean);
  return parts.length ? parts.join(", ") : "any failure";
}

function isResult(v: unknown): v is TestUpResult {
  return v !== null && typeof v === "object" && "failures" in v && "waits" in v && "ok" in v;
}

/**
 * Asserts that a run failed as expected, and returns the failure: a step that failed (the run resolved with
 * `ok: false`), or the error the run rejected with (a plan error, a missing mock). Fails the test, listing what
 * did happen, when the run succeeded or failed otherwise.
 *
 * @example
 * const run = await testProgram(app, { mocks: { "aws:acm:Certificate": mocks.resource({ fail: { create: "AccessDenied" } }) } });
 * await expectFailure(run.up(), { resource: "cert", message: /AccessDenied/ });
 */
export async function expectFailure(run: TestUpResult | Promise<unknown>, want: FailureExpectation = {}): Promise<TestFailure | Error> {
  let result: unknown;
  try {
    result = await run;
  } catch (e) {
    const err = e instanceof Error ? e : new Error(String(e));
    const text = err.message;
    if (matches(text, want.message) && (want.resource === undefined || text.includes(want.resource)) && want.op === undefined) return err;
    throw new TestExpectationError(`Expected the run to fail with ${describe(want)}, but it was refused with another error:\n${text}`);
  }
  if (!isResult(result)) throw new TestExpectationError(`expectFailure takes run.up(), run.destroy() or their result; it got ${typeof result}.`);
  const found = result.failures.find((f) => (want.resource === undefined || f.resource === want.resource) && (want.op === undefined || f.op === want.op) && matches(f.error, want.message));
  if (found) return found;
  if (result.ok) throw new TestExpectationError(`Expected the run to fail with ${describe(want)}, but it succeeded (${result.plan.changes.join(", ") || "no changes"}).`);
  const seen = result.failures.map((f) => `  - ${f.op} ${f.resource}: ${f.error}${f.site ? ` (at ${f.site})` : ""}`).join("\n");
  throw new TestExpectationError(`Expected a failure with ${describe(want)}; the run failed with:\n${seen}`);
}

/** The wait named `name` of a result, or a failure listing the waits it has. */
function waitOf(result: TestUpResult, name: string): TestWait {
  const w = result.waits[name];
  if (w) return w;
  const names = Object.keys(result.waits).map((n) => `"${n}"`).join(", ") || "none";
  throw new TestExpectationError(`The run has no wait named "${name}"; its waits: ${names}. (A wait is named by its name option, else wait(<target>).)`);
}

function checkWait(result: TestUpResult, name: string, kind: WaitOutcomeKind): TestWait {
  const w = waitOf(result, name);
  if (w.outcome !== kind) throw new TestExpectationError(`Expected wait "${name}" to end ${kind}, but it ended ${w.outcome}: ${w.message}`);
  return w;
}

/** Checks a result at once; a promise of one is checked when it resolves. */
function expectWait(run: TestUpResult | Promise<TestUpResult>, name: string, kind: WaitOutcomeKind): TestWait | Promise<TestWait> {
  return run instanceof Promise ? run.then((r) => checkWait(r, name, kind)) : checkWait(run, name, kind);
}

/**
 * Asserts that the wait `name` timed out, and returns its outcome (`reads`, `elapsedMs`, last `observed`).
 * Given a result it checks at once; given `run.up()` it returns a promise to await.
 *
 * @example
 * const result = await run.up();
 * const w = expectWaitTimedOut(result, "issued");
 * expect(w.elapsedMs).toBe(minutes(75));
 */
export function expectWaitTimedOut(result: TestUpResult, name: string): TestWait;
export function expectWaitTimedOut(run: Promise<TestUpResult>, name: string): Promise<TestWait>;
export function expectWaitTimedOut(run: TestUpResult | Promise<TestUpResult>, name: string): TestWait | Promise<TestWait> {
  return expectWait(run, name, "timed-out");
}

/**
 * Asserts that the wait `name` failed (its `failWhen`, or the type's failure states, held), and returns its
 * outcome (`condition`, `reason`, `observed`). Given a result it checks at once; given `run.up()`, a promise.
 *
 * @example expectWaitFailed(await run.up(), "issued").reason // "CAA_ERROR"
 */
export function expectWaitFailed(result: TestUpResult, name: string): TestWait;
export function expectWaitFailed(run: Promise<TestUpResult>, name: string): Promise<TestWait>;
export function expectWaitFailed(run: TestUpResult | Promise<TestUpResult>, name: string): TestWait | Promise<TestWait> {
  return expectWait(run, name, "failed");
}
