import { setMaxListeners } from "node:events";
import { takeEarlyInterrupts } from "../core/early-interrupts.js";

/** What the CLI says at each Ctrl-C (or SIGTERM). */
export const INTERRUPT_MESSAGES = {
  first:
    "Cancelling: nothing new starts; operations already running finish (within their time limits) and are saved, then the lock is released. Press Ctrl-C again to stop them at once.",
  second: "Stopping now: operations still running are abandoned and recorded as uncertain (the next run checks them); saving state…",
} as const;

/**
 * The Ctrl-C contract. The first SIGINT/SIGTERM cancels: nothing new starts, running provider calls finish
 * and are journaled, state is saved, the lock released, exit 130. The second aborts: calls still running are
 * abandoned and journaled as uncertain, state is saved, exit 130 at once. A third exits immediately.
 *
 * @example const stop = new Interrupts((m) => io.err(m)); prog.stack({ signal: stop.cancel, abortSignal: stop.abort });
 */
export class Interrupts {
  private readonly cancelCtl = new AbortController();
  private readonly abortCtl = new AbortController();
  private count = 0;
  private readonly onSignal = () => this.interrupt();

  constructor(
    private readonly say: (message: string) => void,
    private readonly exit: (code: number) => void = (code) => process.exit(code),
  ) {
    // Every provider call and poll round listens to these while it runs: many at once is expected.
    setMaxListeners(0, this.cancelCtl.signal, this.abortCtl.signal);
    process.on("SIGINT", this.onSignal);
    process.on("SIGTERM", this.onSignal);
    // Interrupts that came while the command line was loading count as if they came now.
    for (let n = takeEarlyInterrupts(); n > 0; n--) this.interrupt();
  }

  /** Aborted by the first interrupt: start nothing new. */
  get cancel(): AbortSignal {
    return this.cancelCtl.signal;
  }

  /** Aborted by the second interrupt: abandon what runs. */
  get abort(): AbortSignal {
    return this.abortCtl.signal;
  }

  /** Handles one interrupt (what a signal does; tests call it directly). */
  interrupt(): void {
    this.count++;
    if (this.count === 1) {
      this.say(INTERRUPT_MESSAGES.first);
      this.cancelCtl.abort(new Error("cancelled by the user"));
    } else if (this.count === 2) {
      this.say(INTERRUPT_MESSAGES.second);
      this.abortCtl.abort(new Error("stopped by the user"));
    } else {
      this.exit(130);
    }
  }

  /**
   * The run's exit code. After a second interrupt the state is saved by now, but abandoned provider calls
   * may still hold the event loop (a timer, a socket): the process exits at once instead of waiting for them.
   */
  settle(code: number): number {
    if (this.abortCtl.signal.aborted) this.exit(code === 0 ? 130 : code);
    return code;
  }

  /** Stops listening for signals. */
  dispose(): void {
    process.off("SIGINT", this.onSignal);
    process.off("SIGTERM", this.onSignal);
  }
}
