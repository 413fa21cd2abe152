import { firstValueFrom, isObservable, map, race, timer } from "rxjs";
import type { Output, Resolver } from "../program/output.js";
import type { PlanDiagnostic } from "./plan.js";

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
export async function runUnusedApplies(applies: readonly Output<unknown>[], resolver: Resolver, diagnostics: PlanDiagnostic[]): Promise<void> {
  for (const a of applies) {
    const now = a.settle(resolver);
    if (!isObservable(now)) continue; // settled already (most are: values planned are known at once)
    try {
      await firstValueFrom(race(now.pipe(map(() => undefined)), timer(SETTLE_MS).pipe(map(() => undefined))));
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      if (diagnostics.some((d) => d.message.includes(message))) continue;
      diagnostics.push({ severity: "error", message: `An apply() callback whose result nothing uses failed while planning: ${message}` });
    }
  }
}
