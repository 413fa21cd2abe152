import type { Plan } from "../plan/plan.js";
import { stepKindOf } from "../plan/steps/index.js";
import { execute, type ProgramRuntime } from "../apply/executor.js";
import type { StackState } from "../state/types.js";
import { CairnError } from "./errors.js";
import { runSignals, type ApplyControl } from "./signals.js";
import { planHasSecrets, planSecrets } from "./plan-secrets.js";
import { refuseUnfitPlan } from "./plan-fits.js";
import type { Round } from "./rounds.js";
import { opContext } from "./op-context.js";
import { planAgainst } from "./planning.js";
import type { RunContext } from "./run-context.js";
import { note, planFor } from "./stack-parts.js";
import { DEFAULT_PARALLEL } from "./options.js";
import { refuseDataLoss } from "./data-loss.js";

/** The evaluated program a plan was made from: this process's, or a fresh evaluation that must match. */
async function runtimeFor(ctx: RunContext, plan: Plan, state: StackState, idle: AbortSignal): Promise<ProgramRuntime | undefined> {
  if (plan.mode !== "update") return undefined;
  const { evaluations } = ctx;
  let known = evaluations.latest?.fingerprint() === plan.fingerprint ? evaluations.latest : await evaluations.prepare();
  if (plan.steps.some((s) => stepKindOf(s).inProgram && !known.runtime.nodeByUrn.has(s.urn))) {
    // Steps of resources `apply` callbacks declare: planning again (nothing is applied) lets the callbacks
    // declare them, so they are compared with the plan, and their values resolved like any other's.
    await planAgainst(ctx, state, {}, idle, false);
    known = evaluations.latest!;
  }
  if (known.fingerprint() !== plan.fingerprint) {
    throw new CairnError(`The program changed since this plan was made (its resources, options, inputs or config differ); nothing was applied. Run preview again and apply the new plan.`);
  }
  return known.runtime;
}

/**
 * Checks, confirms and applies a plan, with the state it leaves (for the next round of `up`); `run.made` is
 * the evaluation it was just made from (else found by fingerprint).
 *
 * @example const { result, state: after } = await confirmAndApply(ctx, plan, state, { confirm, idle });
 */
export async function confirmAndApply(ctx: RunContext, plan: Plan, state: StackState, run: ApplyControl): Promise<Round> {
  const { confirm, idle, made } = run;
  const signals = runSignals(ctx.options, run);
  planSecrets(plan, ctx.secrets);
  refuseUnfitPlan(plan, state, planFor(ctx));
  const program = plan.mode === "update" && made ? made : await runtimeFor(ctx, plan, state, idle);
  // Destroy is the user asking for every object to go: its plan marks data loss, and is not refused for it.
  if (plan.mode === "update") {
    const unused = refuseDataLoss(plan, { allow: run.allowDataLoss ?? [], program, round: run.round ?? 1 });
    if (unused.length && (run.round ?? 1) === 1) note(ctx, "warning", `--allow-data-loss ${unused.join(", ")}: no step of this plan replaces or deletes a stateful resource of that name or URN.`);
  }
  if (confirm && !(await confirm(plan))) return { result: { plan }, state };
  if (signals.stopStarting?.aborted) {
    note(ctx, "warning", "Cancelled before anything was applied: nothing was changed.");
    return { result: { plan }, state };
  }
  if (planHasSecrets(plan)) await ctx.backend.requirePassphrase();
  const journal = await ctx.backend.openJournal(state);
  const { summary, outputs } = await execute({
    plan, journal, clock: ctx.clock, events: ctx.sink, secrets: ctx.secrets, opContext: (urn, bounds) => opContext(ctx, urn, bounds), instances: ctx.evaluations.live,
    parallel: ctx.options.parallel ?? DEFAULT_PARALLEL, signals, providers: ctx.providers,
    ...(ctx.options.retryDeadline !== undefined ? { retryDeadlineMs: ctx.options.retryDeadline } : {}),
    ...(program ? { program } : {}),
  });
  const after = await journal.compact();
  await journal.close();
  return { result: { plan, summary, stateBytesWritten: journal.bytesWritten, ...(outputs ? { outputs: outputs.values, secretOutputs: outputs.secretKeys } : {}) }, state: after };
}
