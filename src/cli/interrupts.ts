import { setMaxListeners } from "node:events";
import { takeEarlyInterrupts } from "../core/early-interrupts.js";
import { exitOnPurpose } from "./process-guard.js";

/**
 * How long after one signal another counts as the same Ctrl-C, under `npx tsx`: the terminal signals the
 * whole process group (tsx and the program), and tsx also relays its own copy to the program when the
 * program has not told it within 30 ms that it got one (its event loop was busy): one Ctrl-C then arrives
 * twice. A person pressing again, after reading what the first one said, takes longer than this.
 *
 * @example new Interrupts(say, exit, RELAY_WINDOW_MS)
 */
export const RELAY_WINDOW_MS = 500;

/**
 * True when this process runs under the `tsx` command, which relays signals to it (its preflight is loaded).
 * @example underSignalRelay(["--require", "/p/node_modules/tsx/dist/preflight.cjs"]) // true
 */
export function underSignalRelay(execArgv: readonly string[] = process.execArgv): boolean {
  return execArgv.some((a) => /tsx[\\/]dist[\\/]preflight\.cjs$/.test(a));
}

/** What the CLI says at each Ctrl-C (or SIGTERM). */
export const INTERRUPT_MESSAGES = {
  first:
    "Cancelling: nothing new starts; operations already running finish (within their time limits) and are saved, then the lock is released. Press Ctrl-C again to stop them at once.",
  second: "Stopping now: operations still running are abandoned and recorded as uncertain (the next run checks them); saving state…",
} as const;

/**
 * The Ctrl-C contract, as two of the run's signals (`RunSignals`). The first SIGINT/SIGTERM aborts
 * {@link Interrupts.stopStarting}: nothing new starts, running provider calls finish and are journaled, state
 * is saved, the lock released, exit 130. The second aborts {@link Interrupts.abandonCalls}: calls still
 * running are abandoned and journaled as uncertain, state is saved, exit 130 at once. A third exits immediately.
 *
 * @example const stop = new Interrupts((m) => io.err(m)); prog.stack({ signal: stop.stopStarting, abortSignal: stop.abandonCalls });
 */
export class Interrupts {
  private readonly stopStartingCtl = new AbortController();
  private readonly abandonCallsCtl = new AbortController();
  private count = 0;
  private lastSignal = Number.NEGATIVE_INFINITY;
  private readonly onSignal = () => this.signal();

  constructor(
    private readonly say: (message: string) => void,
    private readonly exit: (code: number) => void = exitOnPurpose,
    /** Signals closer than this to the one before are one Ctrl-C (see {@link RELAY_WINDOW_MS}); 0 counts each. */
    private readonly sameWithinMs: number = underSignalRelay() ? RELAY_WINDOW_MS : 0,
    private readonly now: () => number = Date.now,
  ) {
    // Every provider call and poll round listens to these while it runs: many at once is expected.
    setMaxListeners(0, this.stopStartingCtl.signal, this.abandonCallsCtl.signal);
    process.on("SIGINT", this.onSignal);
    process.on("SIGTERM", this.onSignal);
    // Interrupts that came while the command line was loading count as if they came now (under tsx's
    // relay, those few moments' signals are one Ctrl-C and its copy).
    const early = takeEarlyInterrupts();
    for (let n = this.sameWithinMs > 0 ? Math.min(early, 1) : early; n > 0; n--) this.interrupt();
  }

  /** Aborted by the first interrupt: start nothing new; what runs finishes and is saved. */
  get stopStarting(): AbortSignal {
    return this.stopStartingCtl.signal;
  }

  /** Aborted by the second interrupt: abandon the provider calls in flight, recording them as uncertain. */
  get abandonCalls(): AbortSignal {
    return this.abandonCallsCtl.signal;
  }

  /** Handles a SIGINT/SIGTERM: an interrupt, unless it is a relayed copy of the one just handled. */
  signal(): void {
    const at = this.now();
    if (at - this.lastSignal < this.sameWithinMs) return;
    this.lastSignal = at;
    this.interrupt();
  }

  /** Handles one interrupt (tests call it directly). */
  interrupt(): void {
    this.count++;
    if (this.count === 1) {
      this.say(INTERRUPT_MESSAGES.first);
      this.stopStartingCtl.abort(new Error("cancelled by the user"));
    } else if (this.count === 2) {
      this.say(INTERRUPT_MESSAGES.second);
      this.abandonCallsCtl.abort(new Error("stopped by the user"));
    } else {
      this.exit(130);
    }
  }

  /**
   * The run's exit code. After a second interrupt the state is saved by now, but abandoned provider calls
   * may still hold the event loop (a timer, a socket): the process exits at once instead of waiting for them.
   */
  settle(code: number): number {
    if (this.abandonCallsCtl.signal.aborted) this.exit(code === 0 ? 130 : code);
    return code;
  }

  /** Stops listening for signals. */
  dispose(): void {
    process.off("SIGINT", this.onSignal);
    process.off("SIGTERM", this.onSignal);
  }
}
