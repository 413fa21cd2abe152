import type { Colors } from "../../core/colors.js";
import { doing, elapsedText, shortName } from "../render/events.js";
import { actionKind } from "../../plan/steps/index.js";
import { HumanReporter, type Sink } from "./reporter.js";
import type { RunningStep } from "./running.js";

/** A log line for a running step at most this often, so CI runners that kill quiet jobs see activity. */
export const KEEP_ALIVE_MS = 10_000;

/**
 * Progress for logs and CI (no terminal, or `CI=true`): plain lines only, never redrawn. A wait prints a
 * line when what it observes changes; any step still running prints `still creating cert… [1m10s elapsed]`
 * every 10 s.
 *
 * @example const r = new PlainReporter({ out: console.log, err: console.error }, noColors, "npx tsx infra.ts"); stack.events.subscribe((e) => r.event(e));
 */
export class PlainReporter extends HumanReporter {
  private timer: NodeJS.Timeout | undefined;
  private readonly timers: boolean;

  constructor(sink: Sink, c: Colors, command: string, opts: { now?: () => number; timers?: boolean } = {}) {
    super(sink, c, command, opts.now);
    this.timers = opts.timers ?? true;
  }

  print(text: string, to: "out" | "err" = "out"): void {
    this.sink[to](text);
  }

  protected onRunning(step: RunningStep, what: "started" | "status" | "poll"): void {
    if (what === "status") {
      step.lastLineAt = this.now();
      this.print(`${this.c.blue(">")} ${step.name}  waiting ${elapsedText(this.now() - step.startedAt)}${step.status ? `  ${this.c.dim(`(${step.status})`)}` : ""}`);
    }
    if (this.timers) this.timer ??= setInterval(() => this.tick(), 1000).unref();
  }

  protected onFinished(): void {
    if (this.running.size === 0) this.stopTimer();
  }

  /** Prints a keep-alive for each step that has been quiet for {@link KEEP_ALIVE_MS}. Called every second. */
  tick(): void {
    const now = this.now();
    for (const s of this.running.list()) {
      if (now - s.lastLineAt < KEEP_ALIVE_MS) continue;
      s.lastLineAt = now;
      // A wait is told by its own name ("waiting for issued"), any other step by its resource's.
      const what = `${doing(s.kind)} ${actionKind(s.kind).polls ? s.name : shortName(s.urn)}`;
      this.print(this.c.dim(`… still ${what}… [${elapsedText(now - s.startedAt)} elapsed]${s.status ? `  (${s.status})` : ""}`));
    }
  }

  close(): void {
    this.stopTimer();
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
