import type { Urn } from "../core/urn.js";
import type { GraphNode } from "../program/node.js";
import { callsProvider, type Action } from "../plan/actions.js";
import { thrownMessage } from "../core/thrown.js";
import { isLateDeclaration } from "../program/deferral/late-declaration.js";
import type { ApplySummary, EventSink } from "./events.js";
import type { ActionRuns } from "./action-runs.js";
import type { SchedulerHooks } from "./scheduler.js";
import { redactorFor } from "./secret-registry.js";
import { actionHandlerOf } from "./handlers/index.js";

/**
 * What reporting reads of the run: where events go, and each URN's program node (for where it was declared).
 * @example reportingHooks({ events, node: (urn) => nodeByUrn.get(urn) }, summary, runs)
 */
export interface ReportContext {
  readonly events: EventSink;
  node(urn: Urn): GraphNode | undefined;
}

/**
 * The scheduler's hooks that tell how actions went (the executor adds what runs them).
 * @example const hooks: SchedulerHooks<Action> = { ...reporting, run };
 */
export type ReportingHooks = Required<Pick<SchedulerHooks<Action>, "started" | "succeeded" | "failed" | "skipped">>;

/**
 * A new summary, every count at zero.
 * @example const summary = emptySummary(); summary.succeeded++;
 */
export function emptySummary(): ApplySummary {
  return { ok: true, succeeded: 0, failed: 0, skipped: 0, done: {}, durationMs: 0 };
}

/**
 * Tells how each action went, as the scheduler walks: the `step-*` events, with a failure's message masked
 * and pointing at the line that declared the resource; the summary's counts; and steps deferred to the next
 * round (a `LateDeclarationError`, and what follows it), which are not failures. What a skipped action of a
 * kind tells besides (a wait's `wait-ended`), its handler says (`ActionHandler.skipped`).
 *
 * @example const hooks = { run, ...reportingHooks({ events, node }, summary, runs) };
 */
export function reportingHooks(ctx: ReportContext, summary: ApplySummary, runs: ActionRuns): ReportingHooks {
  const { events } = ctx;
  // Steps deferred to the next round (see `LateDeclarationError`), with what depends on them.
  const deferred = new Set<string>();
  const defer = (action: Action, why: string) => {
    deferred.add(action.id);
    summary.deferred = (summary.deferred ?? 0) + 1;
    events.next({ type: "step-skipped", urn: action.step.urn, kind: action.kind, reason: `deferred to the next round: ${why}` });
  };
  return {
    started: (action) => {
      // A provider call is reported when it gets its slot (`CallContext.calling`); the rest when they start.
      if (!callsProvider(action.kind)) runs.report(action);
    },
    succeeded: (action) => {
      const durationMs = runs.finished(action); // only running actions are asked what they wait for
      summary.succeeded++;
      summary.done[action.kind] = (summary.done[action.kind] ?? 0) + 1;
      events.next({ type: "step-succeeded", urn: action.step.urn, kind: action.kind, durationMs });
    },
    failed: (action, e) => {
      runs.report(action); // a failure is always reported after its start, even one before its call
      runs.drop(action);
      if (isLateDeclaration(e)) return defer(action, "a value it reads declares resources no plan included");
      summary.failed++;
      const site = ctx.node(action.step.urn)?.site?.toString();
      events.next({ type: "step-failed", urn: action.step.urn, kind: action.kind, error: redactorFor(action.step)(thrownMessage(e, `the provider of ${action.step.type}`)), ...(site ? { site } : {}) });
    },
    skipped: (action, reason) => {
      if (reason.kind === "dependency-failed" && deferred.has(reason.dependency)) return defer(action, `it follows ${reason.dependency.split("#")[0]}`);
      summary.skipped++;
      const text = reason.kind === "cancelled" ? "cancelled" : `dependency failed: ${reason.dependency.split("#")[0]}`;
      events.next({ type: "step-skipped", urn: action.step.urn, kind: action.kind, reason: text });
      actionHandlerOf(action).skipped?.(action, reason, events, runs.reported(action));
    },
  };
}
