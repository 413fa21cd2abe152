import type { Urn } from "../core/urn.js";
import type { StateJournal } from "./journal-writer.js";
import { isoTime } from "../core/iso-time.js";
import { Compaction } from "./compaction.js";
import { GroupCommit, type JournalOptions } from "./group-commit.js";
import { beginLine, finishLine, noteLine, operationId } from "./journal-format.js";
import { LockFence } from "./lock-fence.js";
import type { RecordLines } from "./record-lines.js";
import { OpenOperations } from "./open-operations.js";
import { StateProjection } from "./state-projection.js";
import type { StackSecrets } from "./stack-secrets.js";
import type { JournalStorage } from "./store.js";
import type { OperationKind, PendingOperation, StackState, StateMutation } from "./types.js";

export type { JournalOptions, SyncInfo } from "./group-commit.js";

/** What {@link Journal.begin} records about a provider call about to start (no inputs: records stay small). */
export interface BeginArgs {
  kind: OperationKind;
  urn: Urn;
  type: string;
  /** The cloud id acted on, if the object exists already (not for creates). */
  id?: string;
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

/**
 * The write-ahead journal of one run, the same for every backend (its {@link JournalStorage} differs).
 * The engine calls {@link Journal.begin} before each provider call and waits for it (the record is
 * then durable), then {@link Journal.end} or {@link Journal.abort} with the resulting state changes
 * (buffered: a lost end record is found as a pending operation next run).
 *
 * It is three rooms: this class makes the records and keeps the state they project ({@link StateProjection});
 * a {@link GroupCommit} writes them, many to a write, and keeps the disk-full reserve policy; a
 * {@link Compaction} turns them into the next snapshot. The lock re-checks are a {@link LockFence}.
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
  private readonly projection: StateProjection;
  private readonly open: OpenOperations;
  private readonly secrets: StackSecrets;
  private readonly fence: LockFence;
  private readonly commit: GroupCommit;
  private readonly compaction: Compaction;
  private nextOp: number;
  private base: number;
  private isClosed = false;
  private closing: Promise<void> | undefined;

  /** @internal Use `backend.openJournal`. */
  constructor(init: JournalInit) {
    this.storage = init.storage;
    this.projection = new StateProjection(init.state);
    this.open = new OpenOperations(init.nextOp, init.pending);
    this.nextOp = init.nextOp;
    this.base = init.baseSerial;
    this.secrets = init.secrets;
    this.fence = new LockFence(init.guard, init.verify);
    this.commit = new GroupCommit({
      storage: init.storage,
      beforeWrite: async () => {
        await this.fence.beforeWrite(); // a run that lost its lock must not write
        await this.secrets.persist(); // the salt must be stored before any ciphertext it decrypts
      },
      dropped: (ops) => {
        for (const op of ops) this.open.delete(op);
      },
      options: init.options,
    });
    const parts = { storage: init.storage, commit: this.commit, projection: this.projection, open: this.open, fence: this.fence, secrets: init.secrets };
    this.compaction = new Compaction({ ...parts, lines: init.lines });
  }

  /** The state with every recorded mutation applied, in call order. Read it; do not modify it. */
  get state(): StackState {
    return this.projection.state;
  }

  /** Operations begun and not yet ended or aborted, including those a crashed run left open. */
  get pending(): PendingOperation[] {
    return this.open.values();
  }

  /** Bytes written so far: journal records and snapshots written by {@link Journal.compact}. */
  get bytesWritten(): number {
    return this.commit.bytesWritten;
  }

  /** True once {@link Journal.close} was called. */
  get closed(): boolean {
    return this.isClosed;
  }

  /** Number of write rounds so far (each one may carry many records). */
  get syncs(): number {
    return this.commit.syncs;
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
      if (this.commit.diskFull) throw this.commit.diskFull;
    } catch (e) {
      return Promise.reject(e as Error);
    }
    const p: PendingOperation = { op: this.nextOp++, kind: args.kind, urn: args.urn, type: args.type, since: isoTime(Date.now()) };
    if (args.id !== undefined) p.id = args.id;
    this.open.set(p);
    this.commit.push({ line: beginLine(p), begin: p.op });
    return this.commit.durable(p.op);
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
    this.commit.push({ line: noteLine(op, d) });
    return this.commit.durable();
  }

  /**
   * Resolves when a call whose begin record is durable may start now: the journal has not failed, the disk
   * is not full, and the run still holds its lock (see {@link LockFence.beforeCall}: verified again unless
   * that was done in the last 100 ms). Answers at once (returns nothing, or throws) unless a verify is due.
   *
   * @example const op = await journal.begin(args); await journal.confirm(); await provider.create(…);
   */
  confirm(): Promise<void> | void {
    this.checkWritable();
    if (this.commit.diskFull) throw this.commit.diskFull;
    return this.fence.beforeCall();
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
    if (mutations.length && this.commit.failure && this.storage.keep?.(finishLine("mutate", undefined, mutations, this.secrets.crypter))) {
      this.projection.apply(mutations);
      return;
    }
    this.checkWritable();
    if (mutations.length === 0) return;
    // Encode first: if a secret cannot be encrypted, nothing is applied.
    const line = finishLine("mutate", undefined, mutations, this.secrets.crypter);
    this.projection.apply(mutations);
    this.commit.pushBuffered(line);
  }

  /**
   * Resolves once everything recorded so far is durable.
   * @example journal.end(op, m); await journal.flush();
   */
  flush(): Promise<void> {
    return this.commit.flush();
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
    const snap = await this.compaction.run(state);
    this.base = snap.serial;
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
    this.commit.stopTimer();
    this.closing = (async () => {
      try {
        if (this.commit.busy()) await this.commit.durable();
        if (this.commit.failure) throw this.commit.failure; // what was recorded did not all become durable
        if (this.commit.diskFull) throw this.commit.diskFull;
      } finally {
        await this.commit.whenIdle();
        await this.storage.ready.catch(() => 0);
        await this.storage.close().catch(() => {});
      }
    })();
    return this.closing;
  }

  /** @internal The error that stopped this journal, if any. */
  get failure(): Error | undefined {
    return this.commit.failure;
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
    if (this.commit.failure && target && this.storage.keep?.(finishLine(t, op, mutations, this.secrets.crypter, target))) {
      this.open.delete(op);
      this.projection.apply(mutations);
      return;
    }
    this.checkWritable();
    if (!target) throw new Error(`journal: operation ${op} is not in progress (never begun, or already ended)`);
    const line = finishLine(t, op, mutations, this.secrets.crypter, target);
    this.open.delete(op);
    this.projection.apply(mutations);
    this.commit.pushBuffered(line);
  }

  private checkWritable(): void {
    if (this.isClosed) throw new Error(`journal: ${this.storage.name} is closed`);
    if (this.commit.failure) throw this.commit.failure;
    this.fence.assert();
  }
}
