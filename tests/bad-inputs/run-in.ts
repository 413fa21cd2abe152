import { Program } from "../../src/entry/program.js";
import { run } from "../cli/harness.js";
import { ok } from "./cloud.js";

/** Runs the CLI of the good program in a case's project folder (to prepare it), failing loudly if that fails. */
export async function runCliIn(dir: string, argv: string[]): Promise<void> {
  const r = await run(new Program("bad", ok, { dir, command: "npx tsx infra.ts" }), argv);
  if (r.code !== 0) throw new Error(`preparing the case with \`${argv.join(" ")}\` failed: ${r.stderr}`);
}
