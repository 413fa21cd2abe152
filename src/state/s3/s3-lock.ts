import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import * as z from "zod/mini";
import { goneReason as processGone, samePidSpace, selfIdentity } from "../process-identity.js";
import { describeHolder, forcedWarning, formatAge, LockHeldError, type LockHolder, type StackLock, type StackLockedError, type UnlockResult } from "../lock-holder.js";
import { lockedHere, loseOnce, remoteStackLock, UNKNOWN_HOLDER } from "../remote-lock.js";
import { lockHolderSchema } from "../schema.js";
import type { S3Lease, S3Place } from "./s3-place.js";
import { isPreconditionFailed, s3Error } from "./s3-target.js";
import { UserError } from "../../core/diagnostic.js";


const lockDocSchema = z.object({ token: z.string(), leaseMs: z.number().check(z.positive()), holder: lockHolderSchema });
type LockDoc = z.infer<typeof lockDocSchema>;

function parseLock(text: string): LockDoc | undefined {
  try {
    const r = lockDocSchema.safeParse(JSON.parse(text));
    return r.success ? r.data : undefined;
  } catch {
    return undefined;
  }
}

// Tokens of the S3 locks this process holds: a lock.json naming this very process is only alive if listed here.
// Process-wide on purpose (a fact about this process's locks; every token is unique to one acquisition).
const heldTokens = new Set<string>();

/**
 * Why the lock's holder is certainly gone, or undefined while it may still run. A holder in this host's pid
 * space is judged by its process alone, as file locks are (`process-identity.ts`): gone once its pid no
 * longer runs or belongs to another process, kept while it runs — however late its renewals (a suspended
 * terminal, SIGSTOP): a stopped holder still has its calls to make. Only a holder elsewhere (another host, or
 * a container with the same host name but its own pids) is judged by its lease: by the server's clock alone,
 * when lock.json was last written and the server's time when it answered (its `Date` header), so the clocks
 * of the hosts do not matter.
 */
function goneReason(doc: LockDoc | undefined, at: { lastModified: Date; serverTime: Date }): string | undefined {
  if (doc && samePidSpace(doc.holder)) {
    if (doc.holder.pid === process.pid) return heldTokens.has(doc.token) ? undefined : `it was left by an earlier run of this process`;
    const gone = processGone(doc.holder);
    return gone ? `${gone} on this host` : undefined;
  }
  const leaseMs = doc?.leaseMs ?? 0;
  const over = at.serverTime.getTime() - (at.lastModified.getTime() + leaseMs);
  if (over > 0) return `its lease ended ${formatAge(over)} ago without renewal (its run was killed, lost its connection or is suspended: a suspended run stops before its next call or write)`;
  return undefined;
}

/**
 * What a refused run is told of a holder of this host whose lease ran out unrenewed while its process still
 * runs (stopped, or starved): it keeps its lock, and how to end that. Nothing for other holders.
 */
function liveHolderNote(doc: LockDoc | undefined, cur: { lastModified: Date; serverTime: Date }): string | undefined {
  if (!doc || !samePidSpace(doc.holder) || doc.holder.pid === process.pid) return undefined;
  const since = cur.serverTime.getTime() - cur.lastModified.getTime();
  if (since <= doc.leaseMs) return undefined;
  return (
    `is still running on this host, although it has not renewed its lease for ${formatAge(since)} (lease ${formatAge(doc.leaseMs)}): ` +
    `a stopped process (Ctrl-Z, SIGSTOP, a debugger) keeps its lock, since it still has calls to make. Resume it (fg, kill -CONT ${doc.holder.pid}) or end it`
  );
}

/** Why a holder not {@link goneReason gone} is taken to be alive, for `unlock`'s refusal. */
function aliveReason(doc: LockDoc | undefined, cur: { lastModified: Date; serverTime: Date }): string {
  if (doc && samePidSpace(doc.holder)) return `is still running on this host (pid ${doc.holder.pid}${doc.holder.pid === process.pid ? ", this very process" : ""})`;
  const until = new Date(cur.lastModified.getTime() + (doc?.leaseMs ?? 0)).toISOString();
  return `renewed its lease ${formatAge(cur.serverTime.getTime() - cur.lastModified.getTime())} ago (valid until ${until}, by the server's clock)`;
}

/**
 * Who holds the stack lock now, from `lock.json`; undefined when there is none or its holder is certainly
 * gone (lease ended, or a pid of this host that no longer runs: the next run takes it over).
 *
 * @example (await readS3LockHolder(store))?.expires // "2025-01-01T10:01:00.000Z"
 */
export async function readS3LockHolder(store: S3Place): Promise<LockHolder | undefined> {
  const cur = await store.objects.get(store.rel("lock.json"));
  if (!cur) return undefined;
  const doc = parseLock(cur.text);
  if (goneReason(doc, cur)) return undefined;
  return { ...(doc?.holder ?? UNKNOWN_HOLDER), expires: new Date(cur.lastModified.getTime() + (doc?.leaseMs ?? 0)).toISOString() };
}

/**
 * Takes the stack lock: `lock.json` created with `If-None-Match: *`, holding the holder and a lease that
 * a timer renews (with `If-Match`) every third of it while the run lives. A lock whose lease ended is
 * taken over with `If-Match` on the ETag read (of two runs taking it over, one wins), with a note;
 * one still in its lease fails at once with {@link StackLockedError} naming the holder.
 *
 * @example const lock = await lockS3Stack(store, "up");
 */
export async function lockS3Stack(store: S3Place, command: string): Promise<StackLock> {
  const { objects, target } = store;
  if (store.lease) throw lockedHere(store, store.lease.holder);
  const key = store.rel("lock.json");
  const token = randomUUID();
  const holder: LockHolder = { ...selfIdentity(hostname()), since: new Date().toISOString(), command };
  const body = () => JSON.stringify({ token, leaseMs: target.leaseMs, holder: { ...holder, expires: new Date(objects.serverNow() + target.leaseMs).toISOString() } }, null, 2) + "\n";
  const notes: string[] = [];
  for (let attempt = 0; ; attempt++) {
    const started = performance.now();
    try {
      const etag = await objects.put(key, body(), { ifNoneMatch: "*" });
      return held(store, { token, etag, holder, validUntil: started + target.leaseMs, lost: undefined }, body, notes);
    } catch (e) {
      if (!isPreconditionFailed(e)) throw s3Error(e, "writing", objects.key(key), target);
    }
    const cur = await objects.get(key);
    if (!cur) continue; // released meanwhile: try again
    const doc = parseLock(cur.text);
    const gone = goneReason(doc, cur);
    if (!gone || attempt > 3) throw lockedHere(store, doc?.holder ?? UNKNOWN_HOLDER, gone ? undefined : liveHolderNote(doc, cur));
    try {
      const etag = await objects.put(key, body(), { ifMatch: cur.etag });
      notes.push(`took over the lock left by ${describeHolder(doc?.holder ?? UNKNOWN_HOLDER)}: ${gone}`);
      return held(store, { token, etag, holder, validUntil: started + target.leaseMs, lost: undefined }, body, notes);
    } catch (e) {
      if (!isPreconditionFailed(e)) throw s3Error(e, "writing", objects.key(key), target);
      // Another run took it over first: look again.
    }
  }
}

/**
 * The held lock: its lease renewed by a timer, checked against the server before each journal write and
 * provider call, and every other write fenced on it (see {@link S3Objects.fence}).
 */
function held(store: S3Place, lease: S3Lease, body: () => string, notes: string[]): StackLock {
  const { objects, target } = store;
  const key = store.rel("lock.json");
  const lost = (why: string) => loseOnce(store, lease, why);
  let renewing: Promise<void> | undefined;
  const renew = () => {
    renewing ??= (async () => {
      const started = performance.now();
      try {
        lease.etag = await objects.put(key, body(), { ifMatch: lease.etag });
        lease.validUntil = started + target.leaseMs;
      } catch (e) {
        if (isPreconditionFailed(e)) lost("another run took the lock over (unlock --force, or this run's lease had expired)");
        // Other errors: try again at the next tick; writes and calls wait for a renewal once the lease may have ended.
      } finally {
        renewing = undefined;
      }
    })();
    return renewing;
  };
  const timer = setInterval(() => void renew(), Math.max(250, Math.floor(target.leaseMs / 3)));
  timer.unref();
  store.lease = lease;
  heldTokens.add(lease.token);
  // The lease may have ended (by this process's monotonic clock, with a margin for the request on its way):
  // another run of another host may take the lock over past it.
  const late = () => performance.now() > lease.validUntil - Math.min(5000, target.leaseMs / 10);
  // A late run (suspended, starved) renews before it goes on: the conditional write succeeds only if no run
  // took the lock meanwhile, so the lock is then certainly still its own; otherwise it is lost.
  const current = async () => {
    if (lease.lost || !late()) return;
    await renew();
    if (!lease.lost && late()) lost("its lease could not be renewed in time");
  };
  const lockKey = objects.key(key);
  // Every write of the run but the lock's own is fenced on the lease, as the request leaves.
  objects.fence = async (k) => {
    if (k === lockKey || store.lease !== lease) return;
    await current();
    if (lease.lost) throw lease.lost;
  };
  return remoteStackLock(lease, notes, {
    async confirm() {
      await renewing;
      if (late()) return current();
      const h = await objects.head(key);
      if (!h || h.etag !== lease.etag) lost(h ? "lock.json was taken over by another run" : "lock.json was removed (unlock --force)");
    },
    async release() {
      clearInterval(timer);
      heldTokens.delete(lease.token);
      await renewing;
      if (store.lease === lease) store.lease = undefined;
      objects.fence = undefined;
      if (lease.lost) return;
      await objects.delete(key, lease.etag).catch(() => {}); // 412: it is no longer ours; other errors: the lease runs out
    },
  });
}

/**
 * `unlock`: removes `lock.json` if its holder is gone (lease ended, or a pid of this host that no longer
 * runs); otherwise refuses with {@link LockHeldError}, unless `force` (then removes it with a warning).
 *
 * @example const { removed, warning } = await unlockS3Stack(store, false);
 */
export async function unlockS3Stack(store: S3Place, force: boolean): Promise<UnlockResult> {
  const { ctx, objects, target } = store;
  const key = store.rel("lock.json");
  const cur = await objects.get(key);
  if (!cur) return { removed: false };
  const doc = parseLock(cur.text);
  const holder = doc?.holder ?? UNKNOWN_HOLDER;
  const gone = goneReason(doc, cur);
  let warning: string | undefined;
  if (!gone) {
    const why = aliveReason(doc, cur);
    if (!force) throw new LockHeldError(ctx.stack, holder, why, ctx.programHint);
    warning = forcedWarning(ctx.stack, holder, why);
  }
  try {
    await objects.delete(key, cur.etag);
  } catch (e) {
    if (isPreconditionFailed(e)) throw new UserError(`the lock of stack ${ctx.stack} changed while unlocking (it was renewed or taken over): run unlock again to see who holds it now`);
    throw s3Error(e, "deleting", objects.key(key), target);
  }
  return { removed: true, holder, ...(warning ? { warning } : {}) };
}
