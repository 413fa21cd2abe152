import { DiskFullError } from "./durable-file.js";
import type { JournalStorage } from "./store.js";

/**
 * Writes quicker than this (ms) are pipelined (see `GroupCommit.nextWrite`): half a window of calls staged
 * ahead keeps the engine busy about this long. A slower store (S3, ~40 ms a round) would only make twice
 * the rounds for the same records, so its writes carry everything that waits.
 */
const PIPELINE_BELOW_MS = 5;
/** Fewer begins than this waiting are written together: only a fast provider's calls stage this many ahead. */
const PIPELINE_FROM_BEGINS = 64;

/** One group-committed write, as reported to {@link JournalOptions.onSync}. */
export interface SyncInfo {
  /** Records written by this write. */
  records: number;
  bytes: number;
}

/** Tuning and test hooks for a journal's group commit. */
export interface JournalOptions {
  /**
   * Buffered records (end/abort/mutate) are written with the next durable write, or at the latest
   * this many ms after they were recorded, so an idle engine does not keep them only in memory.
   * Default 50; negative disables the timer.
   */
  flushDelayMs?: number;
  /** Called after every write+fsync; may return a promise (tests use it to simulate a slow disk). */
  onSync?: (info: SyncInfo) => void | Promise<void>;
  /**
   * Writes quicker than this (ms) are pipelined: a large batch of begins goes in halves (see
   * `GroupCommit.nextWrite`). Default 5, about what half a window of a fast provider's calls keeps the engine busy.
   */
  pipelineBelowMs?: number;
}

/** A record waiting to be written; begins carry their op, so a full disk can drop them alone. */
export interface Entry {
  line: string;
  begin?: number;
}

/** A caller waiting for records to be durable. */
export interface Waiter {
  /** Given the operation (a begin's waiter resolves with its op number). */
  resolve: (op: number | undefined) => void;
  reject: (e: Error) => void;
  /** The operation a begin waits for: rejected alone if its record cannot be written. */
  op?: number;
  /** Settled once this many records (counted from the journal's start) are written. */
  upTo: number;
}

/** Records and waiters a compaction took out of the group commit: written before its snapshot. */
export interface Cut {
  entries: Entry[];
  waiters: Waiter[];
}

/** What a {@link GroupCommit} writes to, and asks before each write. */
export interface GroupCommitInit {
  storage: JournalStorage;
  /** Runs before each write, once the storage is ready: throws if nothing may be written (the lock was lost). */
  beforeWrite: () => Promise<void>;
  /** Told which begins a full disk dropped: their calls must not start. */
  dropped: (ops: ReadonlySet<number>) => void;
  options?: JournalOptions | undefined;
}

/** Where to cut `entries` after the first half of their begins, or their length when they hold few begins. */
function halfOfBegins(entries: readonly Entry[]): number {
  let begins = 0;
  for (const e of entries) if (e.begin !== undefined) begins++;
  if (begins < PIPELINE_FROM_BEGINS) return entries.length;
  let left = Math.ceil(begins / 2);
  for (let i = 0; i < entries.length; i++) if (entries[i]!.begin !== undefined && --left === 0) return i + 1;
  return entries.length;
}

/**
 * The group commit under a journal: records queue, and each write carries all that queued while the previous
 * one was in flight, so 1,000 concurrent begins cost a handful of fsyncs (or commits, or PUTs), not 1,000.
 * One write is in flight at a time; a fast store's large batches of begins go in halves (pipelining);
 * buffered results go out with the next write or after `flushDelayMs`.
 *
 * When the disk fills up, the begins of that write are dropped (their calls never start) and the results
 * of calls already made are written with the space the store keeps in reserve; {@link GroupCommit.diskFull}
 * is then set. After any other failed write nothing more is written: {@link GroupCommit.failure} is set and
 * every waiter is rejected with it.
 *
 * @example
 * const commit = new GroupCommit({ storage, beforeWrite: async () => {}, dropped: () => {} });
 * commit.push({ line: beginLine(p), begin: p.op });
 * await commit.durable(p.op);
 */
export class GroupCommit {
  private readonly storage: JournalStorage;
  private readonly beforeWrite: () => Promise<void>;
  private readonly dropped: (ops: ReadonlySet<number>) => void;
  private readonly flushDelayMs: number;
  private readonly onSync: JournalOptions["onSync"];
  private readonly pipelineBelowMs: number;

  private queue: Entry[] = [];
  /** Waiting for records to be durable, in the order they came (so by `upTo`). */
  private waiters: Waiter[] = [];
  /** Records ever queued, and ever taken into a write (the queue holds the difference). */
  private queued = 0;
  private taken = 0;
  /** How long the last write and sync took, in ms: whether writes are worth pipelining. */
  private lastWriteMs = Number.POSITIVE_INFINITY;
  private writing = false;
  private kickScheduled = false;
  private paused = false;
  private idleWaiters: (() => void)[] = [];
  private timer: NodeJS.Timeout | undefined;
  private failed: Error | undefined;
  private full: DiskFullError | undefined;
  private bytes = 0;
  private syncCount = 0;

  /** @example new GroupCommit({ storage, beforeWrite: () => fence.beforeWrite(), dropped: (ops) => forget(ops) }) */
  constructor(init: GroupCommitInit) {
    this.storage = init.storage;
    this.beforeWrite = init.beforeWrite;
    this.dropped = init.dropped;
    this.flushDelayMs = init.options?.flushDelayMs ?? 50;
    this.onSync = init.options?.onSync;
    this.pipelineBelowMs = init.options?.pipelineBelowMs ?? PIPELINE_BELOW_MS;
    // Preparing the storage is async but opening the journal is not: the first write waits for it.
    init.storage.ready.then(
      (bytes) => void (this.bytes += bytes),
      () => {}, // reported by the first write instead
    );
  }

  /** The error that stopped all writing, if any. @example if (commit.failure) throw commit.failure; */
  get failure(): Error | undefined {
    return this.failed;
  }

  /** Set once a write found the disk full: begins are refused from then on, results still written. @example commit.diskFull?.message */
  get diskFull(): DiskFullError | undefined {
    return this.full;
  }

  /** Bytes written so far (records, and what {@link GroupCommit.addBytes} counted). @example commit.bytesWritten */
  get bytesWritten(): number {
    return this.bytes;
  }

  /** Number of write rounds so far. @example commit.syncs // 3 */
  get syncs(): number {
    return this.syncCount;
  }

  /** True while a compaction holds the writes back. @example if (commit.compacting) throw … */
  get compacting(): boolean {
    return this.paused;
  }

  /** Counts bytes written beside the records (a compaction's snapshot). @example commit.addBytes(await storage.replace(w, text)); */
  addBytes(n: number): void {
    this.bytes += n;
  }

  /** Queues a record some caller will wait for (a begin, a note). @example commit.push({ line, begin: op }); */
  push(entry: Entry): void {
    this.queue.push(entry);
    this.queued++;
  }

  /** Queues a record nobody waits for (a result): written with the next write, or by the timer. @example commit.pushBuffered(line); */
  pushBuffered(line: string): void {
    this.push({ line });
    this.scheduleTimer();
  }

  /**
   * Resolves (with `op`, when given) once everything queued so far is durable.
   * @example const op = await commit.durable(7); // 7
   */
  durable(): Promise<void>;
  durable(op: number): Promise<number>;
  durable(op?: number): Promise<unknown> {
    if (this.failed) return Promise.reject(this.failed);
    return new Promise<number | undefined>((resolve, reject) => {
      this.waiters.push(op === undefined ? { resolve, reject, upTo: this.queued } : { resolve, reject, op, upTo: this.queued });
      this.kick();
    });
  }

  /** Resolves once everything queued so far is durable (at once when nothing waits). @example await commit.flush(); */
  flush(): Promise<void> {
    if (this.failed) return Promise.reject(this.failed);
    if (!this.busy()) return Promise.resolve();
    return this.durable();
  }

  /** True while records wait, a write is in flight, or a compaction holds writes back. @example if (commit.busy()) await commit.durable(); */
  busy(): boolean {
    return this.queue.length > 0 || this.writing || this.paused;
  }

  /** Stops the flush timer (closing: the last records are written by the close itself). @example commit.stopTimer(); */
  stopTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /**
   * Takes everything queued so far, with its waiters, out of the group commit and holds later writes back
   * until {@link GroupCommit.resume}: a compaction writes what it took itself, then its snapshot.
   * @example const cut = commit.cut(); try { await commit.writeCut(cut); … } finally { commit.resume(); }
   */
  cut(): Cut {
    const cut = { entries: this.queue, waiters: this.waiters };
    this.queue = [];
    this.waiters = [];
    this.taken = this.queued;
    this.paused = true;
    this.stopTimer();
    return cut;
  }

  /**
   * Writes the records of a {@link GroupCommit.cut} once the write in flight has ended, and settles their
   * waiters; resolves with the begins a full disk dropped. Throws if the records could not be written.
   * @example const dropped = await commit.writeCut(cut);
   */
  async writeCut(cut: Cut): Promise<Set<number>> {
    await this.storage.ready;
    await this.whenIdle();
    const dropped = cut.entries.length ? await this.write(cut.entries) : new Set<number>();
    this.settle(cut.waiters, dropped);
    return dropped;
  }

  /** Lets writes go on after a {@link GroupCommit.cut}. @example commit.resume(); */
  resume(): void {
    this.paused = false;
    if (this.waiters.length) this.kick();
    else if (this.queue.length) this.scheduleTimer();
  }

  /**
   * Stops all writing with `err` (the first failure is kept), rejecting `waiters` and everyone waiting.
   * @example commit.fail(new Error("compacting failed"), cut.waiters);
   */
  fail(err: Error, waiters: Waiter[]): void {
    this.failed ??= err;
    for (const w of [...waiters, ...this.waiters]) w.reject(this.failed);
    this.waiters = [];
    // Results still queued are kept locally where the storage can (their begins never became calls otherwise).
    const queued = this.queue.filter((x) => x.begin === undefined).map((x) => x.line).join("");
    if (queued && this.storage.keep?.(queued)) this.queue = [];
  }

  /** Resolves once no write is in flight. @example await commit.whenIdle(); */
  whenIdle(): Promise<void> {
    if (!this.writing) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
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

  private kick(): void {
    if (this.writing || this.paused || this.kickScheduled) return;
    this.kickScheduled = true;
    // Start on the next event-loop turn rather than a microtask: callbacks of the current turn (e.g. ten
    // workers resumed by the same timer or I/O phase) all add their records first and share one write.
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
        const entries = this.nextWrite();
        const waiters = this.dueOnceTaken();
        try {
          if (entries.length) this.stopTimer();
          this.settle(waiters, entries.length ? await this.write(entries) : new Set());
        } catch (e) {
          this.fail(e as Error, waiters);
        }
      }
    } finally {
      this.writing = false;
      const idle = this.idleWaiters;
      this.idleWaiters = [];
      for (const f of idle) f();
    }
  }

  /**
   * The records the next write carries: all that wait, or, when writes are quick (a local disk's sync, a
   * nearby database's commit) and many calls wait on their begins, the first half of those begins (with
   * every record before them). Otherwise every call staged ahead waits on the one write, the engine has
   * nothing to do until its sync returns, and the next write starts only once the engine has worked through
   * them: the CPU stays idle for each sync. In halves, the engine works through the calls one write let
   * start while the next write syncs.
   */
  private nextWrite(): Entry[] {
    const all = this.queue;
    const cut = this.lastWriteMs < this.pipelineBelowMs ? halfOfBegins(all) : all.length;
    this.taken += cut;
    if (cut === all.length) {
      this.queue = [];
      return all;
    }
    this.queue = all.slice(cut);
    return all.slice(0, cut);
  }

  /** The waiters whose records are all in writes taken so far (they settle when those writes end). */
  private dueOnceTaken(): Waiter[] {
    let n = 0;
    while (n < this.waiters.length && this.waiters[n]!.upTo <= this.taken) n++;
    if (n === this.waiters.length) {
      const all = this.waiters;
      this.waiters = [];
      return all;
    }
    return this.waiters.splice(0, n);
  }

  /**
   * Writes entries durably; resolves with the ops of begins that were dropped because the disk is full
   * (their provider calls must not start). Throws if the other records could not be written.
   */
  private async write(entries: Entry[]): Promise<Set<number>> {
    try {
      await this.storage.ready;
      await this.beforeWrite();
    } catch (e) {
      // Nothing was sent: the results in this write are kept locally where the storage can (a network backend).
      const results = entries.filter((x) => x.begin === undefined).map((x) => x.line).join("");
      if (results && this.storage.keep?.(results)) throw this.wrap(e as Error);
      throw e;
    }
    try {
      await this.append(entries);
      return new Set();
    } catch (e) {
      if (!(e instanceof DiskFullError)) throw this.wrap(e as Error);
      this.full ??= e;
      // Nothing of this write landed. Its begins are refused; the results of calls already made are
      // written with the space kept in reserve, so the next run knows exactly what exists.
      const dropped = new Set(entries.flatMap((x) => (x.begin === undefined ? [] : [x.begin])));
      this.dropped(dropped);
      const rest = entries.filter((x) => x.begin === undefined);
      if (rest.length) {
        if (!(await this.storage.releaseReserve?.())) throw this.wrap(e);
        await this.append(rest).catch((again: Error) => {
          throw this.wrap(again);
        });
      }
      return dropped;
    }
  }

  private async append(entries: Entry[]): Promise<void> {
    const started = performance.now();
    const text = entries.map((x) => x.line).join("");
    this.bytes += await this.storage.append(text);
    this.syncCount++;
    await this.onSync?.({ records: entries.length, bytes: Buffer.byteLength(text) });
    this.lastWriteMs = performance.now() - started;
  }

  private wrap(err: Error): Error {
    if (err instanceof DiskFullError) return err;
    const kept = this.storage.keptIn && !err.message.includes(this.storage.keptIn) ? `; results it did not get are kept in ${this.storage.keptIn} and written by the next run` : "";
    return new Error(`journal: writing ${this.storage.name} failed (${err.message})${kept}; the run must stop`);
  }

  private settle(waiters: Waiter[], dropped: Set<number>): void {
    for (const w of waiters) {
      if (w.op !== undefined && dropped.has(w.op)) w.reject(this.full!);
      else w.resolve(w.op);
    }
  }
}
