// The commands that change the cloud or plan to: preview, up, apply and destroy, each under the stack's lock.
import type { Urn } from "../core/urn.js";
import type { Plan } from "../plan/plan.js";
import { CairnError } from "./errors.js";
import { destroyVerdict, stackGraph } from "./readers.js";
import type { CallSignals, Confirm, DataLossOptions, RunOptions, UpResult } from "./options.js";
import { signalsOf } from "./signals.js";
import { isStateful } from "../plan/data-loss.js";
import { destroyPlan } from "./special-plans.js";
import { runRounds, type RoundSteps } from "./rounds.js";
import { confirmAndApply } from "./applying.js";
import { locked } from "./locked.js";
import { planAgainst, traced } from "./planning.js";
import type { RunContext } from "./run-context.js";
import { note, planFor } from "./stack-parts.js";

/**
 * Plans without changing anything; the plan is fingerprinted, so it can be applied later.
 * @example const plan = await preview(ctx, { refresh: true });
 */
export async function preview(ctx: RunContext, opts: RunOptions): Promise<Plan> {
  return locked(ctx, "preview", (state, idle) => planAgainst(ctx, state, opts, idle, true));
}

/**
 * Plans, asks `confirm` (default: yes), and applies exactly that plan, in rounds, all under one lock.
 * @example const result = await up(ctx, { confirm: async () => true });
 */
export async function up(ctx: RunContext, opts: RunOptions & DataLossOptions & { confirm?: Confirm }): Promise<UpResult> {
  if (opts.upstream?.length) throw new CairnError("up reads the outputs other stacks have committed: `upstream` plans are for preview only.");
  return locked(ctx, "up", async (state, idle) => {
    const plan = await planAgainst(ctx, state, opts, idle, false);
    return runRounds(plan, state, roundSteps(ctx, opts, idle));
  });
}

/**
 * Applies a plan made earlier by {@link preview}: exactly its steps, then the rounds it left for later.
 * @example const result = await apply(ctx, plan, { confirm });
 */
export async function apply(ctx: RunContext, plan: Plan, opts: { confirm?: Confirm } & DataLossOptions & CallSignals): Promise<UpResult> {
  return locked(ctx, "up", (state, idle) => {
    const later = (plan.deferred ?? []).filter((p) => p.kind !== "kept").length;
    if (later) note(ctx, "info", `This plan left ${later} part(s) for a later round (they wait for values known only during apply): after applying it, up plans and applies them in this run.`);
    return runRounds(plan, state, roundSteps(ctx, { ...opts, ...(plan.targets ? { targets: plan.targets } : {}) }, idle, false));
  });
}

/**
 * Plans the deletion of every resource in state (or `targets`), confirms and applies it; refused while
 * another stack reads this one's outputs, unless `force`.
 *
 * @example const result = await destroy(ctx, { confirm: async () => true });
 */
export async function destroy(ctx: RunContext, opts: { targets?: readonly Urn[]; confirm?: Confirm; force?: boolean } & CallSignals): Promise<UpResult> {
  if (!opts.targets?.length) {
    const verdict = destroyVerdict(await stackGraph(ctx.backend, ctx.access, { readOwn: false }), planFor(ctx), ctx.backend.url, opts.force ?? false);
    for (const w of verdict.warnings) note(ctx, "warning", w);
    if (verdict.error) throw new CairnError(verdict.error);
  }
  await ctx.evaluations.declareProviders();
  return locked(ctx, "destroy", async (state, idle) => {
    const plan = destroyPlan(planFor(ctx), state, opts.targets ?? [], (t, urn) => ctx.providers(t, urn) !== undefined, (t) => isStateful(ctx.definitions.find(t)?.schema));
    traced(ctx, plan);
    return (await confirmAndApply(ctx, plan, state, { confirm: opts.confirm, idle, ...signalsOf(opts) })).result;
  });
}

/**
 * How `up` runs its rounds: each later round plans against the state the last one left (no refresh: it
 * was just applied) and is confirmed as a round of its own.
 */
function roundSteps(ctx: RunContext, opts: RunOptions & DataLossOptions & { confirm?: Confirm } & CallSignals, idle: AbortSignal, madeHere = true): RoundSteps {
  const later: RunOptions = opts.targets ? { targets: opts.targets } : {};
  return {
    plan: (state) => planAgainst(ctx, state, later, idle, false),
    apply: (plan, state, round) => {
      const confirm = opts.confirm && ((p: Plan) => opts.confirm!(p, { round }));
      // A plan given to `apply` is matched to the program by its fingerprint; the rounds after it were planned here.
      const made = madeHere || round > 1 ? ctx.evaluations.latest?.runtime : undefined;
      return confirmAndApply(ctx, plan, state, { confirm, idle, made, round, ...(opts.allowDataLoss ? { allowDataLoss: opts.allowDataLoss } : {}), ...signalsOf(opts) });
    },
    note: (m) => note(ctx, "info", m),
    stopped: () => !!(ctx.options.signal?.aborted || opts.signal?.aborted),
    // A later round plans what earlier ones made known, which --target may leave out: one round only.
    ...(opts.targets?.length ? { oneRound: "Parts of the program wait for values known only during apply; with --target up runs one round: run up without --target to apply them." } : {}),
  };
}
