#!/usr/bin/env node
/**
 * `cairn <program file> <command> [options]`: runs the CLI of a program file's default export, for when
 * the file is not run directly (e.g. from a package script).
 */
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";
import { Program } from "../program/program.js";
import { runCli } from "./run.js";

const [file, ...rest] = process.argv.slice(2);
if (!file || file.startsWith("-")) {
  process.stderr.write("usage: cairn <program file> <command> [options]   (or run the program itself: npx tsx infra.ts <command>)\n");
  process.exit(2);
}
const mod = (await import(pathToFileURL(resolve(file)).href)) as { default?: unknown };
if (!(mod.default instanceof Program)) {
  process.stderr.write(`error: ${file} has no default export made by program(name, fn). Add \`export default program(...)\`.\n`);
  process.exit(2);
}
process.exitCode = await runCli(mod.default, rest);
