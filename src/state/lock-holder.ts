import { UserError } from "../core/diagnostic.js";

/**
 * Who holds a stack's lock, as every backend records it (`lock.json`, a lock row, a lock object).
 * @example { pid: 4242, host: "ci-runner-3", since: "2025-01-01T10:00:00.000Z", command: "up" }
 */
export interface LockHolder {
  pid: number;
  host: string;
  since: string;
  command: string;
  /** S3: when the lease ends unless the holder renews it. */
  expires?: string;
  /** PostgreSQL: the server process id of the holder's database session. */
  session?: number;
  /** Files and S3: when the holder's process started (clock ticks after boot), so a reused pid is told apart. */
  started?: number;
  /** Files and S3: `<boot id>/<pid namespace>` of the holder, so its pid is judged only where it means something. */
  machine?: string;
  /** Files: the holder's lease (ms): from another host, a lock not renewed for this long is stale. */
  leaseMs?: number;
}

/** A held stack lock. */
export interface StackLock {
  readonly holder: LockHolder;
  /** What acquiring did that the user should hear about, e.g. a stale lock taken over. */
  readonly notes: readonly string[];
  /** Set if the lock was lost while held (removed by a forced unlock, lease or session lost). */
  readonly compromised: LockCompromisedError | undefined;
  /** Throws {@link LockCompromisedError} if the lock is known to be lost; called before every state record. */
  assertHeld(): void;
  /**
   * Asks the lock's store whether the lock is still this run's (throws {@link LockCompromisedError} if
   * not); called before each journal write where the write itself cannot check it.
   */
  verify?(): Promise<void>;
  /** Releases the lock; safe to call twice. */
  release(): Promise<void>;
}

/** What `unlock` did. */
export interface UnlockResult {
  /** Whether there was a lock to remove. */
  removed: boolean;
  holder?: LockHolder;
  /** Set when a lock whose holder may still be running was removed with `force`. */
  warning?: string;
}

/**
 * A duration for people: `45s`, `3m 05s`, `2h 10m`, `3d 4h`.
 * @example formatAge(125_000) // "2m 05s"
 */
export function formatAge(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, "0")}s`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h ${String(m % 60).padStart(2, "0")}m`;
  return `${Math.floor(h / 24)}d ${h % 24}h`;
}

/** How long `holder` has held the lock, at `now`. @example holderAge(h) // 65000 */
export function holderAge(holder: LockHolder, now = Date.now()): number {
  const t = Date.parse(holder.since);
  return Number.isNaN(t) ? 0 : now - t;
}

/**
 * One phrase naming a holder: pid, host, since, age, command (and session or lease when known).
 * @example describeHolder(h) // "pid 4242 on ci-3 since 2025-01-01T10:00:00.000Z (for 2m 05s; command: up)"
 */
export function describeHolder(holder: LockHolder, now = Date.now()): string {
  const extra = [
    `for ${formatAge(holderAge(holder, now))}`,
    `command: ${holder.command || "unknown"}`,
    ...(holder.session !== undefined ? [`database session ${holder.session}`] : []),
    ...(holder.expires !== undefined ? [`lease until ${holder.expires}`] : []),
  ];
  return `pid ${holder.pid} on ${holder.host} since ${holder.since} (${extra.join("; ")})`;
}

function unlockHint(programHint: string | undefined, stack: string): string {
  return `if that run is no longer active, remove the lock with \`${programHint ?? "npx tsx infra.ts"} unlock --stack ${stack}\``;
}

/**
 * Thrown when another run (in this or another process, on this or another host) holds the stack lock.
 *
 * @example
 * try { await backend.lock("up"); }
 * catch (e) { if (e instanceof StackLockedError) console.error(e.holder?.pid); }
 */
export class StackLockedError extends UserError {
  override name = "StackLockedError";
  constructor(
    readonly stackName: string,
    /** Where the lock lives (a path, or a backend URL). */
    readonly lockPath: string,
    /** Undefined when the lock exists but its holder could not be read (a run that is just starting). */
    readonly holder: LockHolder | undefined,
    programHint?: string,
    /** Why the holder is taken to be alive, when that is worth saying (e.g. "is still running on this host …"). */
    why?: string,
  ) {
    const who = holder ? `by ${describeHolder(holder)}` : `(${lockPath}) by a run that has not recorded itself yet`;
    super(`stack ${stackName} is locked ${who}${why ? `, which ${why}` : ""}: wait for that run to finish, or ${unlockHint(programHint, stackName)}`);
  }
}

/**
 * Thrown by `unlock` without `force` when the holder may still be running: removing its lock would let
 * two runs write one stack.
 *
 * @example await backend.forceUnlock() // throws LockHeldError while pid 4242 on this host runs
 */
export class LockHeldError extends UserError {
  override name = "LockHeldError";
  constructor(
    readonly stackName: string,
    readonly holder: LockHolder,
    why: string,
    programHint?: string,
  ) {
    super(
      `stack ${stackName} is locked by ${describeHolder(holder)}, which ${why}: the lock was left in place. ` +
        `Wait for that run to finish; if you are sure it is gone, \`${programHint ?? "npx tsx infra.ts"} unlock --stack ${stackName} --force\` removes the lock anyway`,
    );
  }
}

/**
 * The warning `unlock --force` gives when it removes a lock whose holder may still be running.
 * @example forcedWarning("dev", holder, "is still running on this host")
 */
export function forcedWarning(stack: string, holder: LockHolder, why: string): string {
  return `removed the lock of stack ${stack} held by ${describeHolder(holder)}, which ${why}: if that run is still active, it and the next run may both write the stack`;
}

/**
 * Thrown by {@link StackLock.assertHeld} (and passed to `onCompromised`) when a held lock was lost.
 * @example lock.assertHeld(); // throws LockCompromisedError after `unlock --force` by someone else
 */
export class LockCompromisedError extends UserError {
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
