import { createHash } from "node:crypto";
import type { Props, ResourceState } from "../state/types.js";
import { evaluate, type Predicate } from "../core/predicate.js";

/**
 * The mark a satisfied wait leaves on its target's state record: a digest of the wait's identity and its
 * `until` text, so a wait whose condition is edited (a named wait keeps its URN) is not held by an old
 * satisfaction. A digest rather than the URN: waits have no rows of their own in state, and none is named there.
 *
 * @example heldMark("urn:cairn:dev::app::cairn:wait::healthy", 'server.status == "ready"') // "w:3f2a…" (16 hex digits)
 */
export function heldMark(waitUrn: string, untilText: string): string {
  return `w:${createHash("sha256").update(`${waitUrn}\n${untilText}`).digest("hex").slice(0, 16)}`;
}

/** What decides whether a wait still holds from an earlier run. */
export interface HeldCheck {
  /** The mark of the wait ({@link heldMark}). */
  mark: string;
  until: Predicate;
  /** The target's id in this plan. */
  id: unknown;
}

/**
 * Whether an earlier run's satisfaction of a wait is still valid: the target's record carries the wait's
 * mark (written by the run whose read satisfied `until`, dropped when the object is created, updated or
 * replaced, or when a later run of the wait did not hold), it is the same object, and `until` still holds
 * on the outputs recorded since (a `refresh` that saw the target fall back re-opens the wait).
 *
 * @example stillHeld(state.resources[target.urn], { mark, until, id: targetValue.id })
 */
export function stillHeld(record: ResourceState | undefined, check: HeldCheck): boolean {
  if (!record?.waitsHeld?.includes(check.mark) || record.tainted || record.id !== check.id) return false;
  return evaluate(check.until, { id: record.id, ...record.outputs } as Props);
}

/**
 * The target's record after a wait ended: with the mark when `until` held (and its outputs the satisfying
 * read, as a refresh would record them), without it otherwise. `undefined` when nothing changes.
 *
 * @example withHeld(record, mark, true, snapshot)
 */
export function withHeld(record: ResourceState, mark: string, held: boolean, outputs?: Props): ResourceState | undefined {
  const marks = record.waitsHeld ?? [];
  const has = marks.includes(mark);
  const next = held === has ? marks : held ? [...marks, mark].sort() : marks.filter((m) => m !== mark);
  const sameOutputs = outputs === undefined || outputs === record.outputs;
  if (next === marks && sameOutputs) return undefined;
  const { waitsHeld: _old, ...rest } = record;
  const r: ResourceState = { ...rest, ...(outputs !== undefined ? { outputs } : {}) };
  if (next.length) r.waitsHeld = next;
  return r;
}
