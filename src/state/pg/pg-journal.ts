import type { ClientBase } from "pg";
import { beginLine } from "../journal-format.js";
import { lockLost } from "../remote-lock.js";
import { carriedRecords, recordLines, RemoteJournal } from "../remote-journal.js";
import { snapshotText, type JournalPrep, type SnapshotWrite } from "../store.js";
import { inTransaction } from "./pg-connection.js";
import type { PgPlace } from "./pg-place.js";

/**
 * A journal as rows of `journal`: each append is one INSERT of all its records (one commit, durable
 * when it returns), numbered by `seq`, and only while the run's lock row is still its own; compaction
 * inserts the next snapshot version and replaces the journal in one transaction.
 *
 * @example const storage = new PgJournalStorage(store, scan.prep); await storage.append(lines);
 */
export class PgJournalStorage extends RemoteJournal {
  private id = 0;

  constructor(
    private readonly store: PgPlace,
    prep: JournalPrep,
  ) {
    super(store.names, prep);
  }

  protected open(prep: JournalPrep): Promise<number> {
    const { store } = this;
    return store.use(async (c) => {
      this.id = (await store.stackId(c, true))!;
      let bytes = 0;
      if (!prep.continuesSnapshot) {
        const lines = prep.pending.map((p) => beginLine(p).trimEnd());
        await inTransaction(c, async () => {
          await this.checkLock(c);
          await c.query(`DELETE FROM ${store.t("journal")} WHERE stack_id = $1`, [this.id]);
          await this.insert(c, lines);
        });
        bytes = lines.reduce((n, l) => n + Buffer.byteLength(l) + 1, 0);
      }
      const { rows } = await c.query<{ seq: string }>(`SELECT coalesce(max(seq), 0) AS seq FROM ${store.t("journal")} WHERE stack_id = $1`, [this.id]);
      this.nextSeq = Math.max(this.nextSeq, Number(rows[0]!.seq) + 1);
      return bytes;
    });
  }

  after(at: number, text: string): number {
    return at + recordLines(text).length;
  }

  async append(text: string): Promise<number> {
    await this.ready;
    const lines = recordLines(text);
    await this.store.use(async (c) => {
      const n = await this.insert(c, lines, true);
      if (n !== lines.length) throw this.lost();
    }, "writing the journal");
    return Buffer.byteLength(text);
  }

  async replace(snapshot: SnapshotWrite, journal: string): Promise<number> {
    await this.ready;
    const carried = carriedRecords(journal); // the head is implied by base_serial
    const text = snapshotText(snapshot);
    await this.store.use((c) =>
      inTransaction(c, async () => {
        await this.checkLock(c);
        if (await this.alreadyInstalled(c, snapshot.serial, text, carried.length)) return;
        const by = this.store.session ? `${this.store.session.holder.command} by pid ${this.store.session.holder.pid} on ${this.store.session.holder.host}` : "";
        await this.store.insertSnapshot(c, this.id, snapshot.serial, text, undefined, by, snapshot.resources).catch((e: { code?: string }) => {
          if (e.code === "23505") throw new Error(`version ${snapshot.serial} of stack ${this.store.ctx.stack} was written by another run meanwhile: this run's changes stay in the journal; run again`);
          throw e;
        });
        await c.query(`DELETE FROM ${this.store.t("journal")} WHERE stack_id = $1`, [this.id]);
        this.base = snapshot.serial;
        await this.insert(c, carried);
      }), "writing the snapshot");
    return Buffer.byteLength(text) + Buffer.byteLength(journal);
  }

  /**
   * True when an earlier attempt of this very compaction committed although its answer was lost (the
   * version is there, byte for byte): the journal was replaced by it too, so there is nothing left to do.
   */
  private async alreadyInstalled(c: ClientBase, serial: number, text: string, carried: number): Promise<boolean> {
    const { rows } = await c.query<{ data: string }>(`SELECT data FROM ${this.store.t("snapshots")} WHERE stack_id = $1 AND serial = $2`, [this.id, serial]);
    if (rows[0]?.data !== text) return false;
    this.base = serial;
    const { rows: last } = await c.query<{ seq: string }>(`SELECT coalesce(max(seq), 0) AS seq FROM ${this.store.t("journal")} WHERE stack_id = $1`, [this.id]);
    this.nextSeq = Math.max(this.nextSeq + carried, Number(last[0]!.seq) + 1);
    return true;
  }

  /** Inserts records after the last one; with `checked`, only if the lock row is still this run's. Returns rows inserted. */
  private async insert(c: ClientBase, lines: string[], checked = false): Promise<number> {
    if (!lines.length) return 0;
    const token = this.store.session?.token ?? "";
    const r = await c
      .query(
        `INSERT INTO ${this.store.t("journal")} (stack_id, seq, base_serial, record)
           SELECT $1, $2::bigint + o - 1, $3, r FROM unnest($4::text[]) WITH ORDINALITY AS t(r, o) WHERE ${checked ? this.store.lockCheck(5) : "TRUE"}`,
        checked && this.store.session ? [this.id, this.nextSeq, this.base, lines, token] : [this.id, this.nextSeq, this.base, lines],
      )
      .catch(async (e: { code?: string; message: string }) => {
        if (e.code !== "23505") throw e;
        // An append (a statement of its own) retried after its answer was lost may find its own records: success.
        if (checked && (await this.store.journalHolds(c, this.id, this.nextSeq, lines))) return { rowCount: lines.length };
        throw new Error(`another run wrote to the journal of stack ${this.store.ctx.stack} meanwhile (record ${this.nextSeq} exists): this run must stop`);
      });
    this.nextSeq += r.rowCount ?? 0;
    return r.rowCount ?? 0;
  }

  private async checkLock(c: ClientBase): Promise<void> {
    const s = this.store.session;
    if (!s) return;
    const { rows } = await c.query(`SELECT 1 FROM ${this.store.t("locks")} WHERE stack_id = $1 AND token = $2`, [this.id, s.token]);
    if (!rows.length) throw this.lost();
  }

  private lost(): Error {
    return lockLost(this.store, "its lock row was removed (unlock --force)");
  }
}
