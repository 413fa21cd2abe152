import { writeSync } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import type { Urn } from "../program/urn.js";
import { beginLine, finishLine, headLine } from "./journal-format.js";
import { applyMutations, workingCopy } from "./mutations.js";
import { encodeState } from "./secret-encoding.js";
import { serializeSnapshot } from "./snapshot.js";
import { replaceFile, type StackFiles } from "./stack-files.js";
import type { StackSecrets } from "./stack-secrets.js";
import type { OperationKind, PendingOperation, StackState, StateMutation } from "./types.js";

/** What {@link Journal.begin} records about a provider call about to start (no inputs: records stay small). */
export interface BeginArgs {
  kind: OperationKind;
  urn: Urn;
  type: string;
  /** The cloud id acted on, if the object exists already (not for creates). */
  id?: string;
}

/** One group-committed write, as reported to {@link JournalOptions.onSync}. */
export interface SyncInfo {
  /** Records written by this write. */
  records: number;
  bytes: number;
}

/** Tuning and test hooks for a journal. */
export interface JournalOptions {
  /**
   * Buffered records (end/abort/mutate) are written with the next durable write, or at the latest
   * this many ms after they were recorded, so an idle engine does not keep them only in memory.
   * Default 50; negative disables the timer.
   */
  flushDelayMs?: number;
  /** Called after every write+fsync; may return a promise (tests use it to simulate a slow disk). */
  onSync?: (info: SyncInfo) => void | Promise<void>;
}

/** @internal What the backend hands a new journal. */
export interface JournalInit {
  files: StackFiles;
  /** The journal file opened for appending, once the backend has prepared it; `bytes` it wrote doing so. */
  ready: Promise<{ fh: FileHandle; bytes: number }>;
  /** Owned by the journal from now on. */
  state: StackState;
  pending: readonly PendingOperation[];
  nextOp: number;
  secrets: StackSecrets;
  /** Throws if the run may no longer write (e.g. its stack lock was lost). */
  guard?: () => void;
  options?: JournalOptions;
}

interface Waiter {
  resolve: () => void;
  reject: (e: Error) => void;
}

/**
 * The write-ahead journal of one run. The engine calls {@link Journal.begin} before each provider
 * call and waits for it (the record is then durable), then {@link Journal.end} or
 * {@link Journal.abort} with the resulting state changes (buffered: a lost end record is found as a
 * pending operation next run).
 *
 * Writes are group-committed: records that arrive while a write+fsync is in flight go out together
 * in the next single write+fsync, so 1,000 concurrent begins cost a handful of fsyncs, not 1,000.
 *
 * @example
 * const journal = backend.openJournal(loaded.state);
 * const op = await journal.begin({ kind: "create", urn, type: "local:File" });
 * const { id, outputs } = await provider.create({ urn, inputs, ctx });
 * journal.end(op, [{ kind: "upsert", resource: { urn, type: "local:File", id, inputs, outputs, deps: [] } }]);
 * await journal.compact();
 * await journal.close();
 */
export class Journal {
  private readonly files: StackFiles;
  private fh: Promise<FileHandle>;
  private st: StackState;
  private readonly open = new Map<number, PendingOperation>();
  private nextOp: number;
  private readonly secrets: StackSecrets;
  private readonly guard: (() => void) | undefined;
  private readonly flushDelayMs: number;
  private readonly onSync: JournalOptions["onSync"];

  private queue: string[] = [];
  private waiters: Waiter[] = [];
  private writing = false;
  private kickScheduled = false;
  private paused = false;
  private idleWaiters: (() => void)[] = [];
  private timer: NodeJS.Timeout | undefined;
  private failed: Error | undefined;
  private isClosed = false;
  private closing: Promise<void> | undefined;
  private bytes = 0;
  private syncCount = 0;

  /** @internal Use `FileBackend.openJournal`. */
  constructor(init: JournalInit) {
    this.files = init.files;
    // Preparing the file is async but opening the journal is not: the first write waits for it.
    this.fh = init.ready.then(({ fh, bytes }) => {
      this.bytes += bytes;
      return fh;
    });
    this.fh.catch(() => {}); // reported by the first write instead
    this.st = init.state;
    for (const p of init.pending) this.open.set(p.op, p);
    this.nextOp = init.nextOp;
    this.secrets = init.secrets;
    this.guard = init.guard;
    this.flushDelayMs = init.options?.flushDelayMs ?? 50;
    this.onSync = init.options?.onSync;
  }

  /** The state with every recorded mutation applied, in call order. Read it; do not modify it. */
  get state(): StackState {
    return this.st;
  }

  /** Operations begun and not yet ended or aborted, including those recovered from a crashed run. */
  get pending(): PendingOperation[] {
    return [...this.open.values()];
  }

  /** Bytes written so far: journal records and snapshots written by {@link Journal.compact}. */
  get bytesWritten(): number {
    return this.bytes;
  }

  /** True once {@link Journal.close} was called. */
  get closed(): boolean {
    return this.isClosed;
  }

  /** Number of write+fsync rounds so far (each one may carry many records). */
  get syncs(): number {
    return this.syncCount;
  }

  /**
   * Records that an operation is starting; resolves with its op number once the record is on disk
   * (written and fsynced). Only then may the provider be called.
   *
   * @example const op = await journal.begin({ kind: "delete", urn, type, id });
   */
  begin(args: BeginArgs): Promise<number> {
    try {
      this.checkWritable();
    } catch (e) {
      return Promise.reject(e as Error);
    }
    const p: PendingOperation = { op: this.nextOp++, kind: args.kind, urn: args.urn, type: args.type, since: new Date().toISOString() };
    if (args.id !== undefined) p.id = args.id;
    this.open.set(p.op, p);
    this.queue.push(beginLine(p));
    return this.durable().then(() => p.op);
  }

  /**
   * Records that operation `op` finished, with the state changes it made (applied to
   * {@link Journal.state} now; written with the next write, without waiting for it).
   *
   * @example journal.end(op, [{ kind: "remove", urn }]);
   */
  end(op: number, mutations: readonly StateMutation[] = []): void {
    this.finish("end", op, mutations);
  }

  /**
   * Records that operation `op` failed, with whatever state changes it still made
   * (e.g. a tainted half-created resource).
   *
   * @example journal.abort(op, [{ kind: "upsert", resource: { ...r, tainted: true } }]);
   */
  abort(op: number, mutations: readonly StateMutation[] = []): void {
    this.finish("abort", op, mutations);
  }

  /**
   * Records state changes outside any provider call (refresh results, stack outputs).
   * @example journal.mutate([{ kind: "outputs", outputs: { url }, secretOutputs: [] }]);
   */
  mutate(mutations: readonly StateMutation[]): void {
    this.checkWritable();
    if (mutations.length === 0) return;
    // Encode first: if a secret cannot be encrypted, nothing is applied.
    const line = finishLine("mutate", undefined, mutations, this.secrets.crypter);
    applyMutations(this.st, mutations);
    this.enqueueBuffered(line);
  }

  /**
   * Resolves once everything recorded so far is written and fsynced.
   * @example journal.end(op, m); await journal.flush();
   */
  flush(): Promise<void> {
    if (this.failed) return Promise.reject(this.failed);
    if (this.queue.length === 0 && !this.writing && !this.paused) return Promise.resolve();
    return this.durable();
  }

  /**
   * Writes the state as a new snapshot (serial + 1) atomically and starts a fresh journal holding
   * only the operations still pending, so the next load starts from the snapshot. Pass `state` to
   * snapshot a state the engine computed itself (it replaces {@link Journal.state}). Records made
   * while the snapshot is being written are kept and go to the fresh journal. Resolves with the state
   * written.
   *
   * @example const saved = await journal.compact(); saved.serial // previous serial + 1
   */
  async compact(state?: StackState): Promise<StackState> {
    this.checkWritable();
    if (this.paused) throw new Error("journal: a compaction is already running; wait for it before starting another");
    // Everything below up to the first await happens at one instant: the snapshot covers exactly the
    // records made so far, and everything after it goes to the fresh journal.
    const base = state ? workingCopy(state) : this.st;
    const snap = { ...workingCopy(base), serial: base.serial + 1 };
    const text = serializeSnapshot(encodeState(snap, this.secrets.crypter)); // throws before any change if a secret cannot be encrypted
    const carried = [...this.open.values()];
    const journalText = headLine(snap.serial) + carried.map(beginLine).join("");
    if (state) this.st = workingCopy(state);
    this.st.serial = snap.serial;
    const covered = this.queue;
    const coveredWaiters = this.waiters;
    this.queue = [];
    this.waiters = [];
    this.paused = true;
    this.clearTimer();

    try {
      // The backend may still be preparing the journal file (cutting off a torn record): let it finish first.
      const old = await this.fh;
      await this.whenIdle();
      await this.secrets.persist();
      this.bytes += await replaceFile(this.files.snapshot, text);
      this.bytes += await replaceFile(this.files.journal, journalText);
      this.fh = open(this.files.journal, "a");
      await this.fh;
      await old.close().catch(() => {});
      for (const w of coveredWaiters) w.resolve();
    } catch (e) {
      // The records covered by the snapshot may now be on disk nowhere, and the old journal may no longer
      // match the snapshot: stop this run. The next load recovers from whatever reached the disk.
      const err = e as Error;
      this.fail(new Error(`journal: compacting into ${this.files.snapshot} failed (${err.message}); the run must stop`), coveredWaiters);
      throw this.failed!;
    } finally {
      this.paused = false;
      if (this.waiters.length) this.kick();
      else if (this.queue.length) this.scheduleTimer();
    }
    return snap;
  }

  /**
   * Writes what is still buffered and closes the journal file; rejects if the journal had failed
   * (not everything recorded reached the disk). No records may be added once it is called; calling
   * it again returns the same promise.
   * @example await journal.close();
   */
  close(): Promise<void> {
    if (this.closing) return this.closing;
    this.isClosed = true;
    this.clearTimer();
    this.closing = (async () => {
      try {
        if (this.queue.length || this.writing || this.paused) await this.durable();
        if (this.failed) throw this.failed; // what was recorded did not all reach the disk
      } finally {
        await this.whenIdle();
        const fh = await this.fh.catch(() => undefined);
        await fh?.close().catch(() => {});
      }
    })();
    return this.closing;
  }

  /** @internal The error that stopped this journal, if any. */
  get failure(): Error | undefined {
    return this.failed;
  }

  /** @internal The op number the next begin will get. */
  get nextOpNumber(): number {
    return this.nextOp;
  }

  private finish(t: "end" | "abort", op: number, mutations: readonly StateMutation[]): void {
    this.checkWritable();
    if (!this.open.has(op)) throw new Error(`journal: operation ${op} is not in progress (never begun, or already ended)`);
    const line = finishLine(t, op, mutations, this.secrets.crypter);
    this.open.delete(op);
    applyMutations(this.st, mutations);
    this.enqueueBuffered(line);
  }

  private checkWritable(): void {
    if (this.isClosed) throw new Error(`journal: ${this.files.journal} is closed`);
    if (this.failed) throw this.failed;
    this.guard?.();
  }

  private enqueueBuffered(line: string): void {
    this.queue.push(line);
    this.scheduleTimer();
  }

  private scheduleTimer(): void {
    if (this.timer || this.flushDelayMs < 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      // A failure is kept in `failed` and reported by the next call.
      if (this.queue.length) this.durable().catch(() => {});
    }, this.flushDelayMs);
    this.timer.unref();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private durable(): Promise<void> {
    if (this.failed) return Promise.reject(this.failed);
    return new Promise<void>((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      this.kick();
    });
  }

  private kick(): void {
    if (this.writing || this.paused || this.kickScheduled) return;
    this.kickScheduled = true;
    // Start on the next event-loop turn rather than a microtask: callbacks of the current turn (e.g. ten
    // workers resumed by the same timer or I/O phase) all add their records first and share one fsync.
    setImmediate(() => {
      this.kickScheduled = false;
      void this.run();
    });
  }

  private async run(): Promise<void> {
    if (this.writing || this.paused) return;
    this.writing = true;
    try {
      while (this.waiters.length && !this.paused && !this.failed) {
        const lines = this.queue;
        const waiters = this.waiters;
        this.queue = [];
        this.waiters = [];
        try {
          if (lines.length) {
            this.clearTimer();
            await this.secrets.persist(); // encryption.json must exist before any ciphertext it decrypts
            const buf = Buffer.from(lines.join(""), "utf8");
            const fh = await this.fh;
            // The write only copies into the page cache (microseconds), so it is done in place; the
            // fsync is what takes time, and runs in the background while new records queue up.
            for (let off = 0; off < buf.length; ) off += writeSync(fh.fd, buf, off, buf.length - off);
            await fh.datasync();
            this.bytes += buf.length;
            this.syncCount++;
            await this.onSync?.({ records: lines.length, bytes: buf.length });
          }
          for (const w of waiters) w.resolve();
        } catch (e) {
          const err = e as Error;
          this.fail(new Error(`journal: writing ${this.files.journal} failed (${err.message}); the run must stop`), waiters);
        }
      }
    } finally {
      this.writing = false;
      const idle = this.idleWaiters;
      this.idleWaiters = [];
      for (const f of idle) f();
    }
  }

  private fail(err: Error, waiters: Waiter[]): void {
    this.failed ??= err;
    for (const w of [...waiters, ...this.waiters]) w.reject(this.failed);
    this.waiters = [];
  }

  private whenIdle(): Promise<void> {
    if (!this.writing) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }
}
