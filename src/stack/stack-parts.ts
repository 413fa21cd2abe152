import { isAbsolute, join, resolve } from "node:path";
import type { ProgramSpec } from "../program/evaluate.js";
import type { Urn } from "../core/urn.js";
import type { EngineEvent, EventSink } from "../apply/events.js";
import { SecretRegistry } from "../apply/secret-registry.js";
import type { Clock } from "../provider/provider.js";
import { tracedProviders, type ProviderSource } from "../program/registry.js";
import { RunDefinitions } from "../program/run-definitions.js";
import type { DebugLog } from "../provider/trace.js";
import { openBackend } from "../state/open-backend.js";
import type { StateBackend } from "../state/backend.js";
import { stackAccess, type StackAccess } from "../state/stack-access.js";
import { realClock } from "./clock.js";
import type { StackOptions } from "./options.js";
import type { PlanFor } from "./plan-head.js";

/** What every command of one stack works with: its program, its state, and where its events and calls go. */
export interface StackParts {
  readonly name: string;
  readonly program: ProgramSpec;
  readonly options: StackOptions;
  readonly backend: StateBackend;
  /** How `stackOutputs`, `stack graph` and `destroy` reach the other stacks of this backend. */
  readonly access: StackAccess;
  readonly clock: Clock;
  /** The one way events leave the stack: through the secret redaction pass. */
  readonly sink: EventSink;
  /** Every secret value this stack has seen (config, state, plans, applies): nothing it emits shows one. */
  readonly secrets: SecretRegistry;
  /** The type definitions of this stack's program: an object it no longer declares is reached through them. */
  readonly definitions: RunDefinitions;
  /** Where every provider call gets its provider (traced ones with `debug`). */
  readonly providers: ProviderSource;
  /** The debug trace, redacted; undefined when off. */
  readonly debug: DebugLog | undefined;
}

/**
 * The state backend of stack `name` of `program` (the options' backend, else `CAIRN_BACKEND` or the state
 * folder), with how it reaches the other stacks of that backend.
 *
 * @example const { backend } = openStackBackend(program, options, "prod");
 */
export function openStackBackend(program: ProgramSpec, options: StackOptions, name: string): { backend: StateBackend; access: StackAccess } {
  const dir = options.stateDir ?? process.env.CAIRN_STATE_DIR ?? join(program.location.dir, ".cairn");
  const given = options.backend ?? (options.stateDir === undefined ? process.env.CAIRN_BACKEND : undefined);
  const stateDir = isAbsolute(dir) ? dir : resolve(dir);
  const passphrase = options.passphrase ?? process.env.CAIRN_PASSPHRASE;
  const backend = openBackend({ backend: given, stateDir, stack: name, project: program.name, passphrase, programHint: program.location.command, fromBackup: options.fromBackup });
  return { backend, access: stackAccess({ backend, given, stateDir, passphrase }) };
}

/**
 * The parts of stack `options.stack` (default `dev`) of `program`; its events, redacted, go to `emit`.
 *
 * @example const parts = stackParts(program, { stack: "test" }, (e) => subject.next(e));
 */
export function stackParts(program: ProgramSpec, options: StackOptions, emit: (e: EngineEvent) => void): StackParts {
  const name = options.stack ?? "dev";
  const secrets = new SecretRegistry();
  const log = options.debug;
  // Redacted at the last moment: the registry learns secrets as the run meets them.
  const debug = log && ((line: string) => log(secrets.redact(line)));
  const definitions = new RunDefinitions();
  const source = definitions.source(options.providers);
  return {
    name, program, options, secrets, definitions, debug,
    clock: options.clock ?? realClock,
    providers: debug ? tracedProviders(source, debug) : source,
    sink: { next: (e) => emit(secrets.redactEvent(e)) },
    ...openStackBackend(program, options, name),
  };
}

/**
 * Tells the user something through the stack's events.
 * @example note(parts, "warning", "The program could not be evaluated", urn);
 */
export function note(parts: StackParts, severity: "info" | "warning" | "error", message: string, urn?: Urn): void {
  parts.sink.next({ type: "diagnostic", severity, summary: message, ...(urn ? { urn } : {}) });
}

/**
 * Which stack plans are made for, and applied to.
 * @example planFor(parts) // { project: "web", stack: "dev" }
 */
export function planFor(parts: StackParts): PlanFor {
  return { project: parts.program.name, stack: parts.name };
}
