import { EvalContext, evaluateInContext, type EvalDiagnostic } from "./context.js";
import { Config, type ConfigValue } from "./config.js";
import type { ResourceNode } from "./node.js";
import type { Resolvable } from "./resolver.js";
import type { ProviderInstance } from "../provider/provider.js";
import type { StackAccess } from "../state/stack-access.js";
import { settledBeforeIdle } from "./body-settles.js";
import { programOutputs } from "./program-outputs.js";
import { globalShadowError } from "./global-shadow.js";

/** What a program function receives. */
export interface ProgramContext {
  /** The stack being deployed (`--stack`, default `dev`). */
  stack: string;
  /** The program's name. */
  project: string;
  config: Config;
}

/** The function that declares a program's resources; it returns the stack outputs. */
export type ProgramFn = (ctx: ProgramContext) => Record<string, unknown> | void | Promise<Record<string, unknown> | void>;

/** What one evaluation recorded: the resources and the stack outputs, plus problems found on the way. */
export interface Evaluation {
  project: string;
  stack: string;
  nodes: ResourceNode[];
  outputs: Record<string, unknown>;
  diagnostics: EvalDiagnostic[];
  /** Outputs the program made with `apply` (planning runs those nothing used, so a declaration in one is never dropped unseen). */
  applies: readonly Resolvable[];
  /** Nodes its `apply` callbacks declare later, while planning (see {@link Declarations}). */
  declarations: Declarations;
}

/**
 * How the engine follows resources an evaluation's `apply` callbacks declare after the program function
 * returned: the planner listens while it plans; once the plan is made the evaluation is sealed, and a
 * callback that declares a resource then is refused with a message (that resource was in no plan).
 *
 * @example const stop = ev.declarations.listen(plan); await planning; stop(); ev.declarations.seal();
 */
export interface Declarations {
  /** Calls `listener` for each node declared from now on; returns how to stop. */
  listen(listener: (node: ResourceNode) => void): () => void;
  /** Refuses declarations from now on (the plan is made). */
  seal(): void;
}

/** Where the program lives and how a user runs it (for messages like "run `npx tsx infra.ts unlock`"). */
export interface ProgramLocation {
  /** Absolute path of the file that called `program(...)`, when known. */
  file?: string;
  /** The directory relative paths and the default state folder are resolved against. */
  dir: string;
  /** e.g. `npx tsx infra.ts`. */
  command: string;
  /** Where `program(...)` was called (`infra.ts:3:16`), for messages about the program's body; "" or absent when not known. */
  site?: { toString(): string };
}

/**
 * A program as the engine sees it: plain data, a name, the function and where it lives. The `Program` class
 * users get from `program(...)` is one; the engine and the CLI need no more, so they never import it.
 *
 * @example const spec: ProgramSpec = { name: "hello", fn: () => ({}), location: { dir: ".", command: "npx tsx infra.ts" } };
 */
export interface ProgramSpec {
  readonly name: string;
  readonly fn: ProgramFn;
  readonly location: ProgramLocation;
  /** Settings for the whole program (`program(name, fn, options)`). */
  readonly options?: ProgramOptions;
}

/**
 * Settings for the whole program, the third argument of `program(...)`.
 *
 * @example program("app", fn, { autoName: false })
 */
export interface ProgramOptions {
  /**
   * Whether Cairn names new objects whose type names them and whose name the program leaves out
   * (`jobs-1a2b3c4`, kept in state; default true). A resource's own `autoName` option wins.
   */
  autoName?: boolean;
}

/** What one evaluation is given: the stack, its configuration and its default provider instances. */
export interface EvaluateOptions {
  stack: string;
  config?: Readonly<Record<string, ConfigValue>>;
  providers?: Readonly<Record<string, ProviderInstance>>;
  /** How `stackOutputs(...)` reads other stacks (the stack's backend and passphrase). */
  stacks?: StackAccess;
}

/**
 * Runs a program's function once for one stack, recording its resources. Scoped to this call: two
 * evaluations never share what they record.
 *
 * @example const ev = await evaluateProgram(spec, { stack: "dev" }); ev.nodes.length;
 */
export async function evaluateProgram(spec: ProgramSpec, opts: EvaluateOptions): Promise<Evaluation> {
  const ctx = new EvalContext(spec.name, opts.stack, spec.location.command, opts.providers, opts.config, opts.stacks);
  const config = new Config(opts.config ?? {}, opts.stack, spec.location.command, ctx.diagnostics);
  const at = spec.location.site?.toString() ?? "";
  const body = () => settledBeforeIdle(spec.fn({ stack: opts.stack, project: spec.name, config }), at);
  const returned = await evaluateInContext(ctx, body).catch((e: unknown) => Promise.reject(globalShadowError(e) ?? e));
  const outputs = programOutputs(returned, spec.location.site);
  return { project: spec.name, stack: opts.stack, nodes: ctx.nodes, outputs, diagnostics: ctx.diagnostics, applies: ctx.applies, declarations: declarationsOf(ctx) };
}

/**
 * How the engine follows an evaluation's later declarations (see {@link Declarations}). Once sealed they let
 * go of the evaluation's context: what the apply keeps of a run (its graph, its plan) then no longer keeps
 * the context's map of nodes by URN (~50 bytes a resource). Callbacks that hold the context see it sealed.
 */
function declarationsOf(ctx: EvalContext): Declarations {
  let open: EvalContext | undefined = ctx;
  return {
    listen: (l) => (open ? open.listen(l) : () => {}),
    seal: () => {
      if (open) open.sealed = true;
      open = undefined;
    },
  };
}

/** Marks the programs made by this copy of Cairn (a `Program` of another copy is told apart from a stray value). */
const PROGRAM_MARK = Symbol("cairn.program");

/**
 * Marks `p` as a program of this copy of Cairn (the `Program` constructor does).
 *
 * @example markProgram(this);
 */
export function markProgram(p: ProgramSpec): void {
  Object.defineProperty(p, PROGRAM_MARK, { value: true });
}

/**
 * Whether `v` is a program made by this copy of Cairn, as `instanceof Program` would say, without importing
 * the class (which opens stacks and the CLI).
 *
 * @example if (!isProgram(mod.default)) throw new UsageError("no default export made by program(…)");
 */
export function isProgram(v: unknown): v is ProgramSpec {
  return typeof v === "object" && v !== null && (v as Record<symbol, unknown>)[PROGRAM_MARK] === true;
}
