import type { Urn } from "../core/urn.js";
import type { Clock, Logger, OpContext, OperationRecord, ProviderInstance } from "../provider/provider.js";
import type { Duration } from "../core/duration.js";
import type { CallBounds } from "../apply/context.js";
import { note, type StackParts } from "./stack-parts.js";
import { boundedRead, DEFAULT_READ_TIMEOUT_MS, type ReadRunner } from "../runtime/bounded-read.js";
import { InFlight } from "../apply/in-flight.js";
import { DEFAULT_RETRY_DEADLINE_MS } from "../core/retry-policy.js";
import { formatDuration } from "../core/duration.js";
import { nameOf } from "../core/urn.js";

/**
 * The context of one provider call; `bounds.signal` bounds it (a timeout, an abandoned run).
 *
 * @example const ctx = opContext(parts, urn, { signal, timeoutMs: 60_000 });
 */
export function opContext(parts: StackParts, urn: Urn, bounds: CallBounds = {}): OpContext {
  return new CallContext(parts, urn, bounds);
}

/**
 * One call's context: a small object per call. The signal is made when a provider first reads it (most
 * calls never do, and an AbortController per call costs more than a fast provider's call), by a getter on
 * the class; everything else is a field, so a context copied by spreading it (`{ ...ctx, signal }`, to bound a
 * call further) keeps its logger, clock and the rest, and only a copy that names no signal has none.
 */
class CallContext implements OpContext {
  readonly log: Logger;
  readonly clock: Clock;
  readonly workDir: string;
  timeout?: Duration;
  provider?: ProviderInstance;
  operation?: OperationRecord;
  pause?: <T>(p: Promise<T>) => Promise<T>;
  readonly #parts: StackParts;
  readonly #signal: CallBounds["signal"];
  #unbounded: AbortSignal | undefined;

  constructor(parts: StackParts, urn: Urn, bounds: CallBounds) {
    this.#parts = parts;
    this.#signal = bounds.signal;
    // A provider's text does not know the resource's name in the program: the note names it.
    this.log = { info: (m) => note(parts, "info", `"${nameOf(urn)}": ${m}`, urn), warn: (m) => note(parts, "warning", `"${nameOf(urn)}": ${m}`, urn) };
    this.clock = parts.clock;
    this.workDir = parts.program.location.dir;
    if (bounds.timeoutMs) this.timeout = bounds.timeoutMs as Duration;
    if (bounds.provider) this.provider = bounds.provider;
    if (bounds.operation) this.operation = bounds.operation;
    if (bounds.pause) this.pause = bounds.pause;
  }

  get signal(): AbortSignal {
    const given = this.#signal;
    if (given === undefined) return (this.#unbounded ??= this.#parts.options.abortSignal ?? new AbortController().signal);
    return given instanceof AbortSignal ? given : given.signal;
  }
}

/**
 * The context of a provider call outside an apply that bounds itself (a provider's `resume` of an
 * interrupted operation): ended by a second Ctrl-C only. Reads go through {@link readRunner}.
 *
 * @example await provider.resume({ urn, kind, note, ctx: unboundedContext(parts, urn) })
 */
export function unboundedContext(parts: StackParts, urn: Urn, provider?: ProviderInstance): OpContext {
  const stop = parts.options.abortSignal;
  return opContext(parts, urn, { ...(stop ? { signal: stop } : {}), ...(provider ? { provider } : {}) });
}

/**
 * Reads outside an apply as the stack makes them (see `boundedRead`): each within
 * {@link DEFAULT_READ_TIMEOUT_MS} (and a second Ctrl-C), transient failures retried until the stack's retry
 * deadline, each retry said as an info diagnostic naming the resource. One `InFlight` bounds them all (one
 * timer; a read's signal made only if its provider asks), as the apply bounds its calls.
 *
 * @example const outputs = await readRunner(parts)(urn, instance, (ctx) => provider.read({ urn, id, inputs, outputs, ctx }));
 */
export function readRunner(parts: StackParts): ReadRunner {
  const retryDeadlineMs = parts.options.retryDeadline ?? DEFAULT_RETRY_DEADLINE_MS;
  // Made while reads run and closed when none does: it listens to the stack's abort signal, which a program
  // may pass to many runs.
  let reads: InFlight | undefined;
  let running = 0;
  const done = () => {
    if (--running > 0) return;
    reads?.close();
    reads = undefined;
  };
  return (urn, provider, read, stop) => {
    const bound = (reads ??= new InFlight([parts.options.abortSignal])).open(DEFAULT_READ_TIMEOUT_MS);
    running++;
    const ctx = opContext(parts, urn, { signal: bound, timeoutMs: DEFAULT_READ_TIMEOUT_MS, ...(provider ? { provider } : {}) });
    const retrying = (attempt: number, error: string, delayMs: number) =>
      note(parts, "info", `Reading "${nameOf(urn)}" failed (${error}), a transient failure: trying again in ${formatDuration(delayMs)} (retry ${attempt}).`, urn);
    return boundedRead(ctx, bound, { retryDeadlineMs, retrying, ...(stop ? { stop } : {}) }, () => read(ctx)).finally(() => {
      bound.dispose();
      done();
    });
  };
}
