import { setMaxListeners } from "node:events";

/**
 * An AbortSignal that aborts when the process is about to go idle while a run is still going: nothing is
 * left on the event loop, so whatever the run awaits (a provider promise that never settles, a cycle of
 * values) can never finish. The run then fails naming what is stuck, saves state and releases its lock,
 * instead of the process exiting 0 in silence.
 *
 * @example const idle = watchIdle(); try { await run(idle.signal); } finally { idle.dispose(); }
 */
export function watchIdle(): { signal: AbortSignal; dispose(): void } {
  const ctl = new AbortController();
  // Every provider call and poll round of a run may listen to it: that is no leak.
  setMaxListeners(0, ctl.signal);
  const onIdle = () => ctl.abort(new Error("the process went idle with work outstanding"));
  process.on("beforeExit", onIdle);
  return { signal: ctl.signal, dispose: () => process.off("beforeExit", onIdle) };
}
