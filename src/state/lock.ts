import { readFileSync } from "node:fs";
import { mkdir, rm, stat } from "node:fs/promises";
import { hostname } from "node:os";
import { join, resolve } from "node:path";
import lockfile from "proper-lockfile";
import writeFileAtomic from "write-file-atomic";
import { readIfExists } from "./fs-util.js";
import { lockHolderSchema } from "./schema.js";

/**
 * Who holds a stack's lock, as written to `<stackDir>/lock.json`.
 * @example { pid: 4242, host: "ci-runner-3", since: "2025-01-01T10:00:00.000Z", command: "up" }
 */
export interface LockHolder {
  pid: number;
  host: string;
  since: string;
  command: string;
}

/** Options for {@link lockStack}. */
export interface LockOptions {
  /** Stack name, for messages. */
  stack: string;
  /** What this run is doing, shown to whoever finds the stack locked (e.g. `"up"`). */
  command?: string;
  /** The program file named in the "how to unlock" hint. Default `infra.ts`. */
  programHint?: string;
  /** A lock not refreshed for this long is stale and may be taken over. Default 60 s (refreshed every 30 s). */
  staleMs?: number;
  /** Called (instead of crashing the process) if the lock is lost while held; see {@link StackLock.compromised}. */
  onCompromised?: (err: LockCompromisedError) => void;
}

/** A held stack lock. */
export interface StackLock {
  readonly holder: LockHolder;
  /** What acquiring did that the user should hear about, e.g. a stale lock removed. */
  readonly notes: readonly string[];
  /** Set if the lock was lost while held (its directory removed, or not refreshed in time). */
  readonly compromised: LockCompromisedError | undefined;
  /** Throws {@link LockCompromisedError} if the lock was lost; call before changing state. */
  assertHeld(): void;
  /** Releases the lock; safe to call twice. */
  release(): Promise<void>;
}

function unlockHint(programHint: string | undefined, stack: string): string {
  return `if that run is no longer active, remove the lock with \`npx tsx ${programHint ?? "infra.ts"} unlock --stack ${stack}\``;
}

/**
 * Thrown when another run (in this or another process) holds the stack lock.
 *
 * @example
 * try { await lockStack(dir, { stack: "dev" }); }
 * catch (e) { if (e instanceof StackLockedError) console.error(e.holder?.pid); }
 */
export class StackLockedError extends Error {
  override name = "StackLockedError";
  constructor(
    readonly stackName: string,
    readonly lockPath: string,
    /** Undefined when the lock exists but lock.json could not be read (a run that is just starting). */
    readonly holder: LockHolder | undefined,
    programHint?: string,
  ) {
    const who = holder
      ? `by pid ${holder.pid} on ${holder.host} since ${holder.since} (command: ${holder.command || "unknown"})`
      : `(${lockPath}) by a run that has not recorded itself in lock.json yet`;
    super(`stack ${stackName} is locked ${who}: wait for that run to finish, or ${unlockHint(programHint, stackName)}`);
  }
}

/**
 * Thrown by {@link StackLock.assertHeld} (and passed to `onCompromised`) when a held lock was lost.
 * @example lock.assertHeld(); // throws LockCompromisedError after `unlock` was forced by someone else
 */
export class LockCompromisedError extends Error {
  override name = "LockCompromisedError";
  constructor(
    readonly stackName: string,
    readonly lockPath: string,
    cause: Error,
  ) {
    super(
      `the lock on stack ${stackName} (${lockPath}) was lost while this run held it (${cause.message}): ` +
        `another run may now change the same state. Stop this run, make sure no other run is active, then run again`,
    );
  }
}

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

function isRunning(pid: number): boolean {
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
  await mkdir(stackDir, { recursive: true });
  const lockPath = lockPathOf(stackDir);
  let compromised: LockCompromisedError | undefined;
  const options: lockfile.LockOptions = {
    realpath: false,
    lockfilePath: lockPath,
    retries: 0,
    stale: opts.staleMs ?? 60_000,
    // proper-lockfile's default throws from a timer, which would crash the process: record it instead.
    onCompromised: (err) => {
      compromised = new LockCompromisedError(opts.stack, lockPath, err);
      heldHere.delete(stackDir);
      try {
        opts.onCompromised?.(compromised);
      } catch {
        // A throwing callback must not turn into an uncaught exception either.
      }
    },
  };
  const holder: LockHolder = {
    pid: process.pid,
    host: hostname(),
    since: new Date().toISOString(),
    command: opts.command ?? process.argv.slice(2).join(" "),
  };
  const notes: string[] = [];

  const releaseDir = await withGuard(stackDir, async () => {
    let release: () => Promise<void>;
    try {
      release = await lockfile.lock(stackDir, options);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ELOCKED") throw e;
      const current = await readLockHolder(stackDir);
      const reason = staleReason(stackDir, current);
      if (!reason) throw new StackLockedError(opts.stack, lockPath, current, opts.programHint);
      await rm(lockPath, { recursive: true, force: true });
      release = await lockfile.lock(stackDir, options);
      notes.push(reason);
    }
    try {
      await writeFileAtomic(holderPathOf(stackDir), JSON.stringify(holder, null, 2) + "\n");
    } catch (e) {
      await release().catch(() => {});
      throw e;
    }
    heldHere.add(stackDir);
    return release;
  });

  let released = false;
  return {
    holder,
    notes,
    get compromised() {
      return compromised;
    },
    assertHeld() {
      if (compromised) throw compromised;
    },
    async release() {
      if (released) return;
      released = true;
      heldHere.delete(stackDir);
      const drop = async () => {
        const current = await readLockHolder(stackDir);
        // Only remove lock.json if it is still ours: after a forced unlock it may name the next run.
        if (current && current.pid === holder.pid && current.since === holder.since) {
          await rm(holderPathOf(stackDir), { force: true });
        }
        if (!compromised) await releaseDir().catch(() => {});
      };
      await withGuard(stackDir, drop).catch(drop);
    },
  };
}

/**
 * Removes a stack's lock whoever holds it (the `unlock` command). Returns whether there was a lock,
 * and who held it.
 *
 * @example
 * const { removed, holder } = await forceUnlock(".cairn/stacks/dev");
 * if (removed) console.log(`removed the lock of pid ${holder?.pid}`);
 */
export async function forceUnlock(dir: string): Promise<{ removed: boolean; holder?: LockHolder }> {
  const stackDir = resolve(dir);
  const exists = async (p: string) => stat(p).then(() => true, () => false);
  if (!(await exists(stackDir))) return { removed: false };
  return withGuard(stackDir, async () => {
    const holder = await readLockHolder(stackDir);
    const removed = await exists(lockPathOf(stackDir));
    await rm(lockPathOf(stackDir), { recursive: true, force: true });
    await rm(holderPathOf(stackDir), { force: true });
    return holder ? { removed, holder } : { removed };
  });
}
