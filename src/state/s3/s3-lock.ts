import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import * as z from "zod/mini";
import { goneReason as processGone, samePidSpace, selfIdentity } from "../process-identity.js";
import { describeHolder, forcedWarning, formatAge, LockHeldError, type LockHolder, type StackLock, type StackLockedError, type UnlockResult } from "../lock-holder.js";
import { lockedHere, loseOnce, remoteStackLock, UNKNOWN_HOLDER } from "../remote-lock.js";
import { lockHolderSchema } from "../schema.js";
import type { S3Lease, S3Place } from "./s3-place.js";
import { isPreconditionFailed, s3Error } from "./s3-target.js";


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
 * Why the lock's holder is certainly gone (its lease ended, or it is a process of this host's pid space
 * that no longer runs, judged as file locks are: `process-identity.ts`), or undefined. The lease is judged by
 * the server's clock alone: when lock.json was last written, and the server's time when it answered (its
 * `Date` header), so the clocks of the hosts do not matter.
 */
function goneReason(doc: LockDoc | undefined, at: { lastModified: Date; serverTime: Date }): string | undefined {
  const leaseMs = doc?.leaseMs ?? 0;
  const over = at.serverTime.getTime() - (at.lastModified.getTime() + leaseMs);
  if (over > 0) return `its lease ended ${formatAge(over)} ago without renewal (the run was killed or lost its connection)`;
  // Another host, or a container with the same host name but its own pids: only the lease can tell.
  if (!doc || !samePidSpace(doc.holder)) return undefined;
  const gone = processGone(doc.holder);
  if (gone) return `${gone} on this host`;
  if (doc.holder.pid === process.pid) return heldTokens.has(doc.token) ? undefined : `it was left by an earlier run of this process`;
  return undefined;
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
    if (!gone || attempt > 3) throw lockedHere(store, doc?.holder ?? UNKNOWN_HOLDER);
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

/** The held lock: its lease renewed by a timer, checked against the server before each journal write. */
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
        // Other errors: try again at the next tick; assertHeld refuses writes once the lease may have ended.
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
  return remoteStackLock(lease, notes, {
    check() {
      // Stop writing a little before the lease could end: past it another run may take over.
      if (!lease.lost && performance.now() > lease.validUntil - Math.min(5000, target.leaseMs / 10)) lost("its lease could not be renewed in time");
    },
    async confirm() {
      await renewing;
      const h = await objects.head(key);
      if (!h || h.etag !== lease.etag) lost(h ? "lock.json was taken over by another run" : "lock.json was removed (unlock --force)");
    },
    async release() {
      clearInterval(timer);
      heldTokens.delete(lease.token);
      await renewing;
      if (store.lease === lease) store.lease = undefined;
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
    const until = new Date(cur.lastModified.getTime() + (doc?.leaseMs ?? 0)).toISOString();
    const why = `renewed its lease ${formatAge(cur.serverTime.getTime() - cur.lastModified.getTime())} ago (valid until ${until}, by the server's clock)`;
    if (!force) throw new LockHeldError(ctx.stack, holder, why, ctx.programHint);
    warning = forcedWarning(ctx.stack, holder, why);
  }
  try {
    await objects.delete(key, cur.etag);
  } catch (e) {
    if (isPreconditionFailed(e)) throw new Error(`the lock of stack ${ctx.stack} changed while unlocking (it was renewed or taken over): run unlock again to see who holds it now`);
    throw s3Error(e, "deleting", objects.key(key), target);
  }
  return { removed: true, holder, ...(warning ? { warning } : {}) };
}
