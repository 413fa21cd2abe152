import { LockCompromisedError, StackLockedError, type LockHolder, type StackLock } from "./lock-holder.js";
import type { StoreNames } from "./store.js";

/**
 * What the messages of a network backend's lock (PostgreSQL, S3) name: the stack, how users run the
 * program, and where the lock lives.
 *
 * @example const place: LockPlace = { ctx: { stack: "prod" }, names: { lock: "s3://acme/web/prod/lock.json" } };
 */
export interface LockPlace {
  readonly ctx: { stack: string; programHint?: string | undefined };
  readonly names: Pick<StoreNames, "lock">;
}

/**
 * The holder named when a lock's holder record is missing or unreadable (a run that is just starting,
 * or a record written by hand): a lock is never reported as free only because its holder is unknown.
 *
 * @example new StackLockedError(stack, lockName, doc?.holder ?? UNKNOWN_HOLDER)
 */
export const UNKNOWN_HOLDER: LockHolder = { pid: 0, host: "unknown", since: "unknown", command: "unknown" };

/**
 * A held network lock as both backends keep it: who holds it, and once it is certainly lost, why.
 * @example const lease: HeldRemoteLock = { holder, lost: undefined };
 */
export interface HeldRemoteLock {
  readonly holder: LockHolder;
  lost: LockCompromisedError | undefined;
}

/**
 * The error a second `lock` of the same store gives: a store holds its stack's lock once at a time, so
 * a second run in this process is refused at once, naming the first. `why` says why the holder is taken to
 * be alive, when that is worth saying.
 *
 * @example if (store.lease) throw lockedHere(store, store.lease.holder);
 */
export function lockedHere(place: LockPlace, holder: LockHolder | undefined, why?: string): StackLockedError {
  return new StackLockedError(place.ctx.stack, place.names.lock, holder, place.ctx.programHint, why);
}

/**
 * The error of a lock this run has lost, saying why.
 * @example throw lockLost(store, "its lock row was removed (unlock --force)");
 */
export function lockLost(place: LockPlace, why: string): LockCompromisedError {
  return new LockCompromisedError(place.ctx.stack, place.names.lock, new Error(why));
}

/**
 * Marks a held lock lost, once: the first reason found is the one every later write reports.
 * @example throw loseOnce(store, session, "another run took the lock while this run's database connection was down");
 */
export function loseOnce(place: LockPlace, held: HeldRemoteLock, why: string): LockCompromisedError {
  return (held.lost ??= lockLost(place, why));
}

/** How one backend keeps its lock, for {@link remoteStackLock}. */
export interface RemoteLockHooks {
  /** Marks the lock lost when this process alone can tell it is, without asking the store (optional: S3 renews a late lease instead, as it writes). */
  check?(): void;
  /** Asks the store whether the lock is still this run's, marking it lost (with {@link loseOnce}) if not. */
  confirm(): Promise<void>;
  /** Gives the lock back; called once, and never throws (what it cannot remove runs out by itself). */
  release(): Promise<void>;
}

/**
 * The {@link StackLock} of a network backend once taken. Unlike a file lock, a released one reports
 * nothing: after `release` the store's session or lease is gone, and so is anything it could say.
 *
 * @example return remoteStackLock(lease, notes, { confirm: () => headStillOurs(), release: () => deleteLockObject() });
 */
export function remoteStackLock(held: HeldRemoteLock, notes: string[], hooks: RemoteLockHooks): StackLock {
  let released = false;
  const assertHeld = () => {
    if (released) return;
    hooks.check?.();
    if (held.lost) throw held.lost;
  };
  return {
    holder: held.holder,
    notes,
    get compromised() {
      return released ? undefined : held.lost;
    },
    assertHeld,
    async verify() {
      if (released) return;
      await hooks.confirm();
      assertHeld();
    },
    async release() {
      if (released) return;
      released = true;
      await hooks.release();
    },
  };
}
