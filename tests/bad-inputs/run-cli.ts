import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../../src/cli/run.js";
import type { Io } from "../../src/cli/io.js";
import type { LiveRegion } from "../../src/cli/progress/live.js";
import type { ProgramSpec } from "../../src/program/evaluate.js";

// The CLI run in-process for the bad-input cases, without vitest (the trials script runs them too).

/** What a CLI run printed and returned. */
export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** The environment a case runs in unless it says otherwise. */
export const BASE_ENV = { PATH: process.env.PATH, CAIRN_PASSPHRASE: "cli-test" };

/** Runs the CLI in-process, as from a pipe (no terminal). */
export async function runIn(prog: ProgramSpec | undefined, argv: string[], env: Record<string, string | undefined> = BASE_ENV): Promise<Ran> {
  const out: string[] = [];
  const err: string[] = [];
  const region: LiveRegion = { update() {}, clear() {}, done() {} };
  const io: Io = {
    out: (s) => out.push(s),
    err: (s) => err.push(s),
    stdoutIsTTY: false,
    stdinIsTTY: false,
    env,
    size: () => ({ columns: 100, rows: 30 }),
    region: () => region,
    confirm: async () => {
      throw new Error("no prompt expected");
    },
  };
  const code = await runCli(prog, argv, io);
  return { code, stdout: out.join("\n"), stderr: err.join("\n") };
}

const made: string[] = [];

/** A fresh project folder (removed by {@link removeFolders}). */
export async function projectFolder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "cairn-bad-"));
  made.push(dir);
  return dir;
}

/** Removes the folders {@link projectFolder} made. */
export async function removeFolders(): Promise<void> {
  for (const d of made.splice(0)) await rm(d, { recursive: true, force: true }).catch(() => {});
}
