import { stripVTControlCharacters } from "node:util";
import type { Colors } from "../../core/colors.js";
import { doing, elapsedText, shortName } from "../render/events.js";
import { HumanReporter, type Sink } from "./reporter.js";
import type { RunningStep } from "./running.js";

/** A block of the terminal redrawn in place (log-update on stdout). */
export interface LiveRegion {
  update(text: string): void;
  clear(): void;
  done(): void;
}

/** Braille spinner frames (as cli-spinners' "dots"), one per redraw. */
const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const FRAME_MS = 80;

/**
 * Progress in a terminal: one line per running step with a spinner and its elapsed time — waits show what
 * they last observed (`> issued  waiting 42s  status = "PENDING_VALIDATION"`) — redrawn in place below
 * the output; finished steps collapse into result lines printed above it.
 *
 * @example const r = new LiveReporter(sink, colors(true), "npx tsx infra.ts", terminalRegion(), () => process.stdout.columns);
 */
export class LiveReporter extends HumanReporter {
  private timer: NodeJS.Timeout | undefined;
  private frame = 0;
  private readonly timers: boolean;

  constructor(
    sink: Sink,
    c: Colors,
    command: string,
    private readonly region: LiveRegion,
    private readonly size: () => { columns: number; rows: number },
    opts: { now?: () => number; timers?: boolean } = {},
  ) {
    super(sink, c, command, opts.now);
    this.timers = opts.timers ?? true;
  }

  print(text: string, to: "out" | "err" = "out"): void {
    if (this.running.size === 0) return this.sink[to](text);
    this.region.clear();
    this.sink[to](text);
    this.draw();
  }

  protected onRunning(): void {
    if (this.timers) {
      this.timer ??= setInterval(() => {
        this.frame = (this.frame + 1) % FRAMES.length;
        this.draw();
      }, FRAME_MS).unref();
    }
    this.draw();
  }

  protected onFinished(): void {
    if (this.running.size > 0) return this.draw();
    this.stopTimer();
    this.region.clear();
  }

  close(): void {
    this.stopTimer();
    this.region.clear();
    this.region.done();
  }

  /** Redraws the running lines (at most as many as fit the terminal, then a count of the rest). */
  draw(): void {
    const steps = this.running.list();
    if (steps.length === 0) return this.region.clear();
    const { columns, rows } = this.size();
    const room = Math.max(1, rows - 2);
    const shown = steps.length > room ? steps.slice(0, room - 1) : steps;
    const lines = shown.map((s) => this.line(s, columns));
    if (shown.length < steps.length) lines.push(this.c.dim(`  … and ${steps.length - shown.length} more running`));
    this.region.update(lines.join("\n"));
  }

  private line(s: RunningStep, columns: number): string {
    const spin = this.c.cyan(FRAMES[this.frame]!);
    const elapsed = elapsedText(this.now() - s.startedAt);
    const head = s.kind === "wait" ? `${spin} ${this.c.blue(">")} ${s.name}  waiting ${elapsed}` : `${spin} ${doing(s.kind)} ${shortName(s.urn)}  ${this.c.dim(elapsed)}`;
    if (!s.status) return head;
    // The observed values are what gets cut when the line is wider than the terminal (a wrapped line breaks redrawing).
    const room = columns - 1 - stripVTControlCharacters(head).length - 2;
    const status = s.status.length > room ? `${s.status.slice(0, Math.max(0, room - 1))}…` : s.status;
    return room > 3 ? `${head}  ${this.c.dim(status)}` : head;
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
