import type { GraphNode } from "../../program/node.js";
import { firstValueFrom } from "rxjs";
import { isDeepStrictEqual } from "node:util";
import { UNKNOWN } from "../../core/unknown.js";
import { knownValue, type ValueResolver } from "../../runtime/values.js";
import type { Props, StackState, StateMutation } from "../../state/types.js";
import { secretValuesOf } from "../../state/secret-walk.js";
import { redactorOf } from "../secret-registry.js";
import { rootTarget } from "../../wait/wait.js";
import type { Action } from "../../plan/actions.js";
import type { HandlerContext, Handler } from "../context.js";
import { Cancelled } from "../scheduler.js";
import type { WaitRun } from "../../wait/waiter.js";
import { waitLabel, type WaitOutcome } from "../../wait/outcome.js";
import { waitEnded } from "./wait-ended.js";
import { heldMark, withHeld } from "../../wait/held.js";

type WaitAction = Extract<Action, { kind: "wait" }>;
type WaitStep = WaitAction["step"];

/** The outcome with provider-written text (errors, failure reasons) masked for secret values. */
function redactOutcome(o: WaitOutcome, redact: (text: string) => string): WaitOutcome {
  if (o.kind === "read-error") return { ...o, error: redact(o.error) };
  if (o.kind === "failed" && o.reason !== undefined) return { ...o, reason: redact(o.reason) };
  return o;
}

/** What the poller needs for one wait: the target as it is now (after whatever this run did to it). */
async function waitRun(action: WaitAction, ctx: HandlerContext, node: GraphNode | undefined): Promise<{ run: WaitRun; redact: (text: string) => string }> {
  const { step } = action;
  if (node?.kind !== "wait") throw new Error("a wait needs the program that declares it");
  const tv = await firstValueFrom(ctx.scope(action).value(node.wait.target));
  if (tv.id === UNKNOWN) throw new Error(`${waitLabel(step.name, step.named)}: its target ${step.subject} has no id`);
  const root = rootTarget(node);
  const stateInputs = ctx.journal.state.resources[root.urn]?.inputs ?? {};
  const redact = redactorOf(secretValuesOf({ secretKeys: [...tv.secretKeys], inputs: stateInputs, outputs: tv.outputs }));
  const run: WaitRun = {
    urn: step.urn, subject: step.subject,
    target: { urn: root.urn, id: String(tv.id), inputs: root.kind === "lookup" ? {} : stateInputs, outputs: tv.outputs },
    provider: ctx.provider(root.type, root.urn, root),
    ...(root.provider ? { instance: root.provider } : {}),
    until: step.until, timeoutMs: step.timeoutMs, intervalMs: step.intervalMs, secret: tv.secretKeys,
    // A provider's error text could quote a secret attribute: mask those values as everywhere else.
    onPoll: (p) => ctx.events.next({ type: "wait-polled", urn: step.urn, name: step.name, ...p, ...(p.note ? { note: redact(p.note) } : {}) }),
  };
  if (step.failWhen) run.failWhen = step.failWhen;
  if (step.reasonAttribute) run.reasonAttribute = step.reasonAttribute;
  return { run, redact };
}

/**
 * The target's record with the wait's mark set (it held, on the read now recorded as the outputs) or
 * cleared (it ran and did not hold): the next run trusts only a satisfaction this records.
 */
function heldChanges(state: StackState, target: WaitRun["target"], mark: string, held: boolean, snapshot?: Props): StateMutation[] {
  const cur = state.resources[target.urn];
  if (!cur || cur.id !== target.id) return [];
  const outputs = snapshot && !isDeepStrictEqual(cur.outputs, snapshot) ? snapshot : undefined;
  const next = withHeld(cur, mark, held, outputs);
  return next ? [{ kind: "upsert", resource: next }] : [];
}

/**
 * Polls the target until `until` holds. Its value — what every user of the wait receives — is the snapshot
 * of the read that satisfied it, and that read is recorded as the target's outputs, as a refresh would,
 * with the wait's mark, so a later run with nothing changed trusts it. The mark is cleared as the wait
 * starts: whatever made it run (a change it guards, a user) is no longer covered by the old satisfaction,
 * so a wait that fails, is cancelled or is killed with the process leaves none.
 */
export const waitFor: Handler<WaitAction> = async (action, ctx, node) => {
  const { step } = action;
  const { run, redact } = await waitRun(action, ctx, node);
  const mark = heldMark(step.urn, step.untilText);
  const unmark = heldChanges(ctx.journal.state, run.target, mark, false);
  if (unmark.length) ctx.journal.mutate(unmark);
  const { outcome: raw, snapshot } = await ctx.poller.wait(run);
  const outcome = redactOutcome(raw, redact);
  const message = waitEnded(ctx.events, step, outcome);
  if (outcome.kind === "cancelled") throw new Cancelled(message);
  if (outcome.kind !== "satisfied") throw new Error(message);
  const target = run.target;
  return { changes: (s: StackState) => heldChanges(s, target, mark, true, snapshot), value: knownValue(target.id, snapshot!, run.secret) };
};

/**
 * The value of a wait that does not run (it held on a recorded read and nothing it guards changed): its
 * target's value, handed on unread. False when the program has no such wait (its value is then unknown).
 *
 * @example waitWithoutAction(step, node, values) // true: the node's value follows its target's
 */
export function waitWithoutAction(_step: WaitStep, node: GraphNode, values: ValueResolver): boolean {
  if (node.kind !== "wait") return false;
  void firstValueFrom(values.value(node.wait.target)).then((v) => values.publish(node, v));
  return true;
}
