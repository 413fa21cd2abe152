/**
 * Ctrl-C (or SIGTERM) in the first moments of `npx tsx infra.ts <command>`, after the program file declared
 * its program but before the command line has loaded and installed its own handlers: counted here instead
 * of killing the process outright, then handed to the command line, which cancels the command cleanly
 * (nothing has started by then). Signals are process-wide, so this is too.
 *
 * @module
 */

let held: { count: number; off: () => void } | undefined;

/**
 * Starts counting interrupts until {@link takeEarlyInterrupts}; a third one exits at once (130), as later.
 * @example holdEarlyInterrupts(); // in program(), when its file is the entry point
 */
export function holdEarlyInterrupts(): void {
  if (held) return;
  const state = { count: 0, off: () => {} };
  const on = () => {
    state.count++;
    if (state.count >= 3) process.exit(130);
  };
  process.on("SIGINT", on);
  process.on("SIGTERM", on);
  state.off = () => {
    process.off("SIGINT", on);
    process.off("SIGTERM", on);
  };
  held = state;
}

/**
 * Stops counting and returns how many interrupts came: the command line's handlers take over from here.
 * @example for (let i = takeEarlyInterrupts(); i > 0; i--) interrupts.interrupt();
 */
export function takeEarlyInterrupts(): number {
  if (!held) return 0;
  const n = held.count;
  held.off();
  held = undefined;
  return n;
}
