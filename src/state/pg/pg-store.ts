import type { ClientBase } from "pg";
import type { HistoryEntry, RawConfigValue, StackExport } from "../stored.js";
import { headLine } from "../journal-format.js";
import { recordLines } from "../remote-journal.js";
import { LockCompromisedError, type LockHolder, type StackLock, type UnlockResult } from "../lock-holder.js";
import { SpillConflictError } from "../spill.js";
import { EncryptionExistsError, type ConfigStorage, type EncryptionStorage, type JournalPrep, type JournalStorage, type SnapshotText, type StoreCatalog, type StoreContext, type StoreHistory, type StoreLocker, type StoreNames, type StoreReader, type StoreTransfer, type StoreWriter } from "../store.js";
import { withRetry } from "../net/retry.js";
import { connectPg, inTransaction, isPgTransient, pgRetry, type PgTarget } from "./pg-connection.js";
import { PgJournalStorage } from "./pg-journal.js";
import { lockPgStack, reacquire, readPgLockHolder, unlockPgStack } from "./pg-lock.js";
import type { PgPlace, PgSession } from "./pg-place.js";

import { ident } from "./pg-schema.js";


/**
 * State in PostgreSQL: tables `stacks`, `snapshots` (one row per version, kept for history),
 * `journal` (one row per record, appended in the same order and discipline as the file journal),
 * `config`, `locks` (the holder row) in schema `cairn` (or `?schema=`), created and migrated on first
 * use. The stack lock is a session-level advisory lock held by one connection for the whole run:
 * every write of the run goes through that connection and checks the lock row is still its own, so a
 * run whose session ended can write nothing, and a crashed holder's lock ends with its session.
 *
 * @example const store = new PgStore(parsePgUrl("postgres://ci@db/infra"), { stack: "prod", project: "web" });
 */
export class PgStore implements StoreReader, StoreWriter, StoreLocker, StoreHistory, ConfigStorage, EncryptionStorage, StoreCatalog, StoreTransfer, PgPlace {
  readonly names: StoreNames;
  /** The connection holding the stack lock, while a run holds it. */
  session: PgSession | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private id: number | undefined;

  constructor(
    readonly target: PgTarget,
    readonly ctx: StoreContext,
  ) {
    const at = `${target.display} (stack ${ctx.project}/${ctx.stack})`;
    const t = (n: string) => `${target.schema}.${n}`;
    this.names = { snapshot: `${t("snapshots")} at ${at}`, journal: `${t("journal")} at ${at}`, config: `${t("config")} at ${at}`, encryption: `${t("stacks")}.encryption at ${at}`, lock: `${t("locks")} at ${at}` };
  }

  get url(): string {
    return this.target.display;
  }

  /** @internal A schema-qualified table name. */
  t(name: string): string {
    return `${ident(this.target.schema)}.${name}`;
  }

  /**
   * @internal Runs `fn` on the run's locked connection (one statement or transaction at a time), or on
   * a connection of its own that is closed afterwards. Network failures are retried within the target's
   * budget, on a new connection (the run's lock taken again first, and found still its own); `fn` must be
   * safe to run again (every caller's is: reads, or writes that recognise their own earlier success).
   */
  use<T>(fn: (c: ClientBase) => Promise<T>, what = "using the state"): Promise<T> {
    const s = this.session;
    if (s) {
      const next = this.queue.then(() => withRetry(pgRetry(this.target), what, () => this.onSession(s, fn)));
      this.queue = next.catch(() => {});
      return next;
    }
    return withRetry(pgRetry(this.target), what, async () => {
      const c = await connectPg(this.target);
      try {
        return await fn(c);
      } finally {
        await c.end().catch(() => {});
      }
    });
  }

  /** @internal Resolves once every statement queued on the run's connection has finished. */
  drain(): Promise<unknown> {
    return this.queue;
  }

  private async onSession<T>(s: PgSession, fn: (c: ClientBase) => Promise<T>): Promise<T> {
    if (s.lost) throw s.lost;
    if (s.broken) await reacquire(this, s);
    try {
      return await fn(s.client);
    } catch (e) {
      if (isPgTransient(e)) s.broken = true;
      throw e;
    }
  }

  /** @internal The stack's row id; created when `create` (a write) and missing. */
  async stackId(c: ClientBase, create: boolean): Promise<number | undefined> {
    if (this.id !== undefined) return this.id;
    const find = () => c.query<{ id: string }>(`SELECT id FROM ${this.t("stacks")} WHERE project = $1 AND name = $2`, [this.ctx.project, this.ctx.stack]);
    let { rows } = await find();
    if (!rows.length && create) {
      await c.query(`INSERT INTO ${this.t("stacks")} (project, name) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [this.ctx.project, this.ctx.stack]);
      ({ rows } = await find());
    }
    if (rows.length) this.id = Number(rows[0]!.id);
    return this.id;
  }

  /** @internal SQL that is true while this run's lock row is still its own (`$n` is the token). */
  lockCheck(n: number): string {
    return this.session ? `EXISTS (SELECT 1 FROM ${this.t("locks")} WHERE stack_id = $1 AND token = $${n})` : "TRUE";
  }

  async readSnapshot(): Promise<SnapshotText | undefined> {
    return this.use(async (c) => {
      const id = await this.stackId(c, false);
      if (id === undefined) return undefined;
      const { rows } = await c.query<{ data: string }>(`SELECT data FROM ${this.t("snapshots")} WHERE stack_id = $1 ORDER BY serial DESC LIMIT 1`, [id]);
      return rows.length ? { text: rows[0]!.data, name: this.names.snapshot } : undefined;
    });
  }

  async readJournal(): Promise<Buffer | undefined> {
    return this.use(async (c) => {
      const id = await this.stackId(c, false);
      if (id === undefined) return undefined;
      const { rows } = await c.query<{ base_serial: string; record: string }>(`SELECT base_serial, record FROM ${this.t("journal")} WHERE stack_id = $1 ORDER BY seq`, [id]);
      const snap = await c.query<{ serial: string | null }>(`SELECT max(serial) AS serial FROM ${this.t("snapshots")} WHERE stack_id = $1`, [id]);
      const base = rows[0]?.base_serial ?? snap.rows[0]?.serial;
      if (base === null || base === undefined) return undefined;
      return Buffer.from(headLine(Number(base)) + rows.map((r) => `${r.record}\n`).join(""), "utf8");
    });
  }

  openJournal(prep: JournalPrep): JournalStorage {
    return new PgJournalStorage(this, prep);
  }

  lock(opts: { command?: string }): Promise<StackLock> {
    return lockPgStack(this, opts.command ?? "");
  }

  unlock(opts: { force: boolean }): Promise<UnlockResult> {
    return unlockPgStack(this, opts.force);
  }

  async readConfig(): Promise<Record<string, RawConfigValue>> {
    return this.use((c) => this.configOn(c));
  }

  async updateConfig(update: (values: Record<string, RawConfigValue>) => boolean): Promise<void> {
    await this.use(async (c) => {
      const id = (await this.stackId(c, true))!;
      await inTransaction(c, async () => {
        // Serialises config writers of this stack (and only them: a running `up` does not block `config set`).
        await c.query("SELECT pg_advisory_xact_lock(hashtext($1), $2::int)", [`cairn-config:${this.target.schema}`, id]);
        const values = await this.configOn(c);
        const before = JSON.stringify(values);
        if (!update(values) || JSON.stringify(values) === before) return;
        await c.query(`DELETE FROM ${this.t("config")} WHERE stack_id = $1`, [id]);
        const keys = Object.keys(values);
        if (keys.length) {
          await c.query(`INSERT INTO ${this.t("config")} (stack_id, key, value) SELECT $1, k, v FROM unnest($2::text[], $3::text[]) AS t(k, v)`, [
            id,
            keys,
            keys.map((k) => JSON.stringify(values[k])),
          ]);
        }
      });
    });
  }

  async readEncryption(): Promise<string | undefined> {
    return this.use(async (c) => {
      const id = await this.stackId(c, false);
      return id === undefined ? undefined : this.readEncryptionOn(c, id);
    });
  }

  private async readEncryptionOn(c: ClientBase, id: number): Promise<string | undefined> {
    const { rows } = await c.query<{ encryption: string | null }>(`SELECT encryption FROM ${this.t("stacks")} WHERE id = $1`, [id]);
    return rows[0]?.encryption ?? undefined;
  }

  async createEncryption(text: string): Promise<void> {
    await this.use(async (c) => {
      const id = (await this.stackId(c, true))!;
      const r = await c.query(`UPDATE ${this.t("stacks")} SET encryption = $2 WHERE id = $1 AND encryption IS NULL`, [id, text]);
      // A retry after a lost answer finds its own earlier write.
      if (r.rowCount !== 1 && (await this.readEncryptionOn(c, id)) !== text) throw new EncryptionExistsError(this.names.encryption);
    });
  }

  async history(): Promise<HistoryEntry[]> {
    return this.use(async (c) => {
      const id = await this.stackId(c, false);
      if (id === undefined) return [];
      const { rows } = await c.query<{ serial: string; written_at: Date; written_by: string | null; resources: number; bytes: number }>(
        `SELECT serial, written_at, written_by, resources, bytes FROM ${this.t("snapshots")} WHERE stack_id = $1 ORDER BY serial`,
        [id],
      );
      return rows.map((r, i) => ({
        version: Number(r.serial),
        writtenAt: r.written_at.toISOString(),
        ...(r.written_by ? { writtenBy: r.written_by } : {}),
        resources: r.resources,
        bytes: r.bytes,
        current: i === rows.length - 1,
      }));
    });
  }

  async readVersion(version: number): Promise<string | undefined> {
    return this.use(async (c) => {
      const id = await this.stackId(c, false);
      if (id === undefined) return undefined;
      const { rows } = await c.query<{ data: string }>(`SELECT data FROM ${this.t("snapshots")} WHERE stack_id = $1 AND serial = $2`, [id, version]);
      return rows[0]?.data;
    });
  }

  async listAllStacks(): Promise<{ project: string; stack: string }[]> {
    return this.use(async (c) => {
      const { rows } = await c.query<{ project: string; name: string }>(
        `SELECT s.project, s.name FROM ${this.t("stacks")} s WHERE EXISTS (SELECT 1 FROM ${this.t("snapshots")} WHERE stack_id = s.id)
           OR EXISTS (SELECT 1 FROM ${this.t("journal")} WHERE stack_id = s.id) ORDER BY s.project, s.name`,
      );
      return rows.map((r) => ({ project: r.project, stack: r.name }));
    });
  }

  async listStacks(): Promise<string[]> {
    return this.use(async (c) => {
      const { rows } = await c.query<{ name: string }>(
        `SELECT s.name FROM ${this.t("stacks")} s WHERE s.project = $1 AND (EXISTS (SELECT 1 FROM ${this.t("snapshots")} WHERE stack_id = s.id)
           OR EXISTS (SELECT 1 FROM ${this.t("journal")} WHERE stack_id = s.id) OR EXISTS (SELECT 1 FROM ${this.t("config")} WHERE stack_id = s.id)) ORDER BY s.name`,
        [this.ctx.project],
      );
      return rows.map((r) => r.name);
    });
  }

  async isEmpty(): Promise<boolean> {
    return this.use(async (c) => {
      const id = await this.stackId(c, false);
      if (id === undefined) return true;
      const { rows } = await c.query<{ used: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM ${this.t("snapshots")} WHERE stack_id = $1) OR EXISTS (SELECT 1 FROM ${this.t("journal")} WHERE stack_id = $1)
           OR EXISTS (SELECT 1 FROM ${this.t("config")} WHERE stack_id = $1) OR (SELECT encryption IS NOT NULL FROM ${this.t("stacks")} WHERE id = $1) AS used`,
        [id],
      );
      return !rows[0]?.used;
    });
  }

  async importRaw(data: StackExport): Promise<void> {
    await this.use(async (c) => {
      const id = (await this.stackId(c, true))!;
      await inTransaction(c, async () => {
        if (data.encryption !== undefined) await c.query(`UPDATE ${this.t("stacks")} SET encryption = $2 WHERE id = $1`, [id, data.encryption]);
        for (const [k, v] of Object.entries(data.config)) await c.query(`INSERT INTO ${this.t("config")} (stack_id, key, value) VALUES ($1, $2, $3)`, [id, k, JSON.stringify(v)]);
        for (const h of data.history) await this.insertSnapshot(c, id, h.version, h.text, h.writtenAt, "state migrate");
        const current = data.snapshot !== undefined ? Number((JSON.parse(data.snapshot) as { serial: number }).serial) : undefined;
        if (current !== undefined && !data.history.some((h) => h.version === current)) await this.insertSnapshot(c, id, current, data.snapshot!, undefined, "state migrate");
        const lines = recordLines(data.journal ?? "");
        if (lines.length > 1) {
          const base = Number((JSON.parse(lines[0]!) as { serial: number }).serial);
          await c.query(`INSERT INTO ${this.t("journal")} (stack_id, seq, base_serial, record) SELECT $1, o, $2, r FROM unnest($3::text[]) WITH ORDINALITY AS t(r, o)`, [id, base, lines.slice(1)]);
        }
      });
    });
  }

  lockHolder(): Promise<LockHolder | undefined> {
    return readPgLockHolder(this);
  }

  async replayAt(base: number, at: number, text: string): Promise<void> {
    const lines = recordLines(text);
    await this.use(async (c) => {
      const id = (await this.stackId(c, true))!;
      await inTransaction(c, async () => {
        const { rows: snap } = await c.query<{ serial: string }>(`SELECT coalesce(max(serial), 0) AS serial FROM ${this.t("snapshots")} WHERE stack_id = $1`, [id]);
        const current = Number(snap[0]!.serial);
        if (current !== base) throw new SpillConflictError(`the stack is at version ${current} now, and the records continue version ${base}`);
        await c.query(
          `INSERT INTO ${this.t("journal")} (stack_id, seq, base_serial, record)
             SELECT $1, $2::bigint + o - 1, $3, r FROM unnest($4::text[]) WITH ORDINALITY AS t(r, o) ON CONFLICT (stack_id, seq) DO NOTHING`,
          [id, at, base, lines],
        );
        if (!(await this.journalHolds(c, id, at, lines))) throw new SpillConflictError(`journal records ${at}–${at + lines.length - 1} hold other records now`);
      });
    }, "writing journal records kept locally");
  }

  /** @internal True when the journal's records from `at` on are exactly `lines`. */
  async journalHolds(c: ClientBase, id: number, at: number, lines: readonly string[]): Promise<boolean> {
    const { rows } = await c.query<{ record: string }>(`SELECT record FROM ${this.t("journal")} WHERE stack_id = $1 AND seq >= $2 AND seq < $2::bigint + $3 ORDER BY seq`, [id, at, lines.length]);
    return rows.length === lines.length && rows.every((r, i) => r.record === lines[i]);
  }

  async removeAll(): Promise<void> {
    await this.use(async (c) => {
      const id = await this.stackId(c, false);
      if (id === undefined) return;
      await inTransaction(c, async () => {
        if (this.session) {
          const { rows } = await c.query(`SELECT 1 FROM ${this.t("locks")} WHERE stack_id = $1 AND token = $2 FOR UPDATE`, [id, this.session.token]);
          if (!rows.length) throw new LockCompromisedError(this.ctx.stack, this.names.lock, new Error("its lock row is no longer this run's"));
        }
        for (const table of ["journal", "snapshots", "config"]) await c.query(`DELETE FROM ${this.t(table)} WHERE stack_id = $1`, [id]);
        await c.query(`UPDATE ${this.t("stacks")} SET encryption = NULL WHERE id = $1`, [id]);
      });
    });
  }

  async close(): Promise<void> {
    // Connections are per operation or per lock; the lock's ends with its release.
  }

  /** @internal Inserts one snapshot version; `count` is its number of resources when the caller knows it (parsing a big snapshot only to count costs seconds). */
  async insertSnapshot(c: ClientBase, id: number, serial: number, text: string, writtenAt: string | undefined, by: string, count?: number): Promise<void> {
    const resources = count ?? Object.keys((JSON.parse(text) as { resources?: object }).resources ?? {}).length;
    await c.query(
      `INSERT INTO ${this.t("snapshots")} (stack_id, serial, data, resources, bytes, written_at, written_by) VALUES ($1, $2, $3, $4, $5, coalesce($6::timestamptz, now()), $7)`,
      [id, serial, text, resources, Buffer.byteLength(text), writtenAt ?? null, by],
    );
  }

  private async configOn(c: ClientBase): Promise<Record<string, RawConfigValue>> {
    const values = Object.create(null) as Record<string, RawConfigValue>;
    const id = await this.stackId(c, false);
    if (id === undefined) return values;
    const { rows } = await c.query<{ key: string; value: string }>(`SELECT key, value FROM ${this.t("config")} WHERE stack_id = $1 ORDER BY key`, [id]);
    for (const r of rows) values[r.key] = JSON.parse(r.value) as RawConfigValue;
    return values;
  }
}

