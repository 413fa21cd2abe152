import type { Action } from "../plan/actions.js";
import type { ScopedResolver } from "../runtime/values.js";
import type { EventSink } from "./events.js";

/**
 * What the executor remembers of each action while it runs: when it was reported started, and the resolver
 * it reads values through (to name what a stalled action waits for). Kept in arrays by the action's index,
 * not in maps keyed by the action: an entry added and dropped for every action makes a map rehash every few
 * hundred actions, and each new table outlives the young generation.
 *
 * @example const runs = new ActionRuns(actions.length, events); runs.report(a); runs.finished(a) // ms since
 */
export class ActionRuns {
  /** When each action was reported started (ms since the epoch), NaN until it is (a fake clock may say 0). */
  private readonly startedAt: Float64Array;
  private readonly scopes: (ScopedResolver | undefined)[];

  constructor(
    count: number,
    private readonly events: EventSink,
  ) {
    this.startedAt = new Float64Array(count).fill(Number.NaN);
    this.scopes = new Array<ScopedResolver | undefined>(count).fill(undefined);
  }

  /**
   * Reports an action as started, once; later calls do nothing. An action that calls a provider is reported
   * when its call gets a slot (it may have journaled its call and waited for the slot before), any other
   * when the scheduler starts it.
   */
  report(a: Action): void {
    if (!Number.isNaN(this.startedAt[a.index])) return;
    this.startedAt[a.index] = Date.now();
    this.events.next({ type: "step-started", urn: a.step.urn, kind: a.kind });
  }

  /** True once the action was reported started. */
  reported(a: Action): boolean {
    return !Number.isNaN(this.startedAt[a.index]);
  }

  /** Milliseconds since an action that ended was reported started (it is reported now if it was not yet); its resolver is dropped. */
  finished(a: Action): number {
    this.report(a);
    this.scopes[a.index] = undefined;
    return Date.now() - this.startedAt[a.index]!;
  }

  /** Remembers the resolver a running action reads values through. */
  setScope(a: Action, scope: ScopedResolver): void {
    this.scopes[a.index] = scope;
  }

  /** The resolver of a running action (undefined once it ended, or if it reads no values). */
  scopeOf(a: Action): ScopedResolver | undefined {
    return this.scopes[a.index];
  }

  /** Forgets an action's resolver (it ended without succeeding). */
  drop(a: Action): void {
    this.scopes[a.index] = undefined;
  }
}
