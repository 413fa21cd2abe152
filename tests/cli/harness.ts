import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { Program, type ProgramFn } from "../../src/entry/program.js";
import { runCli } from "../../src/cli/run.js";
import type { Io } from "../../src/cli/io.js";
import type { LiveRegion } from "../../src/cli/progress/live.js";

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

/** A program whose folder (relative paths, default state) is a fresh temp dir. */
export async function programIn(name: string, fn: ProgramFn): Promise<{ prog: Program; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), "cairn-cli-"));
  dirs.push(dir);
  return { prog: new Program(name, fn, { dir, command: "npx tsx infra.ts" }), dir };
}

/** What a CLI run printed and returned. */
export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in-process, as from a pipe (no terminal) unless `io` says otherwise. */
export async function run(prog: Program | undefined, argv: string[], io: Partial<Io> = {}): Promise<Ran> {
  const out: string[] = [];
  const err: string[] = [];
  const region: LiveRegion = { update() {}, clear() {}, done() {} };
  const full: Io = {
    out: (s) => out.push(s),
    err: (s) => err.push(s),
    stdoutIsTTY: false,
    stdinIsTTY: false,
    env: { PATH: process.env.PATH, CAIRN_PASSPHRASE: "cli-test" },
    size: () => ({ columns: 100, rows: 30 }),
    region: () => region,
    confirm: async () => {
      throw new Error("no prompt expected");
    },
    ...io,
  };
  const code = await runCli(prog, argv, full);
  return { code, stdout: out.join("\n"), stderr: err.join("\n") };
}
