import { readFileSync, statSync, type Stats } from "node:fs";
import { mkdir, rm, stat } from "node:fs/promises";
import { hostname } from "node:os";
import { join, resolve } from "node:path";
import type { LockOptions as LockfileOptions } from "proper-lockfile";
import { properLockfile } from "./lockfile.js";
import { durableWrite, readIfExists, writeError } from "./durable-file.js";
import {
  forcedWarning,
  formatAge,
  LockCompromisedError,
  LockHeldError,
  StackLockedError,
  type LockHolder,
  type StackLock,
  type UnlockResult,
} from "./lock-holder.js";
import { lockHolderSchema } from "./schema.js";

export { LockCompromisedError, StackLockedError, LockHeldError, type LockHolder, type StackLock, type UnlockResult };

/** Options for {@link lockStack}. */
export interface LockOptions {
  /** Stack name, for messages. */
  stack: string;
  /** What this run is doing, shown to whoever finds the stack locked (e.g. `"up"`). */
  command?: string;
  /** How users run the program, for the "how to unlock" hint: `npx tsx infra.ts` (the default), `node infra.ts`. */
  programHint?: string;
  /** A lock not refreshed for this long is stale and may be taken over. Default 60 s (refreshed every 30 s). */
  staleMs?: number;
  /** Called (instead of crashing the process) if the lock is lost while held; see {@link StackLock.compromised}. */
  onCompromised?: (err: LockCompromisedError) => void;
}

const DEFAULT_STALE_MS = 60_000;

// Stack directories locked by this process: a lock.json naming our own pid is only ours if listed here
// (in a container, a killed earlier run often had the same pid).
const heldHere = new Set<string>();

const lockPathOf = (stackDir: string) => join(stackDir, "lock");
const holderPathOf = (stackDir: string) => join(stackDir, "lock.json");

/**
 * Runs `f` while holding a short-lived guard lock, so acquiring, taking over and releasing the stack
 * lock (a directory plus lock.json) are each seen by other runs as one step.
 */
async function withGuard<T>(stackDir: string, f: () => Promise<T>): Promise<T> {
  const guard = join(stackDir, "lock.guard");
  // The guard is held for milliseconds; its 5 s staleness (and retries past it) cover a run killed while holding it.
  const lockfile = await properLockfile();
  const release = await lockfile.lock(guard, {
    realpath: false,
    lockfilePath: guard,
    stale: 5000,
    retries: { retries: 80, factor: 1.1, minTimeout: 5, maxTimeout: 150 },
    onCompromised: () => {},
  });
  try {
    return await f();
  } finally {
    await release().catch(() => {});
  }
}

/**
 * Reads `<stackDir>/lock.json`; undefined if absent or unreadable.
 * @example (await readLockHolder(".cairn/stacks/dev"))?.pid
 */
export async function readLockHolder(stackDir: string): Promise<LockHolder | undefined> {
  const text = await readIfExists(holderPathOf(stackDir)).catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const r = lockHolderSchema.safeParse(JSON.parse(text));
    return r.success ? r.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The holder of `<stackDir>`'s lock while it may be held: undefined when there is no lock, or its holder
 * is a process of this host that no longer runs (the next run takes such a lock over).
 * @example (await readLiveLockHolder(".cairn/stacks/dev"))?.command // "up"
 */
export async function readLiveLockHolder(dir: string): Promise<LockHolder | undefined> {
  const stackDir = resolve(dir);
  if (!(await stat(lockPathOf(stackDir)).then(() => true, () => false))) return undefined;
  const holder = await readLockHolder(stackDir);
  return holder && staleReason(stackDir, holder) === undefined ? holder : undefined;
}

/**
 * True if process `pid` of this host is running (a zombie counts as dead).
 * @example isRunning(process.pid) // true
 */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    // A killed process stays a zombie until its parent reaps it (in containers, possibly never): it is dead.
    return !isZombie(pid);
  } catch (e) {
    // EPERM: it exists but belongs to another user, so it is running.
    return (e as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return false; // no /proc (macOS, Windows): trust kill(pid, 0)
  }
}

/** Why the holder recorded in lock.json can no longer be holding the lock, or undefined if it may be. */
function staleReason(stackDir: string, holder: LockHolder | undefined): string | undefined {
  if (!holder || holder.host !== hostname()) return undefined; // another host's pids mean nothing here
  if (holder.pid === process.pid) {
    return heldHere.has(stackDir) ? undefined : `removed a stale lock left by an earlier process with this pid (${holder.pid})`;
  }
  return isRunning(holder.pid) ? undefined : `removed a stale lock left by pid ${holder.pid} (no longer running)`;
}

/**
 * Takes the lock of one stack (a `lock` directory managed by proper-lockfile, refreshed in the
 * background, plus `lock.json` naming the holder). Fails at once with {@link StackLockedError} if
 * another run holds it — including a second call in the same process. A lock left by a process of
 * this host that is no longer running (e.g. killed with `kill -9`) is removed and taken, with a note.
 *
 * @example
 * const lock = await lockStack(".cairn/stacks/dev", { stack: "dev", command: "up" });
 * try { ... } finally { await lock.release(); }
 */
export async function lockStack(dir: string, opts: LockOptions): Promise<StackLock> {
  const stackDir = resolve(dir); // one spelling per directory, for `heldHere`
  await mkdir(stackDir, { recursive: true }).catch((e: unknown) => {
    throw writeError(stackDir, e);
  });
  const held: Held = {
    stackDir,
    lockPath: lockPathOf(stackDir),
    stack: opts.stack,
    holder: { pid: process.pid, host: hostname(), since: new Date().toISOString(), command: opts.command ?? process.argv.slice(2).join(" ") },
    compromised: undefined,
  };
  const notes: string[] = [];
  const releaseDir = await withGuard(stackDir, () => takeLockDir(held, opts, notes));
  return heldLock(held, releaseDir, notes);
}

/** One lock being held: where it is, who holds it, and whether it was lost (shared by its callbacks). */
interface Held {
  stackDir: string;
  lockPath: string;
  stack: string;
  holder: LockHolder;
  compromised: LockCompromisedError | undefined;
}

/** proper-lockfile's options for one lock: its default throws from a timer, which would crash the process. */
function lockfileOptions(held: Held, opts: LockOptions): LockfileOptions {
  return {
    realpath: false,
    lockfilePath: held.lockPath,
    retries: 0,
    stale: opts.staleMs ?? DEFAULT_STALE_MS,
    onCompromised: (err) => {
      held.compromised = new LockCompromisedError(held.stack, held.lockPath, err);
      heldHere.delete(held.stackDir);
      try {
        opts.onCompromised?.(held.compromised);
      } catch {
        // A throwing callback must not turn into an uncaught exception either.
      }
    },
  };
}

/**
 * Takes the lock directory (a stale one of a process no longer running is removed first, with a note) and
 * writes `lock.json`; resolves with what releases the directory. Call under the stack's guard.
 */
async function takeLockDir(held: Held, opts: LockOptions, notes: string[]): Promise<() => Promise<void>> {
  const { stackDir, lockPath } = held;
  const options = lockfileOptions(held, opts);
  const lockfile = await properLockfile();
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(stackDir, options);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ELOCKED") throw writeError(lockPath, e);
    const current = await readLockHolder(stackDir);
    const reason = staleReason(stackDir, current);
    if (!reason) throw new StackLockedError(opts.stack, lockPath, current, opts.programHint);
    await rm(lockPath, { recursive: true, force: true });
    release = await lockfile.lock(stackDir, options);
    notes.push(reason);
  }
  try {
    await durableWrite(holderPathOf(stackDir), JSON.stringify(held.holder, null, 2) + "\n");
  } catch (e) {
    await release().catch(() => {});
    throw e;
  }
  heldHere.add(stackDir);
  return release;
}

/** The {@link StackLock} of a lock just taken. */
function heldLock(held: Held, releaseDir: () => Promise<void>, notes: string[]): StackLock {
  const { stackDir, holder } = held;
  const ours = (current: LockHolder | undefined) => current !== undefined && current.pid === holder.pid && current.since === holder.since;
  let released = false;
  // lock.json as last seen ours: a file replaced by another run (a forced unlock) has another inode or time.
  let verifiedStamp: string | undefined;
  return {
    holder,
    notes,
    get compromised() {
      return held.compromised;
    },
    assertHeld() {
      if (held.compromised) throw held.compromised;
    },
    async verify() {
      if (held.compromised) throw held.compromised;
      if (released) return;
      // Every journal write verifies the lock: a stat answers unless lock.json changed since it was read.
      // A synchronous stat of one local file takes microseconds; the async one cost a thread-pool round trip
      // per write, which 10,000 creates at 10 in parallel (a thousand writes) spent mostly idle.
      const st = statIfThere(holderPathOf(stackDir));
      const stamp = st ? `${st.ino}:${st.mtimeMs}:${st.size}` : undefined;
      if (stamp !== undefined && stamp === verifiedStamp) return;
      const current = await readLockHolder(stackDir);
      if (!ours(current)) {
        held.compromised = new LockCompromisedError(held.stack, held.lockPath, new Error(current ? `lock.json now names pid ${current.pid} on ${current.host}` : "lock.json was removed"));
        heldHere.delete(stackDir);
        throw held.compromised;
      }
      verifiedStamp = stamp;
    },
    async release() {
      if (released) return;
      released = true;
      heldHere.delete(stackDir);
      const drop = async () => {
        // Only remove lock.json if it is still ours: after a forced unlock it may name the next run.
        if (ours(await readLockHolder(stackDir))) await rm(holderPathOf(stackDir), { force: true });
        if (!held.compromised) await releaseDir().catch(() => {});
      };
      await withGuard(stackDir, drop).catch(drop);
    },
  };
}

function statIfThere(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}

/** Options for {@link forceUnlock}. */
export interface UnlockOptions {
  /** Remove the lock even if its holder may still be running (with a warning naming it). */
  force?: boolean;
  /** Stack name and how users run the program (`npx tsx infra.ts`), for messages. */
  stack?: string;
  programHint?: string;
  /** Same as the lock's: a lock not refreshed for this long has a dead holder. Default 60 s. */
  staleMs?: number;
}

/**
 * Why the holder of a lock may still be running, or undefined if it certainly is not: on this host
 * its pid is checked; from another host only the lock's last refresh (every 30 s while held) is seen.
 */
async function aliveReason(stackDir: string, holder: LockHolder | undefined, staleMs: number): Promise<string | undefined> {
  if (holder && holder.host === hostname()) {
    if (holder.pid === process.pid) return heldHere.has(stackDir) ? "is this very process" : undefined;
    return isRunning(holder.pid) ? "is still running on this host" : undefined;
  }
  const refreshed = await stat(lockPathOf(stackDir)).then((s) => s.mtimeMs, () => undefined);
  if (refreshed === undefined) return undefined;
  const age = Date.now() - refreshed;
  if (age >= staleMs) return undefined;
  return `refreshed its lock ${formatAge(age)} ago${holder ? " from another host" : ""} (a lock not refreshed for ${formatAge(staleMs)} is stale)`;
}

/**
 * Removes a stack's lock (the `unlock` command) if its holder is gone: a process of this host that no
 * longer runs, or a lock not refreshed for `staleMs`. While the holder may be alive it throws
 * {@link LockHeldError}, unless `force` is set: then the lock is removed with a warning naming the holder.
 *
 * @example
 * const { removed, holder, warning } = await forceUnlock(".cairn/stacks/dev", { force: true });
 * if (warning) console.warn(warning);
 */
export async function forceUnlock(dir: string, opts: UnlockOptions = {}): Promise<UnlockResult> {
  const stackDir = resolve(dir);
  const exists = async (p: string) => stat(p).then(() => true, () => false);
  if (!(await exists(stackDir))) return { removed: false };
  const stack = opts.stack ?? stackDir.split(/[\\/]/).pop()!;
  return withGuard(stackDir, async () => {
    const holder = await readLockHolder(stackDir);
    const locked = await exists(lockPathOf(stackDir));
    let warning: string | undefined;
    if (locked) {
      const why = await aliveReason(stackDir, holder, opts.staleMs ?? DEFAULT_STALE_MS);
      if (why && !opts.force) {
        if (holder) throw new LockHeldError(stack, holder, why, opts.programHint);
        throw new Error(`stack ${stack} is locked (${lockPathOf(stackDir)}) by a run that has not recorded itself yet and ${why}: the lock was left in place. Wait a moment and try again, or add --force`);
      }
      if (why) warning = holder ? forcedWarning(stack, holder, why) : `removed the lock of stack ${stack}, whose holder ${why}`;
    }
    await rm(lockPathOf(stackDir), { recursive: true, force: true });
    await rm(holderPathOf(stackDir), { force: true });
    return { removed: locked, ...(holder ? { holder } : {}), ...(warning ? { warning } : {}) };
  });
}
