import { firstValueFrom, isObservable, map, race, timer } from "rxjs";
import type { Resolver, Resolvable } from "../program/resolver.js";
import type { PlanDiagnostic } from "./plan.js";
import { thrownMessage } from "../core/thrown.js";

/**
 * Errors the planner has reported already, by identity (what is thrown, and what it wraps): the failure of a
 * callback that also fed a resource is said once, with that resource, not again as an unused callback's.
 */
const reported = new WeakSet<object>();

/**
 * Notes that `e` (and what it wraps) was reported as a diagnostic already.
 *
 * @example markReported(e); ctx.diagnostics.push({ severity: "error", urn, summary: `Planning "b" failed: ${e.message}` });
 */
export function markReported(e: unknown): void {
  for (let x = e, i = 0; x && typeof x === "object" && i < 10; x = (x as { cause?: unknown }).cause, i++) reported.add(x);
}

/** How long planning gives an `apply` nothing uses to settle (one whose callback awaits something slow is left). */
const SETTLE_MS = 1000;

/**
 * Runs the `apply` callbacks the program made that nothing used (their results feed no input or output), on
 * values known while planning: a callback that fails — e.g. one that declares a resource — is reported
 * like any other, instead of never running and dropping what it declared without a word. Callbacks already
 * run while planning are not run again, and an error already reported is not reported twice.
 *
 * @example await runUnusedApplies(evaluation.applies, ctx.resolver, ctx.diagnostics);
 */
export async function runUnusedApplies(applies: readonly Resolvable[], resolver: Resolver, diagnostics: PlanDiagnostic[]): Promise<void> {
  // Most resolve at once (values planned are known): only the others are waited for.
  const pending = applies.flatMap((a) => {
    const now = a.resolveNow(resolver);
    return isObservable(now) ? [now] : [];
  });
  if (pending.length === 0) return;
  // All together, within one deadline: N slow callbacks cost one SETTLE_MS, not N.
  const deadline = timer(SETTLE_MS).pipe(map(() => undefined));
  const failures = await Promise.all(pending.map((now) => firstValueFrom(race(now.pipe(map(() => undefined)), deadline)).then(() => undefined, (e: unknown) => e)));
  for (const e of failures) {
    if (e === undefined || (typeof e === "object" && e !== null && reported.has(e))) continue;
    // The same failure from two callbacks is one diagnostic: the planner keeps one per key (see Diagnostics).
    diagnostics.push({ severity: "error", summary: `An apply() callback whose result nothing uses failed while planning: ${thrownMessage(e, "an apply() callback")}` });
  }
}
