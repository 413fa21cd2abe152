import { readFileSync, readlinkSync } from "node:fs";
import { hostname } from "node:os";

// Whether the process recorded as a lock's holder is provably gone, judged only by facts of this host: its
// pid no longer runs, or now belongs to another process (a different start time). Anything this host cannot
// see (another host, another pid namespace) is not judged here.

/**
 * The fields of a lock holder that identify its process.
 * @example const me: ProcessIdentity = selfIdentity();
 */
export interface ProcessIdentity {
  pid: number;
  host: string;
  /** The process's start time (clock ticks after boot, from `/proc/<pid>/stat`), where the OS tells it. */
  started?: number | undefined;
  /** `<boot id>/<pid namespace>`, where the OS tells it: pids are comparable only within one. */
  machine?: string | undefined;
}

/**
 * True if process `pid` of this host is running (a zombie counts as dead; a stopped process runs).
 * @example isRunning(process.pid) // true
 */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    // A killed process stays a zombie until its parent reaps it (in containers, possibly never): it is dead.
    return procStat(pid)?.state !== "Z";
  } catch (e) {
    // EPERM: it exists but belongs to another user, so it is running.
    return (e as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

/** State letter and start time of `pid` from `/proc/<pid>/stat`; undefined without /proc (macOS, Windows) or process. */
function procStat(pid: number): { state: string; started: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces and parentheses: fields are counted after its last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const started = Number(fields[19]); // field 22, starttime
    return { state: fields[0] ?? "", started };
  } catch {
    return undefined;
  }
}

/**
 * When process `pid` started (clock ticks after boot), or undefined where the OS does not say.
 * @example startTimeOf(process.pid) // 123456789
 */
function startTimeOf(pid: number): number | undefined {
  const s = procStat(pid)?.started;
  return s !== undefined && Number.isFinite(s) ? s : undefined;
}

let machine: string | undefined | null = null;

/**
 * `<boot id>/<pid namespace>` of this process, or undefined where the OS does not say (read once).
 * @example machineId() // "3f1c…-…/pid:[4026531836]"
 */
export function machineId(): string | undefined {
  if (machine !== null) return machine;
  try {
    const boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    const ns = readlinkSync("/proc/self/ns/pid");
    machine = `${boot}/${ns}`;
  } catch {
    machine = undefined;
  }
  return machine;
}

/**
 * This process's identity, as recorded in a lock it takes.
 * @example const me = selfIdentity(); // { pid: 4242, host: "laptop", started: 1234, machine: "…" }
 */
export function selfIdentity(host = hostname()): ProcessIdentity {
  const started = startTimeOf(process.pid);
  const m = machineId();
  return { pid: process.pid, host, ...(started !== undefined ? { started } : {}), ...(m !== undefined ? { machine: m } : {}) };
}

/**
 * True when `holder`'s pid can be checked from here: the same host name and, where both know it, the same
 * boot and pid namespace (a container with the same host name has its own pids).
 * @example samePidSpace({ pid: 1, host: hostname() }) // true
 */
export function samePidSpace(holder: ProcessIdentity, host = hostname()): boolean {
  if (holder.host !== host) return false;
  const here = machineId();
  return holder.machine === undefined || here === undefined || holder.machine === here;
}

/**
 * Why `holder` (a process of this host: see {@link samePidSpace}) is provably gone, or undefined while it
 * may still run (a stopped process, e.g. a suspended terminal, still runs).
 * @example goneReason({ pid: 4242, host: hostname(), started: 99 }) // "pid 4242 is no longer running"
 */
export function goneReason(holder: ProcessIdentity): string | undefined {
  if (!isRunning(holder.pid)) return `pid ${holder.pid} is no longer running`;
  const now = startTimeOf(holder.pid);
  if (holder.started !== undefined && now !== undefined && now !== holder.started) {
    return `pid ${holder.pid} now belongs to another process (started at tick ${now}, the holder at ${holder.started})`;
  }
  return undefined;
}
