/**
 * The three ways an apply is told to stop, each an AbortSignal with one meaning. A run given none of them
 * runs to its end.
 *
 * - `stopStarting`: the user asked the run to end (a first Ctrl-C, `StackOptions.signal`, a call's `signal`).
 *   Nothing new starts: ready actions are skipped as cancelled, a call still waiting for its slot closes its
 *   record and does not start, waits stop polling. Calls already running finish and are saved.
 * - `abandonCalls`: the user asked the run to end now (a second Ctrl-C, `abortSignal`). Calls in flight are
 *   abandoned and left recorded as uncertain (the next run reads the object back); an answer that still
 *   arrives while the run saves is recorded.
 * - `idle`: the process would go idle with work outstanding (`watchIdle`): a provider promise that never
 *   settles. Calls in flight are abandoned as uncertain, naming that they never settled.
 *
 * @example execute({ …, signals: { stopStarting: interrupts.stopStarting, abandonCalls: interrupts.abandonCalls, idle: watch.signal } })
 */
export interface RunSignals {
  /** Start nothing new; what runs finishes and is saved (a first Ctrl-C). */
  readonly stopStarting?: AbortSignal | undefined;
  /** Abandon the calls in flight, recording them as uncertain (a second Ctrl-C). */
  readonly abandonCalls?: AbortSignal | undefined;
  /** The process would go idle with calls unsettled: abandon them as uncertain. */
  readonly idle?: AbortSignal | undefined;
}

/**
 * The signals that end calls in flight (abandon and idle), those given: what a call's bound listens to.
 * @example new InFlight(endingCalls(signals), parallel)
 */
export function endingCalls(s: RunSignals): AbortSignal[] {
  const out: AbortSignal[] = [];
  if (s.abandonCalls) out.push(s.abandonCalls);
  if (s.idle) out.push(s.idle);
  return out;
}

/**
 * Every signal given, in the order stop starting, abandon calls, idle (what a wait's read listens to).
 * @example AbortSignal.any([AbortSignal.timeout(ms), ...allSignals(signals)])
 */
export function allSignals(s: RunSignals): AbortSignal[] {
  return s.stopStarting ? [s.stopStarting, ...endingCalls(s)] : endingCalls(s);
}
