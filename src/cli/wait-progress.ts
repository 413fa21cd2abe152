import pc from "picocolors";
import type { EngineEvent } from "../apply/events.js";
import { formatDuration } from "../program/duration.js";
import { formatObserved } from "../wait/predicate.js";

/** A region of the terminal redrawn in place (log-update in a TTY). */
export interface LiveRegion {
  update(text: string): void;
  clear(): void;
  done(): void;
}

interface Active {
  name: string;
  startedAt: number;
  status: string;
  lastPrinted?: { at: number; status: string };
}

/** In CI logs a waiting line is repeated at most this often when nothing changes. */
const QUIET_MS = 30_000;

/**
 * Shows waits as they poll: `> issued  waiting 12s  (status = "PENDING_VALIDATION")`. In a terminal the
 * lines of running waits are redrawn in place every second, below the normal output; in CI logs a line is
 * printed when the observed values change, and otherwise at most every 30 s.
 *
 * @example
 * const progress = new WaitProgress({ out: console.log, live: createLiveRegion() });
 * stack.events.subscribe(e => { if (!progress.handle(e)) console.log(renderEvent(e)); });
 */
export class WaitProgress {
  private readonly active = new Map<string, Active>();
  private timer: NodeJS.Timeout | undefined;
  private readonly now: () => number;

  constructor(
    private readonly io: { out: (line: string) => void; live?: LiveRegion | undefined },
    opts: { now?: () => number } = {},
  ) {
    this.now = opts.now ?? Date.now;
  }

  /** Takes wait progress events; returns true when it handled the event (nothing else to print). */
  handle(e: EngineEvent): boolean {
    if (e.type === "wait-polled") {
      let a = this.active.get(e.urn);
      if (!a) {
        a = { name: e.name, startedAt: this.now() - e.elapsedMs, status: "" };
        this.active.set(e.urn, a);
      }
      a.status = e.observed ? formatObserved(e.observed) : (e.note ?? "");
      if (this.io.live) {
        this.draw();
        this.timer ??= setInterval(() => this.draw(), 1000).unref();
      } else {
        const t = this.now();
        if (!a.lastPrinted || a.lastPrinted.status !== a.status || t - a.lastPrinted.at >= QUIET_MS) {
          a.lastPrinted = { at: t, status: a.status };
          this.io.out(this.line(a));
        }
      }
      return true;
    }
    if (e.type === "wait-ended") {
      this.active.delete(e.urn);
      if (this.io.live && this.active.size === 0) this.stopTimer();
    }
    return false;
  }

  /** Prints a normal line above the live region. */
  print(line: string): void {
    if (!this.io.live || this.active.size === 0) return this.io.out(line);
    this.io.live.clear();
    this.io.out(line);
    this.draw();
  }

  /** Stops redrawing (at the end of the command). */
  close(): void {
    this.stopTimer();
    if (this.io.live) {
      this.io.live.clear();
      this.io.live.done();
    }
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.io.live?.clear();
  }

  private line(a: Active): string {
    // Whole seconds: a live counter reads better than "412ms".
    const ms = Math.max(0, this.now() - a.startedAt);
    const waited = ms < 1000 ? "0s" : formatDuration(Math.floor(ms / 1000) * 1000);
    return `${pc.blue(">")} ${a.name}  waiting ${waited}${a.status ? `  ${pc.dim(`(${a.status})`)}` : ""}`;
  }

  private draw(): void {
    if (!this.io.live) return;
    if (this.active.size === 0) return this.io.live.clear();
    this.io.live.update([...this.active.values()].map((a) => this.line(a)).join("\n"));
  }
}
