import type { Diagnostic, Severity } from "../core/diagnostic.js";
import type { Urn } from "../core/urn.js";
import type { ActionKind } from "../plan/actions.js";
import type { Observation, WaitOutcome } from "../wait/outcome.js";

/** Counts of what an apply did. */
export interface ApplySummary {
  ok: boolean;
  succeeded: number;
  failed: number;
  skipped: number;
  /**
   * Steps left for the next round of `up`: one that ran an `apply` callback declaring a resource no plan
   * foresaw, and the steps after it. Not a failure: the next round plans them.
   */
  deferred?: number;
  /** Steps by kind that succeeded (creates, updates, ...). */
  done: Partial<Record<ActionKind, number>>;
  durationMs: number;
}

/**
 * What the engine reports as it works, on an rxjs stream: the CLI renders it, the library API and tests
 * subscribe to it. Secret values never appear in events.
 */
export type EngineEvent =
  | { type: "step-started"; urn: Urn; kind: ActionKind }
  | { type: "step-succeeded"; urn: Urn; kind: ActionKind; durationMs: number }
  | {
      type: "step-failed";
      urn: Urn;
      kind: ActionKind;
      /** What went wrong (secrets masked), without where. */
      error: string;
      /** Where the program declared the resource (`infra.ts:12:3`), when known. */
      site?: string;
    }
  | { type: "step-skipped"; urn: Urn; kind: ActionKind; reason: string }
  | {
      type: "step-retrying";
      urn: Urn;
      kind: ActionKind;
      /** The attempt that failed (1 for the first call). */
      attempt: number;
      /** The transient error (secrets masked). */
      error: string;
      /** The pause before the next attempt. */
      delayMs: number;
    }
  | {
      type: "wait-polled";
      urn: Urn;
      name: string;
      reads: number;
      elapsedMs: number;
      /** What the wait's predicates read on this poll (secrets masked). */
      observed?: Observation[];
      /** Set when the read failed or found nothing. */
      note?: string;
    }
  | { type: "wait-ended"; urn: Urn; name: string; outcome: WaitOutcome; message: string }
  | ({ type: "diagnostic" } & EventDiagnostic)
  | { type: "summary"; summary: ApplySummary };

/**
 * A diagnostic as the engine's events carry it: the one {@link Diagnostic} shape, whose severity may also be
 * `info` (a note: a retry, a later round, a lock taken over). It names its resource in its summary when it
 * means to: printers add its site and detail, never a name found by searching the text.
 *
 * @example const e: EngineEvent = { type: "diagnostic", severity: "info", summary: "Round 2: planning what round 1 declared." };
 */
export type EventDiagnostic = Omit<Diagnostic, "severity"> & { readonly severity: Severity | "info" };

/** The event type names, for exhaustiveness tests. */
export const EVENT_TYPES: readonly EngineEvent["type"][] = ["step-started", "step-succeeded", "step-failed", "step-skipped", "step-retrying", "wait-polled", "wait-ended", "diagnostic", "summary"];

/** Where the engine sends its events (an rxjs Subject, or a sink that redacts secrets on the way). */
export interface EventSink {
  next(e: EngineEvent): void;
}
