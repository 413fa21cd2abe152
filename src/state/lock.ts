import { statSync, type Stats } from "node:fs";
import { mkdir, rm, rmdir, stat, utimes } from "node:fs/promises";
import { join, resolve } from "node:path";
import { properLockfile } from "./lockfile.js";
import { durableWrite, makeDirs, readIfExists, writeError } from "./durable-file.js";
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
import { goneReason, samePidSpace, selfIdentity } from "./process-identity.js";
import { lockHolderSchema } from "./schema.js";
import { UserError } from "../core/diagnostic.js";

export { LockCompromisedError, StackLockedError, LockHeldError, type LockHolder, type StackLock, type UnlockResult };

/** Options for {@link lockStack}. */
export interface LockOptions {
  /** Stack name, for messages. */
  stack: string;
  /** What this run is doing, shown to whoever finds the stack locked (e.g. `"up"`). */
  command?: string;
  /** How users run the program, for the "how to unlock" hint: `npx tsx infra.ts` (the default), `node infra.ts`. */
  programHint?: string;
  /**
   * The lease: the holder renews the lock every third of it. A run of another host (whose pid cannot be
   * checked) takes the lock over only once it has not been renewed for this long. Default 60 s.
   */
  staleMs?: number;
  /** The host name recorded for the holder (default `os.hostname()`); tests use it to play another host. */
  host?: string;
  /** Called (instead of crashing the process) if the lock is lost while held; see {@link StackLock.compromised}. */
  onCompromised?: (err: LockCompromisedError) => void;
}

const DEFAULT_STALE_MS = 60_000;

// Stack directories locked by this process: a lock.json naming our own pid is only ours if listed here
// (in a container, a killed earlier run often had the same pid). Process-wide on purpose: it is a fact about
// this process's locks on a shared folder, so a second run of this process on the same stack waits for the first.
const heldHere = new Set<string>();

const lockPathOf = (stackDir: string) => join(stackDir, "lock");
const holderPathOf = (stackDir: string) => join(stackDir, "lock.json");

/**
 * Runs `f` while holding a short-lived guard lock, so acquiring, taking over, renewing and releasing the
 * stack lock (a directory plus lock.json) are each seen by other runs as one step.
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

/** What can be known about a lock's holder from here. */
type Verdict = { gone: string } | { alive: string };

/**
 * Whether the holder of `stackDir`'s lock is provably gone. A process whose pid this host can check is
 * gone only when that pid is dead or reused (its start time differs) — never merely because it stopped
 * renewing (a suspended laptop, SIGSTOP). A holder elsewhere is gone once its lease ran out unrenewed.
 */
async function verdict(stackDir: string, holder: LockHolder | undefined, staleMs: number): Promise<Verdict> {
  if (holder && samePidSpace(holder)) {
    if (holder.pid === process.pid) {
      return heldHere.has(stackDir) ? { alive: "is this very process" } : { gone: `an earlier process with this pid (${holder.pid})` };
    }
    const gone = goneReason(holder);
    return gone ? { gone } : { alive: "is still running on this host" };
  }
  const renewed = await stat(lockPathOf(stackDir)).then((s) => s.mtimeMs, () => undefined);
  if (renewed === undefined) return { gone: "its lock directory is gone" };
  const age = Date.now() - renewed;
  staleMs = holder?.leaseMs ?? staleMs; // the lease its holder promised to renew within
  if (age >= staleMs) return { gone: `its lease ran out: not renewed for ${formatAge(age)}${holder ? " (from another host)" : " (and it never recorded itself)"}` };
  return { alive: `renewed its lock ${formatAge(age)} ago${holder ? " from another host" : ""} (a lock not renewed for ${formatAge(staleMs)} is stale)` };
}

/**
 * The holder of `<stackDir>`'s lock while it may be held: undefined when there is no lock, or its holder
 * is provably gone (the next run takes such a lock over).
 * @example (await readLiveLockHolder(".cairn/stacks/dev"))?.command // "up"
 */
export async function readLiveLockHolder(dir: string): Promise<LockHolder | undefined> {
  const stackDir = resolve(dir);
  if (!(await stat(lockPathOf(stackDir)).then(() => true, () => false))) return undefined;
  const holder = await readLockHolder(stackDir);
  return holder && "alive" in (await verdict(stackDir, holder, DEFAULT_STALE_MS)) ? holder : undefined;
}

/**
 * Takes the lock of one stack: a `lock` directory (created atomically), renewed by this run every third
 * of the lease, plus `lock.json` naming the holder (pid, host, process start time). Fails at once with
 * {@link StackLockedError} if another run holds it — including a second call in the same process. A lock
 * whose holder is provably gone (its pid dead or reused on this host, or, from another host, its lease run
 * out unrenewed) is taken over, with a note.
 *
 * @example
 * const lock = await lockStack(".cairn/stacks/dev", { stack: "dev", command: "up" });
 * try { ... } finally { await lock.release(); }
 */
export async function lockStack(dir: string, opts: LockOptions): Promise<StackLock> {
  const stackDir = resolve(dir); // one spelling per directory, for `heldHere`
  await makeDirs(stackDir);
  const me = selfIdentity(opts.host);
  const held: Held = {
    stackDir,
    lockPath: lockPathOf(stackDir),
    stack: opts.stack,
    staleMs: opts.staleMs ?? DEFAULT_STALE_MS,
    holder: { ...me, since: new Date().toISOString(), command: opts.command ?? process.argv.slice(2).join(" "), leaseMs: opts.staleMs ?? DEFAULT_STALE_MS },
    compromised: undefined,
    renewed: { mono: performance.now(), wall: Date.now() },
  };
  const notes: string[] = [];
  await withGuard(stackDir, () => takeLockDir(held, opts, notes));
  return heldLock(held, opts, notes);
}

/** One lock being held: where it is, who holds it, when it was last renewed, and whether it was lost. */
interface Held {
  stackDir: string;
  lockPath: string;
  stack: string;
  staleMs: number;
  holder: LockHolder;
  compromised: LockCompromisedError | undefined;
  /** When the lease was last renewed, by the monotonic clock and by the wall clock (a suspend stops one of them). */
  renewed: { mono: number; wall: number };
}

/** Takes the lock directory (a provably stale one is removed first, with a note) and writes `lock.json`. Call under the guard. */
async function takeLockDir(held: Held, opts: LockOptions, notes: string[]): Promise<void> {
  const { stackDir, lockPath } = held;
  try {
    await mkdir(lockPath);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw writeError(lockPath, e);
    const current = await readLockHolder(stackDir);
    const v = await verdict(stackDir, current, held.staleMs);
    if ("alive" in v) throw new StackLockedError(opts.stack, lockPath, current, opts.programHint);
    await rm(lockPath, { recursive: true, force: true });
    await mkdir(lockPath).catch((err: unknown) => {
      throw writeError(lockPath, err);
    });
    notes.push(`removed a stale lock left by ${current ? `pid ${current.pid} on ${current.host}` : "a run that never recorded itself"}: ${v.gone}`);
  }
  try {
    await durableWrite(holderPathOf(stackDir), JSON.stringify(held.holder, null, 2) + "\n");
  } catch (e) {
    await rmdir(lockPath).catch(() => {});
    throw e;
  }
  heldHere.add(stackDir);
}

const ours = (held: Held, current: LockHolder | undefined) => current !== undefined && current.pid === held.holder.pid && current.since === held.holder.since && current.host === held.holder.host;

/** Records that the lock was lost (once), telling `onCompromised`; returns the error. */
function lose(held: Held, opts: LockOptions, why: string): LockCompromisedError {
  if (held.compromised) return held.compromised;
  held.compromised = new LockCompromisedError(held.stack, held.lockPath, new Error(why));
  heldHere.delete(held.stackDir);
  try {
    opts.onCompromised?.(held.compromised);
  } catch {
    // A throwing callback must not turn into an uncaught exception.
  }
  return held.compromised;
}

/**
 * Renews the lease under the guard, after checking the lock is still this run's: `lock.json` names it and
 * the lock directory exists. A run that was suspended finds out here, before it does anything else.
 */
async function renew(held: Held, opts: LockOptions): Promise<void> {
  await withGuard(held.stackDir, async () => {
    if (held.compromised) return;
    const current = await readLockHolder(held.stackDir);
    if (!ours(held, current)) throw lose(held, opts, current ? `lock.json now names pid ${current.pid} on ${current.host}` : "lock.json was removed");
    const now = new Date();
    await utimes(held.lockPath, now, now).catch((e: NodeJS.ErrnoException) => {
      if (e.code === "ENOENT") throw lose(held, opts, "its lock directory was removed");
      throw e;
    });
    held.renewed = { mono: performance.now(), wall: now.getTime() };
  });
}

/** Time since the last renewal: the larger of the two clocks (a suspended host stops the monotonic one). */
const sinceRenewal = (held: Held) => Math.max(performance.now() - held.renewed.mono, Date.now() - held.renewed.wall);

/** The {@link StackLock} of a lock just taken: renewed in the background, checked before each write and call. */
function heldLock(held: Held, opts: LockOptions, notes: string[]): StackLock {
  const { stackDir } = held;
  let released = false;
  let renewing: Promise<void> | undefined;
  const renewNow = () => (renewing ??= renew(held, opts).finally(() => (renewing = undefined)));
  const timer = setInterval(() => void renewNow().catch(() => {}), Math.max(100, Math.floor(held.staleMs / 3)));
  timer.unref();
  // lock.json as last seen ours: a file replaced by another run (a forced unlock, a take-over) has another inode or time.
  let verifiedStamp: string | undefined;
  return {
    holder: held.holder,
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
      // Late renewals mean this run was suspended (or starved): make sure the lock is still ours, renewing it
      // now, before anything is written or called.
      if (sinceRenewal(held) > held.staleMs / 2) await renewNow();
      // Otherwise a synchronous stat answers unless lock.json changed since it was read (an async one cost a
      // thread-pool round trip per write).
      const st = statIfThere(holderPathOf(stackDir));
      const stamp = st ? `${st.ino}:${st.mtimeMs}:${st.size}` : undefined;
      if (stamp !== undefined && stamp === verifiedStamp) return;
      const current = await readLockHolder(stackDir);
      if (!ours(held, current)) throw lose(held, opts, current ? `lock.json now names pid ${current.pid} on ${current.host}` : "lock.json was removed");
      verifiedStamp = stamp;
    },
    async release() {
      if (released) return;
      released = true;
      clearInterval(timer);
      await renewing?.catch(() => {});
      heldHere.delete(stackDir);
      const drop = async () => {
        // Only remove what is still ours: after a take-over or a forced unlock it belongs to the next run.
        if (!ours(held, await readLockHolder(stackDir))) return;
        await rm(holderPathOf(stackDir), { force: true });
        await rm(held.lockPath, { recursive: true, force: true });
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
  /** Same as the lock's: a lock of another host not renewed for this long has a gone holder. Default 60 s. */
  staleMs?: number;
}

/**
 * Removes a stack's lock (the `unlock` command) if its holder is provably gone: a process of this host
 * whose pid is dead or reused, or a lock of another host not renewed for `staleMs`. While the holder may be alive it throws
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
      const v = await verdict(stackDir, holder, opts.staleMs ?? DEFAULT_STALE_MS);
      const why = "alive" in v ? v.alive : undefined;
      if (why && !opts.force) {
        if (holder) throw new LockHeldError(stack, holder, why, opts.programHint);
        throw new UserError(`stack ${stack} is locked (${lockPathOf(stackDir)}) by a run that has not recorded itself yet and ${why}: the lock was left in place. Wait a moment and try again, or add --force`);
      }
      if (why) warning = holder ? forcedWarning(stack, holder, why) : `removed the lock of stack ${stack}, whose holder ${why}`;
    }
    await rm(lockPathOf(stackDir), { recursive: true, force: true });
    await rm(holderPathOf(stackDir), { force: true });
    return { removed: locked, ...(holder ? { holder } : {}), ...(warning ? { warning } : {}) };
  });
}
