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

/** A running step, linked to the ones started just before and after it. */
class Entry implements RunningStep {
  status?: string;
  prev: Entry | undefined;
  next: Entry | undefined;
  // Most steps finish without being shown by name (plain output names only the slow ones): read when asked.
  private shownName: string | undefined;

  constructor(
    readonly urn: string,
    readonly kind: ActionKind,
    public startedAt: number,
    public lastLineAt: number,
  ) {}

  get name(): string {
    return (this.shownName ??= nameOf(this.urn));
  }

  set name(name: string) {
    this.shownName = name;
  }

  /** Started again before it finished: it starts afresh, keeping its place in the order. */
  restart(now: number): void {
    this.startedAt = this.lastLineAt = now;
    this.status = this.shownName = undefined;
  }
}

/**
 * The steps running right now, in start order, fed by engine events. Waits are keyed like the other
 * steps and take their display name and observed values from `wait-polled`. Starting, finishing and
 * counting a step cost the same however many run; so does {@link first} for the few a display shows.
 *
 * @example
 * const running = new RunningSteps();
 * running.started({ type: "step-started", urn, kind: "create" }, Date.now());
 * running.list() // [{ urn, kind: "create", name: "cert", … }]
 */
export class RunningSteps {
  // Keyed by kind, then URN: a replace's create and its old object's delete are two steps of one URN.
  private readonly byKind = new Map<ActionKind, Map<string, Entry>>();
  private head: Entry | undefined;
  private tail: Entry | undefined;
  private count = 0;

  started(e: Extract<EngineEvent, { type: "step-started" }>, now: number): RunningStep {
    const known = this.find(e.urn, e.kind);
    if (!known) return this.add(e.urn, e.kind, now);
    known.restart(now);
    return known;
  }

  /** Records a wait's poll; returns the step and whether what it observed changed. */
  polled(e: Extract<EngineEvent, { type: "wait-polled" }>, now: number): { step: RunningStep; changed: boolean } {
    const s = this.find(e.urn, "wait") ?? this.add(e.urn, "wait", now - e.elapsedMs);
    s.name = e.name;
    const status = e.observed?.length ? formatObserved(e.observed) : (e.note ?? "");
    const changed = s.status !== status;
    s.status = status;
    return { step: s, changed };
  }

  finished(urn: string, kind: ActionKind): void {
    const s = this.find(urn, kind);
    if (!s) return;
    this.byKind.get(kind)!.delete(urn);
    this.unlink(s);
  }

  /** Every running step, in start order. */
  list(): RunningStep[] {
    return this.first(this.count);
  }

  /** The `n` steps that started first (all of them when fewer run). */
  first(n: number): RunningStep[] {
    const out: RunningStep[] = [];
    for (let s = this.head; s && out.length < n; s = s.next) out.push(s);
    return out;
  }

  get size(): number {
    return this.count;
  }

  private find(urn: string, kind: ActionKind): Entry | undefined {
    return this.byKind.get(kind)?.get(urn);
  }

  private add(urn: string, kind: ActionKind, at: number): Entry {
    const s = new Entry(urn, kind, at, at);
    let urns = this.byKind.get(kind);
    if (!urns) this.byKind.set(kind, (urns = new Map()));
    urns.set(urn, s);
    s.prev = this.tail;
    if (this.tail) this.tail.next = s;
    else this.head = s;
    this.tail = s;
    this.count++;
    return s;
  }

  private unlink(s: Entry): void {
    if (s.prev) s.prev.next = s.next;
    else this.head = s.next;
    if (s.next) s.next.prev = s.prev;
    else this.tail = s.prev;
    s.prev = s.next = undefined;
    this.count--;
  }
}
