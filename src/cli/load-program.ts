import { existsSync, statSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { Program } from "../program/program.js";
import { PACKAGE_ROOT } from "../package-root.js";
import { UsageError } from "./errors.js";

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

/**
 * Imports a program file and returns its default export. TypeScript goes through tsx's loader, registered
 * in this process (Node's `module.register`), so `npx cairn infra.ts` needs no flags on any supported Node.
 *
 * @example const { program } = await loadProgram("/app/infra.ts");
 */
export async function loadProgram(file: string, cwd = process.cwd()): Promise<{ program: Program; shown: string }> {
  const shown = relative(cwd, file) || basename(file);
  if (!isFile(file)) throw new UsageError(`${shown} does not exist. Pass the program file (\`npx cairn path/to/infra.ts <command>\`).`);
  if (TYPESCRIPT.test(file)) {
    const { register } = await import("tsx/esm/api");
    register();
  }
  const mod = (await import(pathToFileURL(file).href)) as { default?: unknown };
  const p = mod.default;
  if (p instanceof Program) return { program: p, shown };
  if (p && typeof p === "object" && typeof (p as { stack?: unknown }).stack === "function") {
    throw new UsageError(`${shown} exports a program made by another copy of Cairn than this one (${PACKAGE_ROOT}). Run the project's own: \`npx cairn\` from the project folder.`);
  }
  throw new UsageError(`${shown} has no default export made by program(name, fn). Add \`export default program("my-app", () => { … })\`.`);
}
