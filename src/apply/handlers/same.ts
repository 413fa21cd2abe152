import { isDeepStrictEqual } from "node:util";
import type { SameStep } from "../../plan/steps/index.js";
import type { StackState, StateMutation } from "../../state/types.js";
import { sameRecord, sameRecordIsPrior } from "../record.js";
import { adoptedFirst } from "./common.js";

/**
 * What an unchanged resource (a `same` step, which has no action) records before anything runs: an adopted
 * object (`import`) as it is; else its record moved to its new URN (`aliases`), or rewritten when its
 * options changed (protect, retainOnDelete, timeouts, dependencies). Nothing when its record is as it was.
 *
 * @example const out: StateMutation[] = []; sameBefore(step, journal.state, out);
 */
export function sameBefore(step: SameStep, state: StackState, out: StateMutation[]): void {
  if (step.adopt) return adoptedFirst(step, state, out);
  const prior = state.resources[step.movedFrom ?? step.urn];
  if (!prior || (!step.movedFrom && sameRecordIsPrior(step, prior))) return;
  const next = sameRecord(step, prior);
  if (step.movedFrom) out.push({ kind: "remove", urn: step.movedFrom }, { kind: "upsert", resource: next });
  else if (!isDeepStrictEqual(next, prior)) out.push({ kind: "upsert", resource: next });
}
