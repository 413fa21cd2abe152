import { Program } from "../../src/entry/program.js";
import { ok } from "./cloud.js";
import { runIn } from "./run-cli.js";

/** Runs the CLI of the good program in a case's project folder (to prepare it), failing loudly if that fails. */
export async function runCliIn(dir: string, argv: string[], program = ok): Promise<void> {
  const r = await runIn(new Program("bad", program, { dir, command: "npx tsx infra.ts" }), argv);
  if (r.code !== 0) throw new Error(`preparing the case with \`${argv.join(" ")}\` failed: ${r.stderr}`);
}
