import type { Urn } from "../core/urn.js";
import type { OpContext, ProviderInstance } from "../provider/provider.js";
import { note, type StackParts } from "./stack-parts.js";

/** How one provider call is bounded, and by which provider instance it is made. */
export interface CallBounds {
  /** A function is asked only if the provider reads the signal. */
  signal?: AbortSignal | (() => AbortSignal);
  timeoutMs?: number;
  provider?: ProviderInstance;
}

/**
 * The context of one provider call; `bounds.signal` bounds it (a timeout, an abandoned run).
 *
 * @example const ctx = opContext(parts, urn, { signal, timeoutMs: 60_000 });
 */
export function opContext(parts: StackParts, urn: Urn, bounds: CallBounds = {}): OpContext {
  const given = bounds.signal;
  let signal: AbortSignal | undefined = typeof given === "function" ? undefined : given;
  let log: OpContext["log"] | undefined;
  // The signal and the logger are made when a provider first reads them (most calls read neither).
  const lazy = {
    get signal(): AbortSignal {
      return (signal ??= typeof given === "function" ? given() : (parts.options.abortSignal ?? new AbortController().signal));
    },
    get log(): OpContext["log"] {
      return (log ??= { info: (m) => note(parts, "info", m, urn), warn: (m) => note(parts, "warning", m, urn) });
    },
  };
  return Object.assign(lazy, {
    clock: parts.clock,
    workDir: parts.program.location.dir,
    ...(bounds.timeoutMs ? { timeout: bounds.timeoutMs as OpContext["timeout"] } : {}),
    ...(bounds.provider ? { provider: bounds.provider } : {}),
  });
}

/**
 * The context of a read or lookup outside an apply: bounded by `timeout` (and a second Ctrl-C).
 *
 * @example provider.read({ urn, id, inputs, outputs, ctx: readContext(parts, urn) })
 */
export function readContext(parts: StackParts, urn: Urn, timeout?: number, provider?: ProviderInstance): OpContext {
  const signals = [parts.options.abortSignal, timeout ? AbortSignal.timeout(Math.ceil(timeout)) : undefined].filter((s): s is AbortSignal => !!s);
  return opContext(parts, urn, { ...(signals.length ? { signal: AbortSignal.any(signals) } : {}), ...(timeout ? { timeoutMs: timeout } : {}), ...(provider ? { provider } : {}) });
}
