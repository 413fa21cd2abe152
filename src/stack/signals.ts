import type { ProgramRuntime } from "../apply/executor.js";
import type { RunSignals } from "../apply/run-signals.js";
import type { CallSignals, Confirm } from "./options.js";

/** How one apply runs: its confirmation, the idle watch, the evaluation it was planned from, its signals. */
export interface ApplyControl extends CallSignals {
  confirm: Confirm | undefined;
  /** Aborted when the process would go idle with the run unfinished (`watchIdle`). */
  idle: AbortSignal;
  /** The evaluated program the plan was just made from (else it is found by the plan's fingerprint). */
  made?: ProgramRuntime | undefined;
  /** Resources (names or URNs) whose data this run may lose (`--allow-data-loss`); absent for destroy. */
  allowDataLoss?: readonly string[];
  /** Which round of `up` this is (1 when not given). */
  round?: number;
}

/**
 * The signals of a call's options, and nothing else.
 * @example execute({ ...signalsOf(opts) })
 */
export function signalsOf(o: CallSignals): CallSignals {
  return { ...(o.signal ? { signal: o.signal } : {}), ...(o.abortSignal ? { abortSignal: o.abortSignal } : {}) };
}

/**
 * One signal aborted by either (undefined when there is none).
 * @example const cancel = anySignal(stackOptions.signal, call.signal);
 */
function anySignal(a: AbortSignal | undefined, b: AbortSignal | undefined): AbortSignal | undefined {
  return a && b ? AbortSignal.any([a, b]) : (a ?? b);
}

/**
 * The signals an apply runs under: the stack's own and the call's, either of which stops it, and the idle
 * watch. `signal` (a first Ctrl-C) stops starting work; `abortSignal` (a second) abandons calls in flight.
 *
 * @example execute({ …, signals: runSignals(ctx.options, run) })
 */
export function runSignals(stack: CallSignals, run: ApplyControl): RunSignals {
  return { stopStarting: anySignal(stack.signal, run.signal), abandonCalls: anySignal(stack.abortSignal, run.abortSignal), idle: run.idle };
}
