import type { Urn } from "../core/urn.js";
import type { StateJournal } from "./journal-writer.js";
import { DiskFullError } from "./durable-file.js";
import { isoTime } from "../core/iso-time.js";
import { beginLine, finishLine, headLine, noteLine, operationId } from "./journal-format.js";
import { applyMutations, copyOfResources } from "./mutations.js";
import { encodeState } from "./secret-encoding.js";
import { snapshotChunks } from "./snapshot.js";
import type { RecordLines } from "./record-lines.js";
import { OpenOperations } from "./open-operations.js";
import type { StackSecrets } from "./stack-secrets.js";
import type { JournalStorage } from "./store.js";
import type { OperationKind, PendingOperation, StackState, StateMutation } from "./types.js";

/**
 * How old a lock check may be when a call whose record was written earlier starts: one `stat` per call was
 * a second of CPU at 100,000 calls. A forced unlock in the last 100 ms is not seen by the calls it allows.
 */
const REVERIFY_MS = 100;

/**
 * Writes quicker than this (ms) are pipelined (see `Journal.nextWrite`): half a window of calls staged
 * ahead keeps the engine busy about this long. A slower store (S3, ~40 ms a round) would only make twice
 * the rounds for the same records, so its writes carry everything that waits.
 */
const PIPELINE_BELOW_MS = 5;
/** Fewer begins than this waiting are written together: only a fast provider's calls stage this many ahead. */
const PIPELINE_FROM_BEGINS = 64;

/** Where to cut `entries` after the first half of their begins, or their length when they hold few begins. */
function halfOfBegins(entries: readonly Entry[]): number {
  let begins = 0;
  for (const e of entries) if (e.begin !== undefined) begins++;
  if (begins < PIPELINE_FROM_BEGINS) return entries.length;
  let left = Math.ceil(begins / 2);
  for (let i = 0; i < entries.length; i++) if (entries[i]!.begin !== undefined && --left === 0) return i + 1;
  return entries.length;
}

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
  /**
   * Writes quicker than this (ms) are pipelined: a large batch of begins goes in halves (see
   * `Journal.nextWrite`). Default 5, about what half a window of a fast provider's calls keeps the engine busy.
   */
  pipelineBelowMs?: number;
}

/** @internal What the backend hands a new journal. */
export interface JournalInit {
  /** Where records go (a file, table rows, numbered objects). */
  storage: JournalStorage;
  /** Left as it is: the journal's state starts as a copy sharing its map of resources, copied on the first change. */
  state: StackState;
  pending: readonly PendingOperation[];
  nextOp: number;
  /** Serial of the snapshot the journal continues. */
  baseSerial: number;
  secrets: StackSecrets;
  /** Throws if the run may no longer write (e.g. its stack lock was lost). */
  guard?: () => void;
  /** Asks the lock's store, before each write, whether the lock is still held. */
  verify?: () => Promise<void>;
  options?: JournalOptions;
  /** The records of the snapshot file the state was loaded from, for the first compaction to copy those unchanged. */
  lines?: RecordLines;
}

interface Waiter {
  /** Given the operation (a begin's waiter resolves with its op number). */
  resolve: (op: number | undefined) => void;
  reject: (e: Error) => void;
  /** The operation a begin waits for: rejected alone if its record cannot be written. */
  op?: number;
  /** Settled once this many records (counted from the journal's start) are written. */
  upTo: number;
}

/** A record waiting to be written; begins carry their op, so a full disk can drop them alone. */
interface Entry {
  line: string;
  begin?: number;
}

/**
 * The write-ahead journal of one run, the same for every backend (its {@link JournalStorage} differs).
 * The engine calls {@link Journal.begin} before each provider call and waits for it (the record is
 * then durable), then {@link Journal.end} or {@link Journal.abort} with the resulting state changes
 * (buffered: a lost end record is found as a pending operation next run).
 *
 * Writes are group-committed: records that arrive while a write is in flight go out together in the
 * next single write, so 1,000 concurrent begins cost a handful of fsyncs (or commits, or PUTs), not 1,000.
 *
 * When the disk fills up, begins are refused from then on (no provider call starts without its record),
 * while the results of calls already made are still written, using space the file backend keeps in
 * reserve; the run then fails with `disk full (ENOSPC) writing <file>`.
 *
 * @example
 * const journal = backend.openJournal(loaded.state);
 * const op = await journal.begin({ kind: "create", urn, type: "local:File" });
 * const { id, outputs } = await provider.create({ urn, inputs, ctx });
 * journal.end(op, [{ kind: "upsert", resource: { urn, type: "local:File", id, inputs, outputs, deps: [] } }]);
 * await journal.compact();
 * await journal.close();
 */
export class Journal implements StateJournal {
  private readonly storage: JournalStorage;
  private st: StackState;
  private readonly open: OpenOperations;
  /** True while {@link Journal.state}'s map of resources is also a snapshot's or a caller's: copied before a change. */
  private shared = false;
  private nextOp: number;
  private base: number;
  private readonly secrets: StackSecrets;
  private readonly guard: (() => void) | undefined;
  private readonly verify: (() => Promise<void>) | undefined;
  private readonly flushDelayMs: number;
  private readonly onSync: JournalOptions["onSync"];
  private readonly pipelineBelowMs: number;
  /** The loaded snapshot's record lines, until the first compaction (after it, that file is no longer the one). */
  private lines: RecordLines | undefined;

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
  /** Set once a write found the disk full: begins are refused, results still written. */
  private diskFull: DiskFullError | undefined;
  private isClosed = false;
  private closing: Promise<void> | undefined;
  private bytes = 0;
  private syncCount = 0;
  /** When the lock was last verified (by a write, or {@link Journal.confirm}). */
  private verifiedAt = Number.NEGATIVE_INFINITY;

  /** @internal Use `backend.openJournal`. */
  constructor(init: JournalInit) {
    this.storage = init.storage;
    // Preparing the storage is async but opening the journal is not: the first write waits for it.
    init.storage.ready.then(
      (bytes) => void (this.bytes += bytes),
      () => {}, // reported by the first write instead
    );
    this.st = { ...init.state };
    this.shared = true;
    this.open = new OpenOperations(init.nextOp, init.pending);
    this.nextOp = init.nextOp;
    this.base = init.baseSerial;
    this.secrets = init.secrets;
    this.guard = init.guard;
    this.verify = init.verify;
    this.flushDelayMs = init.options?.flushDelayMs ?? 50;
    this.onSync = init.options?.onSync;
    this.pipelineBelowMs = init.options?.pipelineBelowMs ?? PIPELINE_BELOW_MS;
    this.lines = init.lines;
  }

  /** The state with every recorded mutation applied, in call order. Read it; do not modify it. */
  get state(): StackState {
    return this.st;
  }

  /** Operations begun and not yet ended or aborted, including those recovered from a crashed run. */
  get pending(): PendingOperation[] {
    return this.open.values();
  }

  /** Bytes written so far: journal records and snapshots written by {@link Journal.compact}. */
  get bytesWritten(): number {
    return this.bytes;
  }

  /** True once {@link Journal.close} was called. */
  get closed(): boolean {
    return this.isClosed;
  }

  /** Number of write rounds so far (each one may carry many records). */
  get syncs(): number {
    return this.syncCount;
  }

  /**
   * Records that an operation is starting; resolves with its op number once the record is durable
   * (written and fsynced, committed, or stored). Only then may the provider be called.
   *
   * @example const op = await journal.begin({ kind: "delete", urn, type, id });
   */
  begin(args: BeginArgs): Promise<number> {
    try {
      this.checkWritable();
      if (this.diskFull) throw this.diskFull;
    } catch (e) {
      return Promise.reject(e as Error);
    }
    const p: PendingOperation = { op: this.nextOp++, kind: args.kind, urn: args.urn, type: args.type, since: isoTime(Date.now()) };
    if (args.id !== undefined) p.id = args.id;
    this.open.set(p);
    this.enqueue({ line: beginLine(p), begin: p.op });
    return this.durable(p.op);
  }

  /**
   * The identity of operation `op`, stable across runs (see `operationId`).
   * @example journal.operationId(op) // "5f0c…"
   */
  operationId(op: number): string {
    const p = this.open.get(op);
    if (!p) throw new Error(`journal: operation ${op} is not in progress (never begun, or already ended)`);
    return operationId(p);
  }

  /**
   * Adds what a provider learnt during operation `op` (a request token) to its pending record; resolves once
   * durable, so a crash after this keeps it. The note goes with the record through compaction.
   *
   * @example await journal.note(op, { requestToken: "r-1" });
   */
  note(op: number, d: Readonly<Record<string, string>>): Promise<void> {
    try {
      this.checkWritable();
    } catch (e) {
      return Promise.reject(e as Error);
    }
    const p = this.open.get(op);
    if (!p) return Promise.reject(new Error(`journal: operation ${op} is not in progress (never begun, or already ended)`));
    p.note = { ...p.note, ...d };
    this.enqueue({ line: noteLine(op, d) });
    return this.durable();
  }

  /**
   * Resolves when a call whose begin record is durable may start now: the journal has not failed, the disk
   * is not full, and the run still holds its lock, verified again unless that was done in the last 100 ms
   * (a `stat` for files, a request for S3; a PostgreSQL session learns of its end by itself). Records are
   * written ahead of their calls, so the check their write made may be stale by the time a call starts.
   *
   * Answers at once (returns nothing, or throws) unless the lock is due to be verified: most calls of a
   * fast provider then start without an event-loop turn.
   *
   * @example const op = await journal.begin(args); await journal.confirm(); await provider.create(…);
   */
  confirm(): Promise<void> | void {
    this.checkWritable();
    if (this.diskFull) throw this.diskFull;
    if (!this.verify || performance.now() - this.verifiedAt < REVERIFY_MS) return;
    return this.verify().then(() => {
      this.verifiedAt = performance.now();
    });
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
    if (mutations.length && this.failed && this.storage.keep?.(finishLine("mutate", undefined, mutations, this.secrets.crypter))) {
      applyMutations(this.writable(), mutations);
      return;
    }
    this.checkWritable();
    if (mutations.length === 0) return;
    // Encode first: if a secret cannot be encrypted, nothing is applied.
    const line = finishLine("mutate", undefined, mutations, this.secrets.crypter);
    applyMutations(this.writable(), mutations);
    this.enqueueBuffered(line);
  }

  /**
   * Resolves once everything recorded so far is durable.
   * @example journal.end(op, m); await journal.flush();
   */
  flush(): Promise<void> {
    if (this.failed) return Promise.reject(this.failed);
    if (this.queue.length === 0 && !this.writing && !this.paused) return Promise.resolve();
    return this.durable();
  }

  /**
   * Makes every record so far durable in the journal, then writes the state as a new snapshot
   * (serial + 1) and starts a fresh journal holding only the operations still pending, so the next
   * load starts from the snapshot. Pass `state` to snapshot a state the engine computed itself (it
   * replaces {@link Journal.state}). Records made while the snapshot is being written are kept and go
   * to the fresh journal. Resolves with the state written.
   *
   * If the snapshot cannot be written, the journal already holds everything: the last good snapshot
   * plus the journal is the complete state, and the error (e.g. `disk full (ENOSPC) writing ...`) stops the run.
   *
   * @example const saved = await journal.compact(); saved.serial // previous serial + 1
   */
  async compact(state?: StackState): Promise<StackState> {
    this.checkWritable();
    if (this.paused) throw new Error("journal: a compaction is already running; wait for it before starting another");
    if (this.diskFull) {
      // Everything recorded is written (using the reserve); a snapshot would only fill the disk again.
      await this.flush();
      throw this.diskFull;
    }
    // Everything below up to the first await happens at one instant: the snapshot covers exactly the
    // records made so far, and everything after it goes to the fresh journal.
    // The snapshot is serialized piece by piece as it is written, and is the value returned. It shares its
    // map of resources with the journal's state until the journal next changes it (resources are replaced,
    // never edited, and the first change copies the map: see `writable`): the last compaction of a run,
    // which nothing changes after, copies nothing (the map of 100,000 resources was ~0.1 s and 10 MB).
    const base = state ?? this.st;
    const snap = { ...base, serial: base.serial + 1 };
    const encoded = encodeState(snap, this.secrets.crypter); // throws before any change if a secret cannot be encrypted
    const carried = this.open.values();
    const journalText = headLine(snap.serial) + carried.map(beginLine).join("");
    const prior = { st: this.st, serial: this.st.serial };
    if (state) this.st = { ...state };
    this.st.serial = snap.serial;
    this.shared = true;
    const covered = this.queue;
    const coveredWaiters = this.waiters;
    this.queue = [];
    this.waiters = [];
    this.taken = this.queued;
    this.paused = true;
    this.clearTimer();

    try {
      await this.storage.ready;
      await this.whenIdle();
      // First make the covered records durable in the current journal: should the snapshot fail,
      // nothing is lost.
      const dropped = covered.length ? await this.write(covered) : new Set<number>();
      this.settle(coveredWaiters, dropped);
      if (dropped.size || this.diskFull) {
        this.st = prior.st;
        this.st.serial = prior.serial;
        throw this.diskFull!;
      }
      this.guard?.();
      await this.verify?.(); // a run whose lock was taken over must not install a snapshot
      await this.secrets.persist();
      // Records still the very objects read from the loaded snapshot are copied from its file (see `recordLines`).
      const lines = this.lines;
      this.lines = undefined;
      // The count is counted only by the stores that keep it beside the snapshot (listing 100,000 keys costs ~20 ms).
      const write = { chunks: () => snapshotChunks(encoded, lines), serial: snap.serial, get resources() { return Object.keys(snap.resources).length; } };
      this.bytes += await this.storage.replace(write, journalText);
      this.base = snap.serial;
    } catch (e) {
      const err = e as Error;
      if (err === this.diskFull) throw err;
      // The snapshot may or may not be in place, so the old journal may no longer be the one loaded next:
      // stop this run. Everything recorded was made durable first, so the next load loses nothing.
      this.fail(new Error(`journal: compacting into ${this.storage.snapshotName} failed (${err.message}); the run must stop`), coveredWaiters);
      throw this.failed!;
    } finally {
      this.paused = false;
      if (this.waiters.length) this.kick();
      else if (this.queue.length) this.scheduleTimer();
    }
    return snap;
  }

  /**
   * Writes what is still buffered and closes the journal; rejects if the journal had failed
   * (not everything recorded became durable) or the disk filled up. No records may be added once it
   * is called; calling it again returns the same promise.
   * @example await journal.close();
   */
  close(): Promise<void> {
    if (this.closing) return this.closing;
    this.isClosed = true;
    this.clearTimer();
    this.closing = (async () => {
      try {
        if (this.queue.length || this.writing || this.paused) await this.durable();
        if (this.failed) throw this.failed; // what was recorded did not all become durable
        if (this.diskFull) throw this.diskFull;
      } finally {
        await this.whenIdle();
        await this.storage.ready.catch(() => 0);
        await this.storage.close().catch(() => {});
      }
    })();
    return this.closing;
  }

  /** @internal The error that stopped this journal, if any. */
  get failure(): Error | undefined {
    return this.failed;
  }

  /** @internal Serial of the snapshot this journal continues. */
  get baseSerial(): number {
    return this.base;
  }

  /** @internal The op number the next begin will get. */
  get nextOpNumber(): number {
    return this.nextOp;
  }

  private finish(t: "end" | "abort", op: number, mutations: readonly StateMutation[]): void {
    const target = this.open.get(op);
    // A result that arrives after a network backend was given up on is kept in its local spill file, never dropped.
    if (this.failed && target && this.storage.keep?.(finishLine(t, op, mutations, this.secrets.crypter, target))) {
      this.open.delete(op);
      applyMutations(this.writable(), mutations);
      return;
    }
    this.checkWritable();
    if (!target) throw new Error(`journal: operation ${op} is not in progress (never begun, or already ended)`);
    const line = finishLine(t, op, mutations, this.secrets.crypter, target);
    this.open.delete(op);
    applyMutations(this.writable(), mutations);
    this.enqueueBuffered(line);
  }

  /** The state to apply mutations to: its map of resources copied first if a snapshot shares it. */
  private writable(): StackState {
    if (this.shared) {
      this.st.resources = copyOfResources(this.st.resources);
      this.shared = false;
    }
    return this.st;
  }

  private checkWritable(): void {
    if (this.isClosed) throw new Error(`journal: ${this.storage.name} is closed`);
    if (this.failed) throw this.failed;
    this.guard?.();
  }

  private enqueueBuffered(line: string): void {
    this.enqueue({ line });
    this.scheduleTimer();
  }

  private enqueue(entry: Entry): void {
    this.queue.push(entry);
    this.queued++;
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

  /** Resolves (with `op`, when given) once everything recorded so far is durable. */
  private durable(): Promise<void>;
  private durable(op: number): Promise<number>;
  private durable(op?: number): Promise<unknown> {
    if (this.failed) return Promise.reject(this.failed);
    return new Promise<number | undefined>((resolve, reject) => {
      this.waiters.push(op === undefined ? { resolve, reject, upTo: this.queued } : { resolve, reject, op, upTo: this.queued });
      this.kick();
    });
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
          if (entries.length) this.clearTimer();
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
   * them: one write for all left the CPU idle for each sync (10,000 creates: ~60 rounds of a few ms). In
   * halves, the engine works through the calls one write let start while the next write syncs.
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
      this.guard?.(); // a run that lost its lock must not write
      await this.verify?.();
      this.verifiedAt = performance.now();
      await this.secrets.persist(); // the salt must be stored before any ciphertext it decrypts
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
      this.diskFull ??= e;
      // Nothing of this write landed. Its begins are refused; the results of calls already made are
      // written with the space kept in reserve, so the next run knows exactly what exists.
      const dropped = new Set(entries.flatMap((x) => (x.begin === undefined ? [] : [x.begin])));
      for (const op of dropped) this.open.delete(op);
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
      if (w.op !== undefined && dropped.has(w.op)) w.reject(this.diskFull!);
      else w.resolve(w.op);
    }
  }

  private fail(err: Error, waiters: Waiter[]): void {
    this.failed ??= err;
    for (const w of [...waiters, ...this.waiters]) w.reject(this.failed);
    this.waiters = [];
    // Results still queued are kept locally where the storage can (their begins never became calls otherwise).
    const queued = this.queue.filter((x) => x.begin === undefined).map((x) => x.line).join("");
    if (queued && this.storage.keep?.(queued)) this.queue = [];
  }

  private whenIdle(): Promise<void> {
    if (!this.writing) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }
}
