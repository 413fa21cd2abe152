import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { Client, ClientBase } from "pg";
import { describeHolder, forcedWarning, LockHeldError, type LockHolder, type StackLock, type StackLockedError, type UnlockResult } from "../lock-holder.js";
import { lockedHere, loseOnce, remoteStackLock, UNKNOWN_HOLDER } from "../remote-lock.js";
import { lockHolderSchema } from "../schema.js";
import { withRetry } from "../net/retry.js";
import { connectPg, pgRetry } from "./pg-connection.js";
import type { PgPlace, PgSession } from "./pg-place.js";
import { UserError } from "../../core/diagnostic.js";


// The advisory lock of a stack is (hashtext('cairn:<schema>'), <stack id>): one key space per schema.
const lockClass = (store: PgPlace) => `cairn:${store.target.schema}`;

async function holderRow(store: PgPlace, c: ClientBase, id: number): Promise<{ holder: LockHolder; token: string } | undefined> {
  const { rows } = await c.query<{ holder: string; token: string; session_pid: number }>(`SELECT holder, token, session_pid FROM ${store.t("locks")} WHERE stack_id = $1`, [id]);
  const row = rows[0];
  if (!row) return undefined;
  const parsed = lockHolderSchema.safeParse(JSON.parse(row.holder));
  const base: LockHolder = parsed.success ? parsed.data : UNKNOWN_HOLDER;
  return { holder: { ...base, session: row.session_pid }, token: row.token };
}

/** The server pid of the session holding the stack's advisory lock, if any session holds it. */
async function lockingSession(store: PgPlace, c: ClientBase, id: number): Promise<number | undefined> {
  const { rows } = await c.query<{ pid: number }>(
    `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid = hashtext($1)::oid AND objid = $2::int::oid AND objsubid = 2 AND granted`,
    [lockClass(store), id],
  );
  return rows[0]?.pid;
}

/**
 * Who holds the stack lock now: the holder row, while a database session holds the advisory lock (a row
 * left by a session that ended is taken over by the next run, so it is not reported).
 *
 * @example (await readPgLockHolder(store))?.session // 4711
 */
export async function readPgLockHolder(store: PgPlace): Promise<LockHolder | undefined> {
  return store.use(async (c) => {
    const id = await store.stackId(c, false);
    if (id === undefined) return undefined;
    const live = await lockingSession(store, c, id);
    if (live === undefined) return undefined;
    return (await holderRow(store, c, id))?.holder ?? { ...UNKNOWN_HOLDER, session: live };
  });
}

/**
 * Takes the stack lock: a session-level advisory lock on a connection kept for the run, plus a row
 * naming the holder. Fails at once with {@link StackLockedError} naming the holder (pid, host, age,
 * command, database session) if another session has it. A holder row left by a run whose session
 * ended (killed, connection lost) is taken over with a note.
 *
 * @example const lock = await lockPgStack(store, "up"); try { ... } finally { await lock.release(); }
 */
export async function lockPgStack(store: PgPlace, command: string): Promise<StackLock> {
  if (store.session) throw lockedHere(store, store.session.holder);
  return withRetry(pgRetry(store.target), "taking the stack lock", async () => {
    const client = await connectPg(store.target);
    try {
      return await takeLock(store, client, command);
    } catch (e) {
      await client.end().catch(() => {});
      throw e;
    }
  });
}

/** One attempt at the lock on a fresh connection: the advisory lock, then the holder row. */
async function takeLock(store: PgPlace, client: Client, command: string): Promise<StackLock> {
  const id = (await store.stackId(client, true))!;
  const { rows } = await client.query<{ ok: boolean; pid: number }>("SELECT pg_try_advisory_lock(hashtext($1), $2::int) AS ok, pg_backend_pid() AS pid", [lockClass(store), id]);
  const prev = await holderRow(store, client, id);
  if (!rows[0]!.ok) throw lockedHere(store, prev?.holder);
  const notes = prev ? [`took over the lock left by ${describeHolder(prev.holder)}: its database session had ended (the run was killed or lost its connection)`] : [];
  const holder: LockHolder = { pid: process.pid, host: hostname(), since: new Date().toISOString(), command, session: rows[0]!.pid };
  const token = randomUUID();
  const { session: _omit, ...stored } = holder;
  await client.query(
    `INSERT INTO ${store.t("locks")} (stack_id, holder, token, session_pid) VALUES ($1, $2, $3, $4)
       ON CONFLICT (stack_id) DO UPDATE SET holder = EXCLUDED.holder, token = EXCLUDED.token, session_pid = EXCLUDED.session_pid, acquired_at = now()`,
    [id, JSON.stringify(stored), token, holder.session],
  );
  const session: PgSession = { client, token, holder, id, lost: undefined, broken: false };
  watch(session, client);
  store.session = session;
  return sessionLock(store, session, id, notes);
}

/** Marks the session broken when its connection drops (the next statement takes the lock again first). */
function watch(session: PgSession, client: Client): void {
  const drop = () => {
    if (session.client === client) session.broken = true;
  };
  client.on("error", drop);
  client.on("end", drop);
}

/**
 * After a dropped connection: connects again and retakes the advisory lock, then checks the lock row is
 * still this run's. If another run took the lock meanwhile (or `unlock --force` removed the row), the lock
 * is lost and this run writes nothing more. A network failure here is thrown as it is, to be retried.
 *
 * @example if (session.broken) await reacquire(store, session);
 */
export async function reacquire(store: PgPlace, session: PgSession): Promise<void> {
  if (session.lost) throw session.lost;
  void session.client.end().catch(() => {});
  const client = await connectPg(store.target);
  try {
    const rows = await retakeAdvisory(store, client, session);
    if (!rows[0]!.ok) throw loseOnce(store, session, "another run took the lock while this run's database connection was down");
    const r = await client.query(`UPDATE ${store.t("locks")} SET session_pid = $3 WHERE stack_id = $1 AND token = $2`, [session.id, session.token, rows[0]!.pid]);
    if (r.rowCount !== 1) throw loseOnce(store, session, "its lock row was removed or taken over while this run's database connection was down");
    session.holder.session = rows[0]!.pid;
  } catch (e) {
    await client.end().catch(() => {});
    throw e;
  }
  session.client = client;
  session.broken = false;
  watch(session, client);
}

/**
 * Takes the advisory lock again on a new connection. While this run's own dropped session still holds it
 * (its backend has not exited yet), that is waited for: the lock is not another run's.
 */
async function retakeAdvisory(store: PgPlace, client: Client, session: PgSession): Promise<{ ok: boolean; pid: number }[]> {
  const tryLock = async () =>
    (await client.query<{ ok: boolean; pid: number }>("SELECT pg_try_advisory_lock(hashtext($1), $2::int) AS ok, pg_backend_pid() AS pid", [lockClass(store), session.id])).rows;
  const rows = await tryLock();
  if (rows[0]!.ok) return rows;
  const holder = await lockingSession(store, client, session.id);
  if (holder === undefined) return tryLock(); // the old session ended between the two queries
  if (holder !== session.holder.session) return rows; // another run's session: the lock is lost
  return (await sessionGone(store, client, session.id, holder)) ? tryLock() : rows;
}

/** The held lock: its connection taken up again when it dropped, its row and advisory lock given back on release. */
function sessionLock(store: PgPlace, session: PgSession, id: number, notes: string[]): StackLock {
  return remoteStackLock(session, notes, {
    async confirm() {
      // A dropped connection is taken up again (and the lock found still ours) before anything is called.
      if (session.broken) await store.use(async () => {}, "checking the stack lock");
    },
    async release() {
      try {
        // One attempt, not the retry budget: should it fail, the server frees the advisory lock with the session.
        await store.drain();
        if (session.broken || session.lost) throw new Error("no connection");
        const c = session.client;
        await c.query(`DELETE FROM ${store.t("locks")} WHERE stack_id = $1 AND token = $2`, [id, session.token]);
        await c.query("SELECT pg_advisory_unlock(hashtext($1), $2::int)", [lockClass(store), id]);
      } catch {
        // Ending the session below releases the advisory lock anyway; a stale row is taken over next time.
      } finally {
        if (store.session === session) store.session = undefined;
        await session.client.end().catch(() => {});
      }
    },
  });
}

/** How long an ended session is given to let go of the advisory lock (its backend process exiting). */
const SESSION_END_MS = 10_000;

/**
 * Waits until the ended session `pid` no longer holds the stack's advisory lock; false if it still does
 * after {@link SESSION_END_MS}. A session ends when its backend has exited, which is after its connection
 * dropped or `pg_terminate_backend` signalled it (that call does not wait; its `timeout` form needs
 * PostgreSQL 14): until then the lock is still held.
 */
async function sessionGone(store: PgPlace, c: ClientBase, id: number, pid: number): Promise<boolean> {
  const deadline = Date.now() + SESSION_END_MS;
  while ((await lockingSession(store, c, id)) === pid) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
  return true;
}

/**
 * `unlock`: removes the holder row when no session holds the advisory lock (its holder is gone). While
 * a session holds it, refuses with {@link LockHeldError}, or with `force` ends that session (its run
 * can write nothing more) and removes the row, returning a warning naming the holder.
 *
 * @example const { removed, warning } = await unlockPgStack(store, true);
 */
export async function unlockPgStack(store: PgPlace, force: boolean): Promise<UnlockResult> {
  return store.use(async (c) => {
    const id = await store.stackId(c, false);
    if (id === undefined) return { removed: false };
    const row = await holderRow(store, c, id);
    const live = await lockingSession(store, c, id);
    const holder: LockHolder = row?.holder ?? { ...UNKNOWN_HOLDER, ...(live !== undefined ? { session: live } : {}) };
    if (live === undefined) {
      if (!row) return { removed: false };
      await c.query(`DELETE FROM ${store.t("locks")} WHERE stack_id = $1 AND token = $2`, [id, row.token]);
      return { removed: true, holder };
    }
    const why = `still holds its database session (server pid ${live})`;
    if (!force) throw new LockHeldError(store.ctx.stack, holder, why, store.ctx.programHint);
    const { rows } = await c.query<{ ok: boolean }>("SELECT pg_terminate_backend($1) AS ok", [live]);
    if (!rows[0]?.ok) throw new UserError(`could not end the database session ${live} holding the lock of stack ${store.ctx.stack}: ask a database administrator to run SELECT pg_terminate_backend(${live})`);
    // Reported free only once it is: the next run would otherwise find the lock still held.
    if (!(await sessionGone(store, c, id, live))) {
      throw new UserError(`the database session ${live} holding the lock of stack ${store.ctx.stack} was told to end but still holds it after ${SESSION_END_MS / 1000} s: run unlock --force again, or ask a database administrator to check it`);
    }
    await c.query(`DELETE FROM ${store.t("locks")} WHERE stack_id = $1`, [id]);
    return { removed: true, holder, warning: forcedWarning(store.ctx.stack, holder, `${why}; that session was ended`) };
  });
}
