import type { Urn } from "../../core/urn.js";
import type { Action } from "../../plan/actions.js";
import type { EventSink } from "../events.js";
import type { SkipReason } from "../scheduler.js";
import { describeWaitOutcome, waitLabel, type WaitLabel, type WaitOutcome } from "../../wait/outcome.js";

type WaitAction = Extract<Action, { kind: "wait" }>;
type WaitStep = WaitAction["step"];

/**
 * How a wait is named in messages.
 * @example labelOf(step) // { label: 'wait "ready"', subject: "db", until: 'db.status == "ready"', timeoutMs: 60000 }
 */
export function labelOf(step: WaitStep): WaitLabel {
  return { label: waitLabel(step.name, step.named), subject: step.subject, until: step.untilText, timeoutMs: step.timeoutMs };
}

/**
 * Tells how a wait ended (`wait-ended`, with its message): every wait that the plan runs ends with exactly
 * one, whether it polled or was skipped. Returns the message.
 *
 * @example const message = waitEnded(ctx.events, step, outcome);
 */
export function waitEnded(events: EventSink, step: WaitStep, outcome: WaitOutcome): string {
  const message = describeWaitOutcome(labelOf(step), outcome);
  events.next({ type: "wait-ended", urn: step.urn, name: step.name, outcome, message });
  return message;
}

/**
 * The end of a wait the scheduler skipped: its dependency failed, or the run stopped starting work before
 * its turn. A wait that had started (it was polling when the run was cancelled) told its own end.
 *
 * @example waitSkipped(action, { kind: "cancelled" }, events, false) // a `wait-ended` event, outcome `cancelled`
 */
export function waitSkipped(action: WaitAction, reason: SkipReason, events: EventSink, started: boolean): void {
  if (started) return;
  const outcome: WaitOutcome =
    reason.kind === "dependency-failed" ? { kind: "dependency-failed", dependency: reason.dependency.split("#")[0] as Urn } : { kind: "cancelled", reads: 0, elapsedMs: 0, observed: undefined };
  waitEnded(events, action.step, outcome);
}
