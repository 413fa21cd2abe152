import { formatDuration } from "../core/duration.js";
import { formatObserved } from "../core/predicate.js";
import { everyMember } from "../core/every-member.js";

/** One value a predicate reads, as observed on a read of the target (secrets masked). */
export interface Observation {
  path: string;
  value: unknown;
}

/**
 * How a wait ended. Every end is a distinct case, so the executor, the CLI and tests handle each one
 * (`switch (o.kind)` with a `never` check).
 */
export type WaitOutcome =
  | { kind: "satisfied"; reads: number; elapsedMs: number; observed: Observation[] }
  | { kind: "timed-out"; reads: number; elapsedMs: number; observed: Observation[] | undefined }
  | { kind: "failed"; reads: number; elapsedMs: number; observed: Observation[]; condition: string; reason?: string }
  | { kind: "not-found"; reads: number; elapsedMs: number; id: string }
  | { kind: "read-error"; reads: number; elapsedMs: number; error: string; transient: boolean }
  | { kind: "dependency-failed"; dependency: string }
  | { kind: "cancelled"; reads: number; elapsedMs: number; observed: Observation[] | undefined };

/** The kinds of wait outcome. */
export type WaitOutcomeKind = WaitOutcome["kind"];

/** Every outcome kind, for exhaustiveness tests. */
export const WAIT_OUTCOME_KINDS = everyMember<WaitOutcomeKind>()(["satisfied", "timed-out", "failed", "not-found", "read-error", "dependency-failed", "cancelled"]);

/** What an outcome message needs to know about the wait. */
export interface WaitLabel {
  /** `wait "issued"` for a named wait, `wait(cert)` otherwise. */
  label: string;
  /** The target's name in predicate texts (`cert`). */
  subject: string;
  /** The `until` predicate as text. */
  until: string;
  timeoutMs: number;
}

/** `wait "issued"` when the user named it, else its default display name `wait(cert)`. */
export function waitLabel(name: string, named: boolean): string {
  return named ? `wait "${name}"` : name;
}

const reads = (n: number) => `${n} read${n === 1 ? "" : "s"}`;

/**
 * The message for an outcome: what happened, the condition, what was last seen and what to do.
 *
 * @example
 * describeWaitOutcome({ label: 'wait "issued"', subject: "cert", until: 'cert.status == "ISSUED"', timeoutMs: 4_500_000 },
 *   { kind: "timed-out", reads: 42, elapsedMs: 4_500_000, observed: [{ path: "status", value: "PENDING_VALIDATION" }] })
 * // 'wait "issued" timed out after 75m0s: cert.status == "ISSUED" never held; last observed status = "PENDING_VALIDATION" (42 reads)'
 */
export function describeWaitOutcome(w: WaitLabel, o: WaitOutcome): string {
  switch (o.kind) {
    case "satisfied":
      return `${w.label}: ${w.until} holds (after ${formatDuration(o.elapsedMs)}, ${reads(o.reads)})`;
    case "timed-out":
      return (
        `${w.label} timed out after ${formatDuration(o.elapsedMs)}: ${w.until} never held; ` +
        `${o.observed ? `last observed ${formatObserved(o.observed)}` : "no read succeeded"} (${reads(o.reads)}). ` +
        "Raise its timeout if the target is just slow, or check why it does not reach that state."
      );
    case "failed":
      return (
        `${w.label} failed after ${formatDuration(o.elapsedMs)}: ${o.condition} (${formatObserved(o.observed)})` +
        `${o.reason ? `; reason: ${o.reason}` : ""}. ${w.until} cannot hold any more; fix the cause, then run up again.`
      );
    case "not-found":
      return (
        `${w.label}: its target ${w.subject} (id "${o.id}") does not exist (${reads(o.reads)} over ${formatDuration(o.elapsedMs)} found nothing). ` +
        "It was deleted outside Cairn: run `refresh`, then `up` to create it again."
      );
    case "read-error":
      return o.transient
        ? `${w.label} gave up after ${formatDuration(o.elapsedMs)}: reading ${w.subject} kept failing (${o.error}; ${reads(o.reads)}). The service may be throttling or unavailable; run up again later.`
        : `${w.label}: reading ${w.subject} failed: ${o.error}. This error does not go away by waiting (check permissions and the target's id), so the wait stopped at once.`;
    case "dependency-failed":
      return `${w.label} did not start: dependency failed: ${o.dependency}`;
    case "cancelled":
      return `${w.label} was cancelled after ${formatDuration(o.elapsedMs)} (${reads(o.reads)})${o.observed ? `; last observed ${formatObserved(o.observed)}` : ""}`;
    default: {
      const never: never = o;
      return String(never);
    }
  }
}
