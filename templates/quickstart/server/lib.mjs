// Shared by start/stop/health: where the pid file lives, which server this resource owns, and whether a pid is alive.
import { readFileSync } from "node:fs";
import { join } from "node:path";

export const runDir = process.env.RUN_DIR ?? "out";
export const pidFile = join(runDir, "server.json");

/** The server in the pid file ({ pid, url }), if it is running. */
export function running() {
  try {
    const info = JSON.parse(readFileSync(pidFile, "utf8"));
    return alive(info.pid) ? info : undefined;
  } catch {
    return undefined;
  }
}

/** The server this resource started: what start.mjs printed, which Cairn passes back as CAIRN_STDOUT. */
export function own() {
  try {
    return JSON.parse(process.env.CAIRN_STDOUT ?? "");
  } catch {
    return running();
  }
}

export function alive(pid) {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return e.code === "EPERM";
  }
  // A process that exited but was not reaped yet (a zombie) is not running.
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return true;
  }
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
