import type { EngineEvent } from "../../apply/events.js";
import type { ActionKind } from "../../plan/actions.js";
import { formatObserved } from "../../core/predicate.js";
import { nameOf } from "../../core/urn.js";

/** A step that has started and not finished, as progress displays track it. */
export interface RunningStep {
  urn: string;
  kind: ActionKind;
  /** Display name: the resource's name, or the wait's. */
  name: string;
  startedAt: number;
  /** For waits: what the last poll observed (`status = "PENDING"`), or why it read nothing. */
  status?: string;
  /** When a line about this step was last printed (plain output: keep-alives count from here). */
  lastLineAt: number;
}

/**
 * The steps running right now, in start order, fed by engine events. Waits are keyed like the other
 * steps and take their display name and observed values from `wait-polled`.
 *
 * @example
 * const running = new RunningSteps();
 * running.started({ type: "step-started", urn, kind: "create" }, Date.now());
 * running.list() // [{ urn, kind: "create", name: "cert", … }]
 */
export class RunningSteps {
  private readonly steps = new Map<string, RunningStep>();

  private static key(urn: string, kind: ActionKind): string {
    return `${kind} ${urn}`;
  }

  started(e: Extract<EngineEvent, { type: "step-started" }>, now: number): RunningStep {
    const s: RunningStep = { urn: e.urn, kind: e.kind, name: nameOf(e.urn), startedAt: now, lastLineAt: now };
    this.steps.set(RunningSteps.key(e.urn, e.kind), s);
    return s;
  }

  /** Records a wait's poll; returns the step and whether what it observed changed. */
  polled(e: Extract<EngineEvent, { type: "wait-polled" }>, now: number): { step: RunningStep; changed: boolean } {
    const key = RunningSteps.key(e.urn, "wait");
    let s = this.steps.get(key);
    if (!s) {
      s = { urn: e.urn, kind: "wait", name: e.name, startedAt: now - e.elapsedMs, lastLineAt: now - e.elapsedMs };
      this.steps.set(key, s);
    }
    s.name = e.name;
    const status = e.observed?.length ? formatObserved(e.observed) : (e.note ?? "");
    const changed = s.status !== status;
    s.status = status;
    return { step: s, changed };
  }

  finished(urn: string, kind: ActionKind): void {
    this.steps.delete(RunningSteps.key(urn, kind));
  }

  list(): RunningStep[] {
    return [...this.steps.values()];
  }

  get size(): number {
    return this.steps.size;
  }
}
