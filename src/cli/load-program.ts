import { existsSync, statSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { isProgram, type ProgramSpec } from "../program/evaluate.js";
import { PACKAGE_ROOT } from "../core/package-root.js";
import { UsageError } from "./errors.js";
import { nodeCanLoad, strippingFailure } from "./type-stripping.js";
import { loadTypeScriptAsEsm } from "./esm-programs.js";
import { withOneLineTypelessWarning } from "./typeless-package.js";
import { missingImportError } from "./missing-import.js";
import { globalShadowError } from "../program/global-shadow.js";
import { isUserError } from "../core/diagnostic.js";

const PROGRAM_FILE = /\.(?:[cm]?[jt]s|[jt]sx)$/;
const TYPESCRIPT = /\.(?:[cm]?ts|tsx)$/;
/** What `npx cairn` looks for in the current folder when no file is given. */
export const DEFAULT_FILES = ["infra.ts", "infra.mts", "infra.js", "infra.mjs"];

const isFile = (p: string) => existsSync(p) && statSync(p).isFile();

/**
 * Splits `cairn`'s arguments into the program file and the command line: the first argument when it names
 * a script (`infra.ts`, `deploy/main.mts`), else `infra.ts` (or `.mts`/`.js`/`.mjs`) in `cwd` if there is one.
 *
 * @example splitProgramArg(["infra.ts", "up", "--yes"], cwd) // { file: "infra.ts", rest: ["up", "--yes"] }
 * @example splitProgramArg(["preview"], cwd)                // { file: "infra.ts", rest: ["preview"] } when cwd has infra.ts
 */
export function splitProgramArg(argv: readonly string[], cwd: string): { file?: string; rest: string[] } {
  const [first, ...others] = argv;
  if (first !== undefined && !first.startsWith("-") && PROGRAM_FILE.test(first)) return { file: resolve(cwd, first), rest: others };
  const found = DEFAULT_FILES.map((f) => join(cwd, f)).find(isFile);
  return found ? { file: found, rest: [...argv] } : { rest: [...argv] };
}

/** What {@link loadProgram} loaded, and how. */
export interface LoadedProgram {
  program: ProgramSpec;
  /** The file as the user sees it (relative to `cwd`), for hints: `npx cairn infra.ts`. */
  shown: string;
  /** Who turned TypeScript into JavaScript: Node itself, tsx's loader, or nobody (a .js program). */
  loader: "node" | "tsx" | "none";
  /** Why Node's own type stripping was not used though this Node has it: one line for the user. */
  fallback?: string;
}

/**
 * Imports a program file and returns its default export. On a Node that strips types itself (22.18+) a
 * TypeScript program loads with no loader at all; on Node 20, for `.tsx`, or when stripping cannot load
 * the program (see {@link strippingFailure}), tsx's loader is registered in this process (Node's
 * `module.register`) and the program is imported again. Either way `npx cairn infra.ts` needs no flags.
 *
 * @example const { program, fallback } = await loadProgram("/app/infra.ts");
 */
export async function loadProgram(file: string, cwd = process.cwd()): Promise<LoadedProgram> {
  const shown = relative(cwd, file) || basename(file);
  if (!isFile(file)) throw new UsageError(`${shown} does not exist. Pass the program file (\`npx cairn path/to/infra.ts <command>\`).`);
  const url = pathToFileURL(file).href;
  if (!TYPESCRIPT.test(file)) return { program: defaultProgram(await importing(url, cwd).catch((e: unknown) => Promise.reject(commonJsFailure(e, shown) ?? e)), shown), shown, loader: "none" };
  let fallback: string | undefined;
  if (nodeCanLoad(file)) {
    try {
      const mod = await withOneLineTypelessWarning(() => importing(url, cwd), (line) => process.stderr.write(line), shown);
      return { program: defaultProgram(mod, shown), shown, loader: "node" };
    } catch (e) {
      // A misspelt Cairn module fails under tsx too: said at once, not after loading again.
      if (isUserError(e) && !(e.cause instanceof Error && /Cannot find package/.test(e.cause.message))) throw e;
      fallback = strippingFailure(isUserError(e) ? e.cause : e, shown, cwd);
      if (!fallback) throw e;
    }
  }
  const { register } = await import("tsx/esm/api");
  register();
  loadTypeScriptAsEsm(); // with or without "type": "module" in the project's package.json
  // After a failed attempt Node keeps the failure for that URL: a query makes it a new module for tsx. When the
  // failure was in the program's static imports nothing of it ran (a module graph that fails to load evaluates
  // none of its modules); one in an import() the program awaits at its top level runs what came before again.
  const again = fallback ? `${url}?tsx` : url;
  return { program: defaultProgram(await importing(again, cwd), shown), shown, loader: "tsx", ...(fallback ? { fallback } : {}) };
}

/**
 * Imports the program's module; what fails while it loads is told at the user's line where Cairn knows the
 * mistake: an import Node cannot resolve (a misspelt `cairn-iac/aws/S3`), or a global such as `Function`
 * called at the top level for want of its import.
 */
function importing(url: string, cwd: string): Promise<{ default?: unknown }> {
  return (import(url) as Promise<{ default?: unknown }>).catch((e: unknown) => Promise.reject(missingImportError(e, cwd) ?? globalShadowError(e) ?? e));
}

/**
 * What to add when Node loaded a `.js` program with import/export as CommonJS (a Node without syntax
 * detection, before 20.19 and 22.7, in a folder whose package.json has no `"type": "module"`).
 */
function commonJsFailure(e: unknown, shown: string): UsageError | undefined {
  if (!(e instanceof SyntaxError) || !/Cannot use import statement outside a module|Unexpected token 'export'/.test(e.message)) return undefined;
  return new UsageError(`${shown} uses import/export, but Node ${process.versions.node} loads it as CommonJS: add "type": "module" to the package.json of its folder, or name it ${basename(shown).replace(/\.c?js$/, ".mjs")}.`);
}

/** The module's default export when it is a program of this Cairn; otherwise a usage error saying what to do. */
function defaultProgram(mod: { default?: unknown }, shown: string): ProgramSpec {
  const p = mod.default;
  if (isProgram(p)) return p;
  if (p && typeof p === "object" && typeof (p as { stack?: unknown }).stack === "function") {
    throw new UsageError(`${shown} exports a program made by another copy of Cairn than this one (${PACKAGE_ROOT}). Run the project's own: \`npx cairn\` from the project folder.`);
  }
  throw new UsageError(`${shown} has no default export made by program(name, fn). Add \`export default program("my-app", () => { … })\`.`);
}
