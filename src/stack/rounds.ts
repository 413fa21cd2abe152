import type { ApplySummary } from "../apply/events.js";
import { hasChanges, isPartial, type DeferredPart, type Plan } from "../plan/plan.js";
import { acts, deletesOrReplaces } from "../plan/steps/index.js";
import type { StackState } from "../state/types.js";
import { CairnError } from "./errors.js";
import type { UpResult } from "./options.js";

/** One round of `up`: its plan applied (or not confirmed), and the state after it. */
export interface Round {
  result: UpResult;
  state: StackState;
}

/** How {@link runRounds} plans and applies each round (the stack's, under its one lock). */
export interface RoundSteps {
  /** Plans against the state the last round left. */
  plan(state: StackState): Promise<Plan>;
  /** Confirms and applies one round's plan (`round` counts from 1). */
  apply(plan: Plan, state: StackState, round: number): Promise<Round>;
  /** Says something to the user (progress, warnings). */
  note(message: string): void;
  /** True once the run was asked to stop (Ctrl-C): no round starts after it. */
  stopped(): boolean;
  /** Set when only one round may run (`--target`): why, said when parts are left for later. */
  oneRound?: string;
}

/** A backstop: rounds each declare something new, so a program needs as many as its callbacks nest. */
export const MAX_ROUNDS = 20;

/**
 * `up` in rounds: applies the plan; while it left parts for later (resources declared in `apply` callbacks
 * on values only the apply made known), plans again against the new state — the callbacks now run on
 * known values — and applies that, until nothing is deferred. A round that stops, fails or declares
 * nothing new ends the run; a deferred value still unknown after its round applied is an error that names it.
 *
 * @example const result = await runRounds(firstPlan, state, { plan, apply, note, stopped });
 */
export async function runRounds(first: Plan, state: StackState, steps: RoundSteps): Promise<UpResult> {
  const rounds: UpResult[] = [];
  let plan = first;
  for (let round = 1; ; round++) {
    const done = await steps.apply(plan, state, round);
    rounds.push(done.result);
    // A plan with callbacks preview could not foresee is checked by planning once more: they may declare resources.
    const again = isPartial(plan) || (plan.unforeseen?.length ?? 0) > 0 || (done.result.summary?.deferred ?? 0) > 0;
    if (!done.result.summary?.ok || !again || steps.stopped()) return combined(rounds);
    if (steps.oneRound) {
      steps.note(steps.oneRound);
      return combined(rounds);
    }
    if (round >= MAX_ROUNDS) throw new CairnError(`up stopped after ${MAX_ROUNDS} rounds with parts still deferred: ${describeParts(plan.deferred ?? [])}${plan.unforeseen?.length ? ` (and callbacks on ${plan.unforeseen.join(", ")} not foreseen)` : ""}. Each round applied, yet another was needed; check for an apply() callback that declares a new resource every time it runs.`);
    const next = await steps.plan(done.state);
    if (isPartial(next) && !hasProgress(next)) throw stillUnknown(next.deferred!);
    if (!hasChanges(next)) return combined(rounds);
    steps.note(`Round ${round + 1}: the values ${round === 1 ? "the first round" : `round ${round}`} waited for are known now; planning what they declare.`);
    plan = next;
    state = done.state;
  }
}

/**
 * What to ask before applying round `round`'s plan, or undefined when it is not asked about: the first round
 * always is; a later round was agreed to with the first, and is asked about again only when it deletes or
 * replaces something (creates and updates of what the first round made known follow without a question).
 *
 * @example roundQuestion(plan, 2) // undefined when round 2 only creates
 */
export function roundQuestion(plan: Plan, round: number): string | undefined {
  if (round <= 1) return `Apply these changes to stack "${plan.stack}"?`;
  if (!plan.steps.some(deletesOrReplaces)) return undefined;
  return `Round ${round} deletes or replaces resources. Apply it to stack "${plan.stack}"?`;
}

/** True when a plan does something besides deferring again: a round that only defers would loop forever. */
function hasProgress(plan: Plan): boolean {
  return plan.steps.some(acts) || plan.outputsChanged;
}

function stillUnknown(parts: readonly DeferredPart[]): CairnError {
  return new CairnError(
    `Values are still unknown after the resources they come from were applied, so what depends on them cannot be planned: ${describeParts(parts)}. ` +
      "A value a callback waits for must become known once its resource exists: check that the attribute is one the provider returns.",
  );
}

/** `aws:route53:RecordSet "validation-…" (waits for cert.domainValidationOptions), …`. */
export function describeParts(parts: readonly DeferredPart[]): string {
  return parts.map((p) => `${p.type} "${p.name ?? p.pattern ?? "…"}" (waits for ${p.waitsFor})`).join(", ");
}

/** One result for the whole run: the first round's plan, the summaries added up, the last outputs. */
function combined(rounds: readonly UpResult[]): UpResult {
  if (rounds.length === 1) return rounds[0]!;
  const last = rounds[rounds.length - 1]!;
  const summaries = rounds.flatMap((r) => (r.summary ? [r.summary] : []));
  const out: UpResult = { ...last, plan: rounds[0]!.plan, rounds: rounds.map((r) => ({ plan: r.plan, ...(r.summary ? { summary: r.summary } : {}) })) };
  if (summaries.length) out.summary = addSummaries(summaries);
  out.stateBytesWritten = rounds.reduce((n, r) => n + (r.stateBytesWritten ?? 0), 0);
  return out;
}

function addSummaries(all: readonly ApplySummary[]): ApplySummary {
  const done: Record<string, number> = {};
  for (const s of all) for (const [k, n] of Object.entries(s.done)) done[k] = (done[k] ?? 0) + (n ?? 0);
  return {
    ok: all.every((s) => s.ok),
    succeeded: all.reduce((n, s) => n + s.succeeded, 0),
    failed: all.reduce((n, s) => n + s.failed, 0),
    skipped: all.reduce((n, s) => n + s.skipped, 0),
    ...(all.some((s) => s.deferred) ? { deferred: all.reduce((n, s) => n + (s.deferred ?? 0), 0) } : {}),
    done: done as ApplySummary["done"],
    durationMs: all.reduce((n, s) => n + s.durationMs, 0),
  };
}
