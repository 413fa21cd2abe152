import { stripVTControlCharacters } from "node:util";
import type { Colors } from "../../core/colors.js";
import { doing, elapsedText, shortName } from "../render/events.js";
import { actionKind } from "../../plan/steps/index.js";
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
 * The running lines are redrawn at most once a spinner frame: a run of thousands of quick steps prints
 * its result lines at once, and the lines below come back at the next frame (redrawing them for every
 * event would cost a terminal-wide erase and rewrite each time).
 *
 * @example const r = new LiveReporter(sink, colors(true), "npx tsx infra.ts", terminalRegion(), () => process.stdout.columns);
 */
export class LiveReporter extends HumanReporter {
  private timer: NodeJS.Timeout | undefined;
  private frame = 0;
  private readonly timers: boolean;
  /** The running lines are on the screen (a print erases them first). */
  private shown = false;
  private drawnAt = -Infinity;
  private drawSoon = false;

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
    if (this.shown) this.erase();
    this.sink[to](text);
    if (this.running.size > 0) this.redraw();
  }

  protected onRunning(): void {
    if (this.timers) {
      this.timer ??= setInterval(() => {
        this.frame = (this.frame + 1) % FRAMES.length;
        this.draw();
      }, FRAME_MS).unref();
    }
    this.redraw();
  }

  protected onFinished(): void {
    if (this.running.size > 0) return this.redraw();
    this.stopTimer();
    if (this.shown) this.erase();
  }

  close(): void {
    this.stopTimer();
    this.drawSoon = false;
    this.erase();
    this.region.done();
  }

  /** Redraws the running lines (at most as many as fit the terminal, then a count of the rest). */
  draw(): void {
    this.drawnAt = this.now();
    const running = this.running.size;
    if (running === 0) return this.erase();
    const { columns, rows } = this.size();
    const room = Math.max(1, rows - 2);
    const shown = this.running.first(running > room ? room - 1 : running);
    const lines = shown.map((s) => this.line(s, columns));
    if (shown.length < running) lines.push(this.c.dim(`  … and ${running - shown.length} more running`));
    this.region.update(lines.join("\n"));
    this.shown = true;
  }

  /**
   * Draws once the event at hand is handled (a finished step is taken off, then its line printed) when the
   * last frame is older than a frame; otherwise the spinner's next frame will. Without timers (tests), now.
   */
  private redraw(): void {
    if (!this.timers) return this.draw();
    if (this.drawSoon || this.now() - this.drawnAt < FRAME_MS) return;
    this.drawSoon = true;
    queueMicrotask(() => {
      if (!this.drawSoon) return; // closed meanwhile
      this.drawSoon = false;
      this.draw();
    });
  }

  private erase(): void {
    this.region.clear();
    this.shown = false;
  }

  private line(s: RunningStep, columns: number): string {
    const spin = this.c.cyan(FRAMES[this.frame]!);
    const elapsed = elapsedText(this.now() - s.startedAt);
    const head = actionKind(s.kind).polls ? `${spin} ${this.c.blue(">")} ${s.name}  waiting ${elapsed}` : `${spin} ${doing(s.kind)} ${shortName(s.urn)}  ${this.c.dim(elapsed)}`;
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
