/**
 * `cairn [program file] <command> [options]`: runs the CLI of a program file's default export. Without a
 * file it uses `infra.ts` in the current folder. TypeScript files load through Node's own type stripping
 * where the runtime has it (Node 22.18+), else through tsx's loader registered in this process, so it works
 * on every supported Node without `--import` flags (see load-program.ts).
 *
 * @module
 */
import { guardProcess, runCli } from "./run.js";
import { loadProgram, splitProgramArg } from "./load-program.js";
import { EXIT, UsageError, errorText } from "./errors.js";

/** For CAIRN_DEBUG: who turned the program into JavaScript. */
const LOADERS = { node: "Node's own type stripping", tsx: "tsx's loader", none: "Node (JavaScript)" } as const;

guardProcess();
const { file, rest } = splitProgramArg(process.argv.slice(2), process.cwd());
if (!file || rest[0] === "new" || rest[0] === "fake-aws") {
  // Outside a project only help, the version, `new` and `fake-aws` make sense; anything else explains what is missing.
  process.exitCode = await runCli(undefined, rest, undefined, { command: "npx cairn" });
} else {
  try {
    const { program, shown, loader, fallback } = await loadProgram(file);
    if (fallback) process.stderr.write(`note: ${fallback}\n`);
    if (process.env.CAIRN_DEBUG) process.stderr.write(`debug: ${shown} loaded by ${LOADERS[loader]} on Node ${process.versions.node}\n`);
    process.exitCode = await runCli(program, rest, undefined, { command: `npx cairn ${shown}` });
  } catch (e) {
    // A file that is not a program is a usage error; a program that throws while loading is its own failure.
    process.stderr.write(`error: ${errorText(e, "the program")}\n`);
    if (process.env.CAIRN_DEBUG && e instanceof Error && e.stack) process.stderr.write(`${e.stack}\n`);
    process.exitCode = e instanceof UsageError ? EXIT.usage : EXIT.failure;
  }
}
