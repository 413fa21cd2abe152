import type { EngineEvent } from "../../apply/events.js";
import type { Colors } from "../../core/colors.js";
import { diagnosticLine, failedLines, retryingLine, skippedLine, succeededLine, summaryLine, waitEndedLine } from "../render/events.js";
import { RunningSteps, type RunningStep } from "./running.js";
import { actionKind } from "../../plan/steps/index.js";

/** Where progress goes: stdout and stderr, one line (or block) at a time. */
export interface Sink {
  out(text: string): void;
  err(text: string): void;
}

/** Shows a run's engine events to people, and the CLI's own lines in between (the plan, outputs). */
export interface Reporter {
  event(e: EngineEvent): void;
  /** Prints text without disturbing lines drawn live. */
  print(text: string, to?: "out" | "err"): void;
  /** Stops timers and leaves the terminal clean. */
  close(): void;
}

/**
 * The part of every human display that is the same in a terminal and in a log: finished steps become
 * result lines, failures a block with the provider's message and a hint, waits a line when they end,
 * and the run a summary line. Subclasses decide how running steps are shown.
 */
export abstract class HumanReporter implements Reporter {
  protected readonly running = new RunningSteps();

  constructor(
    protected readonly sink: Sink,
    protected readonly c: Colors,
    /** How the user runs the program (`npx tsx infra.ts`), for hints. */
    protected readonly command: string,
    protected readonly now: () => number = Date.now,
  ) {}

  event(e: EngineEvent): void {
    switch (e.type) {
      case "step-started":
        return this.onRunning(this.running.started(e, this.now()), "started");
      case "wait-polled": {
        const { step, changed } = this.running.polled(e, this.now());
        return this.onRunning(step, changed ? "status" : "poll");
      }
      case "step-succeeded":
      case "step-failed":
      case "step-skipped":
        this.running.finished(e.urn, e.kind);
        this.onFinished();
        // A wait's end is told by its wait-ended line, with what it observed.
        if (actionKind(e.kind).polls) return;
        if (e.type === "step-succeeded") return this.print(succeededLine(e, this.c));
        if (e.type === "step-failed") return this.print(failedLines(e, this.command, this.c).join("\n"), "err");
        return this.print(skippedLine(e, this.c));
      case "wait-ended":
        this.running.finished(e.urn, "wait");
        this.onFinished();
        return this.print(waitEndedLine(e, this.c), e.outcome.kind === "satisfied" || e.outcome.kind === "dependency-failed" ? "out" : "err");
      case "step-retrying":
        return this.print(retryingLine(e, this.c), "err");
      case "diagnostic":
        return this.print(diagnosticLine(e, this.c), e.severity === "info" ? "out" : "err");
      case "summary":
        return this.print(`\n${summaryLine(e.summary, this.c)}`);
      default: {
        const never: never = e;
        return never;
      }
    }
  }

  abstract print(text: string, to?: "out" | "err"): void;
  abstract close(): void;
  /** A step started, or a wait polled (its observed values changed, or not). */
  protected abstract onRunning(step: RunningStep, what: "started" | "status" | "poll"): void;
  protected abstract onFinished(): void;
}
