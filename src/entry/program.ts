import { realpathSync } from "node:fs";
import { basename, dirname, relative } from "node:path";
import { evaluateProgram, markProgram, type EvaluateOptions, type Evaluation, type ProgramFn, type ProgramLocation, type ProgramOptions, type ProgramSpec } from "../program/evaluate.js";
import { callerFile, DeclarationSites, userCallSite } from "../core/declaration-site.js";
import { holdEarlyInterrupts } from "../core/early-interrupts.js";
import { UserError } from "../core/diagnostic.js";
import { entryHasLoaded, refuseAtEntry } from "../program/error-text.js";
import { Stack, type StackOptions } from "../stack/stack.js";

export type { ProgramContext, ProgramFn, Evaluation, ProgramLocation, ProgramOptions, ProgramSpec } from "../program/evaluate.js";

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
export class Program implements ProgramSpec {
  /** Where the program lives (defaults: the current directory, run as `npx tsx infra.ts`). */
  readonly location: ProgramLocation;

  constructor(
    readonly name: string,
    readonly fn: ProgramFn,
    location: Partial<ProgramLocation> = {},
    /** Settings for the whole program (see {@link ProgramOptions}). */
    readonly options: ProgramOptions = {},
  ) {
    const file = location.file;
    this.location = {
      ...(file ? { file } : {}),
      dir: location.dir ?? (file ? dirname(file) : process.cwd()),
      command: location.command ?? `npx tsx ${file ? basename(file) : "infra.ts"}`,
      ...(location.site ? { site: location.site } : {}),
    };
    const invalid = invalidNameError(name, location.site);
    if (invalid) throw invalid;
    markProgram(this);
  }

  /** Runs the program function once for `stack`, recording its resources. Scoped to this call. */
  evaluate(opts: EvaluateOptions): Promise<Evaluation> {
    return evaluateProgram(this, opts);
  }

  /**
   * One stack of this program, to preview, apply, destroy or refresh from code.
   * @example const result = await prog.stack({ stack: "dev" }).up();
   */
  stack(opts: StackOptions = {}): Stack {
    return new Stack(this, opts);
  }
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
 * The error for a program name that cannot name a project (it is part of every URN and of the state's
 * path), saying what is allowed and where the name came from: the `program(...)` call at `site`, and the
 * environment variable that holds that value, if one does (`program(process.env.PROJECT!, …)`).
 */
function invalidNameError(name: unknown, site: ProgramLocation["site"]): UserError | undefined {
  if (typeof name === "string" && /^[A-Za-z0-9_.-]+$/.test(name)) return undefined;
  const shown = typeof name === "string" ? `"${name}"` : String(name);
  const fromEnv = typeof name === "string" ? Object.keys(process.env).filter((k) => process.env[k] === name) : [];
  const from = fromEnv.length ? ` It is the value of ${fromEnv.map((k) => `$${k}`).join(" and ")} in the environment.` : "";
  return new UserError({
    summary: `Invalid program name ${shown}: a program's name may use only letters, digits, ".", "_" and "-".`,
    detail: `The name is the first argument of program(...), and names the project in every URN and in the state.${from}`,
    ...(site?.toString() ? { site } : {}),
  });
}

/**
 * Declares a program. When its file is the process's entry point (`npx tsx infra.ts up`), the CLI runs on
 * `process.argv` after the module has loaded; when imported, nothing runs until asked.
 *
 * @example
 * import { program } from "cairn-iac";
 * import { local } from "cairn-iac/local";
 * export default program("hello", () => {
 *   const cfg = new local.File("config", { path: "out/config.json", content: "{}" });
 *   return { configPath: cfg.path };
 * });
 * // Objects named by the cloud, not `name-1a2b3c4`: program("hello", fn, { autoName: false })
 */
export function program(name: string, fn: ProgramFn, options: ProgramOptions = {}): Program {
  const file = callerFile();
  const dir = file ? dirname(file) : process.cwd();
  const shown = file ? relative(process.cwd(), file) || basename(file) : "infra.ts";
  const isEntry = file !== undefined && sameFile(file, process.argv[1]);
  const called = userCallSite(program);
  const site = new DeclarationSites().siteOf(called);
  const invalid = invalidNameError(name, site);
  if (invalid) refuseAtEntry(invalid, called?.getFileName());
  const p = new Program(name, fn, { file, dir, site, command: isEntry ? entryCommand(shown) : `npx tsx ${shown}` }, options);
  if (isEntry) {
    // Until the command line loads (a moment), a Ctrl-C is counted, not fatal: it then cancels the command.
    holdEarlyInterrupts();
    // The command line loads only now, so importing a program (a library, a test) stays light.
    setImmediate(() => {
      entryHasLoaded(); // a mistake from now on ends the command, not the process
      void import("../cli/run.js")
        .then(({ guardProcess, runCli }) => {
          guardProcess();
          return runCli(p, process.argv.slice(2));
        })
        .then((code) => (process.exitCode = code));
    });
  }
  return p;
}
