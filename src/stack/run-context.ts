import type { ProgramSpec } from "../program/evaluate.js";
import type { Urn } from "../core/urn.js";
import type { EngineEvent } from "../apply/events.js";
import type { ProviderInstance } from "../provider/provider.js";
import type { ProviderRecord } from "../state/types.js";
import { DEFAULT_PARALLEL, type StackOptions } from "./options.js";
import type { RefreshEnv } from "./refresh.js";
import type { SettleEnv } from "./settle-interrupted.js";
import { Evaluations } from "./evaluations.js";
import { readRunner, unboundedContext } from "./op-context.js";
import { note, stackParts, type StackParts } from "./stack-parts.js";

/** A stack's parts with its program's evaluations: what running and editing the stack works with. */
export interface RunContext extends StackParts {
  readonly evaluations: Evaluations;
}

/**
 * The run context of stack `options.stack` of `program`; its events, redacted, go to `emit`.
 *
 * @example const ctx = runContext(program, { stack: "test" }, (e) => subject.next(e));
 */
export function runContext(program: ProgramSpec, options: StackOptions, emit: (e: EngineEvent) => void): RunContext {
  const parts = stackParts(program, options, emit);
  return { ...parts, evaluations: new Evaluations(parts) };
}

/**
 * How refresh and settling interrupted operations reach each recorded object: its provider, its instance, a bounded context.
 *
 * @example await readAll(state, providerEnv(ctx));
 */
export function providerEnv(ctx: RunContext): RefreshEnv & SettleEnv {
  return {
    opContext: (urn: Urn, provider?: ProviderInstance) => unboundedContext(ctx, urn, provider),
    read: readRunner(ctx),
    instanceFor: (type: string, r: ProviderRecord | undefined) => ctx.evaluations.instanceFor(type, r),
    warn: (m: string, urn: Urn) => note(ctx, "warning", m, urn),
    providers: ctx.providers,
    parallel: ctx.options.parallel ?? DEFAULT_PARALLEL,
    definitionOf: (type: string) => ctx.definitions.find(type),
    command: ctx.program.location.command,
  };
}
