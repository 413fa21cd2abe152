#!/usr/bin/env node
/**
 * `cairn [program file] <command> [options]`: runs the CLI of a program file's default export. Without a
 * file it uses `infra.ts` in the current folder. TypeScript files load through tsx's loader, registered in
 * this process, so it works on every supported Node (20.12+) without `--import` flags.
 */
import { runCli } from "./run.js";
import { loadProgram, splitProgramArg } from "./load-program.js";
import { EXIT } from "./errors.js";

const { file, rest } = splitProgramArg(process.argv.slice(2), process.cwd());
if (!file) {
  // Outside a project only help and the version make sense; anything else explains what is missing.
  process.exitCode = await runCli(undefined, rest, undefined, { command: "npx cairn" });
} else {
  try {
    const { program, shown } = await loadProgram(file);
    process.exitCode = await runCli(program, rest, undefined, { command: `npx cairn ${shown}` });
  } catch (e) {
    process.stderr.write(`error: ${(e as Error).message}\n`);
    process.exitCode = EXIT.usage;
  }
}
