import { spawn, type ChildProcess } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { afterAll } from "vitest";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const REPO = resolve(import.meta.dirname, "../..");
const TSX = join(REPO, "node_modules", ".bin", "tsx");

const made: string[] = [];
afterAll(async () => {
  for (const d of made.splice(0)) await rm(d, { recursive: true, force: true });
});

/** A temp project whose `cairn` import resolves to this repo's build (as an installed package would). */
export async function tempProject(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "cairn-e2e-"));
  made.push(dir); // removed after the test file's tests
  await mkdir(join(dir, "node_modules"), { recursive: true });
  await symlink(REPO, join(dir, "node_modules", "cairn-iac"), "dir");
  await writeFile(join(dir, "package.json"), JSON.stringify({ name: "e2e-project", type: "module", private: true }));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Starts `npx tsx infra.ts <args>` in its own process group (so kill -9 reaches tsx's child too). */
export function start(dir: string, args: string[], env: Record<string, string> = {}): ChildProcess {
  return spawn(TSX, ["infra.ts", ...args], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0", CAIRN_PASSPHRASE: "e2e-pass", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
}

/**
 * Starts `npx cairn infra.ts <args>` as the bin runs it, in one process (Node's own type stripping, or tsx's
 * loader in the same process on Node 20), in its own process group: for tests that send the run signals.
 * Through `npx tsx` a signal reaches the program by tsx's relay, which kills the program when it does not
 * answer within 30 ms, and a machine busy with other tests misses that (the program then never says a word).
 */
export function startBin(dir: string, args: string[], env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, [join(REPO, "dist", "cli", "bin.js"), "infra.ts", ...args], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0", CAIRN_PASSPHRASE: "e2e-pass", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
}

/** Runs the CLI to completion. */
export function cli(dir: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  const child = start(dir, args, env);
  return finish(child);
}

export function finish(child: ChildProcess): Promise<Run> {
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d) => (stdout += d));
  child.stderr!.on("data", (d) => (stderr += d));
  return new Promise((res) => child.on("close", (code) => res({ code, stdout, stderr })));
}

/** The `--json` events a run printed (one JSON object per stdout line). */
export function jsonEvents(stdout: string): { type: string; [k: string]: unknown }[] {
  return stdout.trim().split("\n").filter(Boolean).map((l) => JSON.parse(l) as { type: string });
}

/** The `plan` event of a `--json` run. */
export function planEvent(stdout: string): { steps: { op: string; urn: string; [k: string]: unknown }[]; [k: string]: unknown } {
  const plan = jsonEvents(stdout).find((e) => e.type === "plan");
  if (!plan) throw new Error(`no plan event in:\n${stdout}`);
  return plan as unknown as ReturnType<typeof planEvent>;
}

/**
 * Polls `check` every 50 ms until it holds; throws after `ms` (a test waiting for a child process to reach
 * a point, e.g. some objects made, before it is killed).
 *
 * @example await waitFor(async () => (await readdir(join(dir, "objs"))).length >= 3);
 */
export async function waitFor(check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("condition not met in time");
}
