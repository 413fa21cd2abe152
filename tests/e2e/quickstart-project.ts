import { mkdir, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { REPO, tempProject } from "./cli-harness.js";

const QUICKSTART = join(REPO, "examples/quickstart");

/** A temp project holding a copy of examples/quickstart (its infra.ts and server scripts). */
export async function quickstartProject(extra: Record<string, string> = {}): Promise<string> {
  const files: Record<string, string> = { "infra.ts": await readFile(join(QUICKSTART, "infra.ts"), "utf8"), ...extra };
  const dir = await tempProject(files);
  await mkdir(join(dir, "server"));
  for (const f of await readdir(join(QUICKSTART, "server"))) {
    const { writeFile } = await import("node:fs/promises");
    await writeFile(join(dir, "server", f), await readFile(join(QUICKSTART, "server", f), "utf8"));
  }
  return dir;
}

/** The pids of servers the quickstart started in `dir` (from their pid files), for checks and cleanup. */
export async function serverPids(dir: string): Promise<number[]> {
  const out = join(dir, "out");
  const stacks = await readdir(out).catch(() => [] as string[]);
  const pids: number[] = [];
  for (const s of stacks) {
    const text = await readFile(join(out, s, "server.json"), "utf8").catch(() => undefined);
    if (text) pids.push((JSON.parse(text) as { pid: number }).pid);
  }
  return pids;
}

/** True while `pid` runs (a zombie waiting to be reaped counts as stopped). */
export async function isRunning(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
  return !/^\d+ \(.*\) Z/.test(stat);
}

/** Stops every server a test left running in `dir` (tests stop what they start, even when they fail). */
export async function stopServers(dir: string): Promise<void> {
  for (const pid of await serverPids(dir)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}
