import { realpathSync } from "node:fs";
import { basename, dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { EvalContext, evaluateInContext, type EvalDiagnostic } from "./context.js";
import { Config, type ConfigValue } from "./config.js";
import { PACKAGE_ROOT } from "../package-root.js";
import { holdEarlyInterrupts } from "../early-interrupts.js";
import type { ResourceNode } from "./node.js";
import type { Output } from "./output.js";
import type { ProviderInstance } from "../provider/provider.js";
import { Stack, type StackOptions } from "../stack/stack.js";
import type { StackAccess } from "../stacks/access.js";

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
  applies: readonly Output<unknown>[];
}

/** Where the program lives and how a user runs it (for messages like "run `npx tsx infra.ts unlock`"). */
export interface ProgramLocation {
  /** Absolute path of the file that called `program(...)`, when known. */
  file?: string;
  /** The directory relative paths and the default state folder are resolved against. */
  dir: string;
  /** e.g. `npx tsx infra.ts`. */
  command: string;
}

/**
 * A Cairn program: a name and the function that declares its resources. Importing it runs nothing;
 * run from the command line (`npx tsx infra.ts up`), it runs the CLI.
 *
 * @example
 * // infra.ts
 * export default program("hello", () => {
 *   const f = new local.File("config", { path: "out/config.json", content: "{}" });
 *   return { path: f.path };
 * });
 * // elsewhere: const stack = (await import("./infra.js")).default.stack({ stack: "dev" });
 */
export class Program {
  /** Where the program lives (defaults: the current directory, run as `npx tsx infra.ts`). */
  readonly location: ProgramLocation;

  constructor(
    readonly name: string,
    readonly fn: ProgramFn,
    location: Partial<ProgramLocation> = {},
  ) {
    const file = location.file;
    this.location = {
      ...(file ? { file } : {}),
      dir: location.dir ?? (file ? dirname(file) : process.cwd()),
      command: location.command ?? `npx tsx ${file ? basename(file) : "infra.ts"}`,
    };
    if (!/^[A-Za-z0-9_.-]+$/.test(name)) throw new Error(`Invalid program name "${name}": use letters, digits, ".", "_" or "-".`);
  }

  /** Runs the program function once for `stack`, recording its resources. Scoped to this call. */
  async evaluate(opts: { stack: string; config?: Readonly<Record<string, ConfigValue>>; providers?: Readonly<Record<string, ProviderInstance>>; stacks?: StackAccess }): Promise<Evaluation> {
    const ctx = new EvalContext(this.name, opts.stack, this.location.command, opts.providers, opts.config, opts.stacks);
    const config = new Config(opts.config ?? {}, opts.stack, this.location.command, ctx.diagnostics);
    const returned = await evaluateInContext(ctx, () => this.fn({ stack: opts.stack, project: this.name, config }));
    const outputs = returned && typeof returned === "object" ? returned : {};
    return { project: this.name, stack: opts.stack, nodes: ctx.nodes, outputs, diagnostics: ctx.diagnostics, applies: ctx.applies };
  }

  /**
   * One stack of this program, to preview, apply, destroy or refresh from code.
   * @example const result = await prog.stack({ stack: "dev" }).up();
   */
  stack(opts: StackOptions = {}): Stack {
    return new Stack(this, opts);
  }
}

/**
 * Cairn's own folders, `dist/` and `src/`: frames from there are not the user's program. Both, because with
 * source maps on (as tsx turns them) a frame of `dist/x.js` is reported as `src/x.ts`.
 */
const OWN_ROOTS = [join(PACKAGE_ROOT, "dist") + sep, join(PACKAGE_ROOT, "src") + sep];

/**
 * The file that called the function calling this one (captured once per program, not per resource). It
 * reads the raw call sites: a formatted `stack` would be source-mapped first, and under tsx mapping a
 * large program's frames cost tens of milliseconds of every run.
 */
function callerFile(): string | undefined {
  const prepare = Error.prepareStackTrace;
  let sites: NodeJS.CallSite[] = [];
  try {
    Error.prepareStackTrace = (_e, callSites) => callSites;
    sites = (new Error().stack as unknown as NodeJS.CallSite[] | undefined) ?? [];
  } finally {
    Error.prepareStackTrace = prepare;
  }
  for (const site of sites) {
    const name = site.getFileName();
    if (!name || !(name.startsWith("/") || name.startsWith("file://") || /^[A-Za-z]:\\/.test(name))) continue;
    const f = name.startsWith("file://") ? fileURLToPath(name) : name;
    if (OWN_ROOTS.some((root) => f.startsWith(root))) continue;
    return f;
  }
  return undefined;
}

function sameFile(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return false;
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return a === b;
  }
}

/**
 * How the user started a program that is the process's entry point, for hints: under tsx's loader (`npx tsx
 * infra.ts`: tsx passes it to node with `--import`), else by Node itself (`node infra.ts`: Node 22.18+ strips
 * the types, and a .js program needs nothing).
 */
function entryCommand(shown: string): string {
  return process.execArgv.some((a) => /\btsx\b/.test(a)) ? `npx tsx ${shown}` : `node ${shown}`;
}

/**
 * What runs a program whose file is the process's entry point. `program` knows nothing of the CLI: the package
 * entry (`cairn`) registers a runner that loads the CLI only then, so importing a program stays light.
 */
let cliRunner: ((p: Program, argv: string[]) => Promise<number>) | undefined;

/**
 * Registers what runs a program file started directly (`npx tsx infra.ts up`): the CLI, loaded on demand.
 *
 * @example setCliRunner((p, argv) => runCli(p, argv)); // the package entry does this, loading the CLI lazily
 */
export function setCliRunner(run: (p: Program, argv: string[]) => Promise<number>): void {
  cliRunner = run;
}

/**
 * Declares a program. When its file is the process's entry point (`npx tsx infra.ts up`), the CLI runs on
 * `process.argv` after the module has loaded; when imported, nothing runs until asked.
 *
 * @example
 * import { program } from "cairn";
 * import { local } from "cairn/local";
 * export default program("hello", () => {
 *   const cfg = new local.File("config", { path: "out/config.json", content: "{}" });
 *   return { configPath: cfg.path };
 * });
 */
export function program(name: string, fn: ProgramFn): Program {
  const file = callerFile();
  const dir = file ? dirname(file) : process.cwd();
  const shown = file ? relative(process.cwd(), file) || basename(file) : "infra.ts";
  const isEntry = file !== undefined && sameFile(file, process.argv[1]);
  const p = new Program(name, fn, { file, dir, command: isEntry ? entryCommand(shown) : `npx tsx ${shown}` });
  if (isEntry) {
    // Until the command line loads (a moment), a Ctrl-C is counted, not fatal: it then cancels the command.
    holdEarlyInterrupts();
    setImmediate(() => {
      if (!cliRunner) {
        process.stderr.write(`error: ${shown} was run directly, but no command line is loaded: import program from "cairn" (not from a file inside it), or run \`npx cairn ${shown} <command>\`.\n`);
        process.exitCode = 1;
        return;
      }
      void cliRunner(p, process.argv.slice(2)).then((code) => (process.exitCode = code));
    });
  }
  return p;
}
