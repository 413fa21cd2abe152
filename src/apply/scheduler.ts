import { IndexList } from "./index-list.js";
import { reverseEdges } from "../core/reverse-edges.js";
/** Something to run once the jobs it depends on have succeeded. */
export interface Job {
  id: string;
}

/** Thrown by a job that stopped because the run was cancelled: it counts as skipped, not failed. */
export class Cancelled extends Error {
  constructor(message = "cancelled") {
    super(message);
    this.name = "Cancelled";
  }
}

/** Why a job did not run. */
export type SkipReason = { kind: "dependency-failed"; dependency: string } | { kind: "cancelled" };

/** What the scheduler reports, and asks, as it walks. */
export interface SchedulerHooks<J extends Job> {
  /** Runs a job; `index` is its place in the jobs given (callers may keep per-job data in arrays by it). */
  run(job: J, index: number): Promise<void>;
  started?(job: J): void;
  succeeded?(job: J, durationMs: number): void;
  failed?(job: J, error: unknown): void;
  skipped?(job: J, reason: SkipReason): void;
  /**
   * Called when jobs are running but none can progress without another (all are blocked, nothing is
   * ready): the hook names what is stuck and fails those jobs with {@link Scheduler.fail}.
   */
  stalled?(running: readonly J[]): void;
  /** True while a running job waits on a value another job must produce (not on a provider call). */
  blocked?(job: J): boolean;
}

/** Where a job is. */
export type Status = "waiting" | "running" | "done" | "failed" | "skipped";

// A job's status as the scheduler keeps it (one byte a job), and its name.
const WAITING = 0;
const RUNNING = 1;
const DONE = 2;
const FAILED = 3;
const SKIPPED = 4;
const STATUS_NAMES: readonly Status[] = ["waiting", "running", "done", "failed", "skipped"];

/**
 * Walks jobs in dependency order, `parallel` at a time: a job starts when its dependencies succeeded; a
 * failure skips only its dependents; once `stopStarting` aborts, nothing new starts (ready jobs are skipped
 * as cancelled). It knows nothing of what jobs do:
 * {@link Scheduler.run} is given the hooks that do them, so what they use may hold the scheduler itself
 * (to pause a job, or fail a stalled one).
 *
 * @example
 * await new Scheduler(jobs, deps, { parallel: 10, slot: () => true }).run({ run: (j) => work(j) });
 */
export class Scheduler<J extends Job> {
  // Per-job state lives in arrays by the job's index: maps keyed by id cost far more memory a job, and
  // every step of the walk hashed an id string. Ids are looked up only by the calls that name a
  // job from outside (pause, fail, statusOf), through a map made the first time one is asked.
  private idIndex: Map<string, number> | undefined;
  private readonly status: Uint8Array;
  private readonly remaining: Int32Array;
  /**
   * The jobs that depend on each job: those of job `i` are `dependents[dependentsAt[i]…dependentsAt[i+1]-1]`
   * (two flat arrays: a list per job that has dependents costs more memory).
   */
  private readonly dependentsAt: Int32Array;
  private readonly dependents: Int32Array;
  private readonly deps: readonly (readonly number[])[];
  /** 1 for a job that takes one of the `parallel` slots while it runs (waits mostly sleep, so they do not). */
  private readonly slotted: Uint8Array;
  /**
   * Ready jobs that need a slot, by rank (see {@link Scheduler.rank}), each a FIFO queue read from its
   * head; and ready jobs that do not need one (they start at once).
   */
  private readonly ready: ReadyQueue<number>[] = [new ReadyQueue(), new ReadyQueue(), new ReadyQueue()];
  private readonly readyFree: number[] = [];
  /** The indices of the running jobs, in the order they started. */
  private readonly running: IndexList;
  private busy = 0;
  /** Running jobs (by index) that gave their slot back while they wait on the cloud. */
  private readonly paused = new Set<number>();
  private finished!: () => void;
  /** Given by {@link Scheduler.run}; none before (a stall check asked for earlier is not made). */
  private hooks: SchedulerHooks<J> | undefined;
  private checkQueued = false;

  constructor(
    /** The jobs, as given. */
    readonly jobs: readonly J[],
    /** For each job (by index), the indices of the jobs it waits for. */
    deps: readonly (readonly number[])[],
    /**
     * `parallel`: how many jobs with a slot may run at once (a function is asked again each time jobs start);
     * `slot`: whether a job takes one; `stopStarting`: once aborted, no job starts (the run's `RunSignals.stopStarting`).
     */
    private readonly opts: { parallel: number | (() => number); slot: (job: J) => boolean; stopStarting?: AbortSignal | undefined },
  ) {
    this.deps = deps;
    this.status = new Uint8Array(jobs.length); // all WAITING
    this.remaining = new Int32Array(jobs.length);
    this.running = new IndexList(jobs.length);
    this.slotted = Uint8Array.from(jobs, (j) => (opts.slot(j) ? 1 : 0));
    for (let i = 0; i < jobs.length; i++) this.remaining[i] = deps[i]?.length ?? 0;
    const reversed = reverseEdges(deps, { kind: "job", name: (i) => jobs[i]!.id }); // refuses an edge to no job
    this.dependentsAt = reversed.at;
    this.dependents = reversed.users;
    // Once every job's dependents are known: a job's rank depends on them.
    for (let i = 0; i < jobs.length; i++) if (this.remaining[i] === 0) this.enqueue(i);
  }

  /** Runs every job to an end (done, failed or skipped), each with `hooks.run`; once. */
  run(hooks: SchedulerHooks<J>): Promise<void> {
    this.hooks = hooks;
    return new Promise<void>((resolve) => {
      this.finished = resolve;
      this.pump();
    });
  }

  /** Where a job is: waiting, running, done, failed or skipped. */
  statusOf(id: string): Status | undefined {
    const i = this.indexOf(id);
    return i === undefined ? undefined : STATUS_NAMES[this.status[i]!];
  }

  /** The ids of the jobs a job waits for. */
  depsOf(id: string): readonly string[] {
    const i = this.indexOf(id);
    return i === undefined ? [] : (this.deps[i] ?? []).map((d) => this.jobs[d]!.id);
  }

  /** Ends a running job as failed (its promise is abandoned): how a stall or a hang is broken. */
  fail(id: string, error: unknown): void {
    const i = this.indexOf(id);
    if (i !== undefined && this.running.has(i)) this.end(i, () => this.fault(i, error));
  }

  private indexOf(id: string): number | undefined {
    this.idIndex ??= new Map(this.jobs.map((j, i) => [j.id, i]));
    return this.idIndex.get(id);
  }

  /**
   * A running job waits on something outside the run (a cloud request it made): it gives its slot to the
   * next ready job until {@link Scheduler.resume}.
   */
  pause(id: string): void {
    const i = this.indexOf(id);
    if (i === undefined || !this.running.has(i) || !this.slotted[i] || this.paused.has(i)) return;
    this.paused.add(i);
    this.busy--;
    this.pump();
  }

  /** A paused job goes on: it counts against `parallel` again (it may briefly exceed it). */
  resume(id: string): void {
    const i = this.indexOf(id);
    if (i === undefined || !this.paused.delete(i)) return;
    if (this.running.has(i)) this.busy++;
  }

  /** Asks for a stall check soon (a running job's blocked state changed). */
  poke(): void {
    if (this.checkQueued || !this.hooks?.stalled) return;
    this.checkQueued = true;
    setImmediate(() => {
      this.checkQueued = false;
      this.checkStall();
    });
  }

  private enqueue(i: number): void {
    if (this.slotted[i]) this.ready[this.rank(i)]!.push(i);
    else this.readyFree.push(i);
  }

  /**
   * Which ready jobs take a free slot first, so nothing waits behind independent siblings (head-of-line
   * blocking): 2 when finishing it lets a job without a slot start (a wait, which then polls in the
   * background), 1 when other jobs depend on it, 0 when none does. Ties keep the order jobs became ready.
   */
  private rank(i: number): number {
    const from = this.dependentsAt[i]!;
    const to = this.dependentsAt[i + 1]!;
    if (from === to) return 0;
    for (let k = from; k < to; k++) {
      const d = this.dependents[k]!;
      if (!this.slotted[d] && this.remaining[d] === 1) return 2;
    }
    return 1;
  }

  /** The next ready job, highest rank first (entries of jobs that already started are dropped). */
  private nextReady(): number | undefined {
    for (let r = this.ready.length - 1; r >= 0; r--) {
      for (let i = this.ready[r]!.take(); i !== undefined; i = this.ready[r]!.take()) if (this.status[i] === WAITING) return i;
    }
    return undefined;
  }

  private hasReady(): boolean {
    return this.ready.some((q) => q.some((i) => this.status[i] === WAITING));
  }

  private pump(): void {
    if (this.opts.stopStarting?.aborted) {
      const pending = new Set([...this.ready.flatMap((q) => q.drain()), ...this.readyFree]);
      this.readyFree.length = 0;
      for (const i of pending) this.skipAt(i, { kind: "cancelled" });
    }
    while (this.readyFree.length) this.start(this.readyFree.pop()!);
    const { parallel } = this.opts;
    const slots = typeof parallel === "function" ? parallel() : parallel;
    while (this.busy < slots) {
      const next = this.nextReady();
      if (next === undefined) break;
      this.start(next);
    }
    if (this.running.size > 0) return this.poke();
    for (let i = 0; i < this.jobs.length; i++) if (this.status[i] === WAITING) this.skipAt(i, { kind: "cancelled" });
    this.finished();
  }

  private start(i: number): void {
    const job = this.jobs[i]!;
    this.status[i] = RUNNING;
    if (this.slotted[i]) this.busy++;
    const t0 = Date.now();
    this.running.add(i);
    this.hooks!.started?.(job);
    this.hooks!.run(job, i).then(
      () => this.end(i, () => this.succeed(i, Date.now() - t0)),
      (e: unknown) => this.end(i, () => this.fault(i, e)),
    );
  }

  /** Settles a running job once (a job failed from outside ignores its own late end). */
  private end(i: number, settle: () => void): void {
    if (!this.running.delete(i)) return;
    if (this.slotted[i] && !this.paused.delete(i)) this.busy--;
    settle();
    this.pump();
  }

  private succeed(i: number, ms: number): void {
    this.status[i] = DONE;
    this.hooks!.succeeded?.(this.jobs[i]!, ms);
    for (let k = this.dependentsAt[i]!, to = this.dependentsAt[i + 1]!; k < to; k++) {
      const d = this.dependents[k]!;
      const n = --this.remaining[d]!;
      if (n === 0 && this.status[d] === WAITING) this.enqueue(d);
      else if (n === 1 && !this.slotted[d]) this.promote(d);
    }
  }

  /** `wait` now lacks one dependency: if that one is ready, it goes to the front (it unblocks the wait). */
  private promote(wait: number): void {
    for (const dep of this.deps[wait] ?? []) {
      if (this.slotted[dep] && this.status[dep] === WAITING && this.remaining[dep] === 0) this.ready[2]!.push(dep);
    }
  }

  private fault(i: number, e: unknown): void {
    if (e instanceof Cancelled) return this.skipAt(i, { kind: "cancelled" });
    this.status[i] = FAILED;
    const job = this.jobs[i]!;
    this.hooks!.failed?.(job, e);
    this.skipDependents(i, { kind: "dependency-failed", dependency: job.id });
  }

  /** Marks a job skipped (with its dependents), whether it was waiting or just cancelled while running. */
  skip(job: J, reason: SkipReason): void {
    const i = this.indexOf(job.id);
    if (i !== undefined) this.skipAt(i, reason);
  }

  private skipAt(i: number, reason: SkipReason): void {
    const s = this.status[i];
    if (s !== WAITING && s !== RUNNING) return;
    this.status[i] = SKIPPED;
    this.hooks!.skipped?.(this.jobs[i]!, reason);
    this.skipDependents(i, reason);
  }

  private skipDependents(i: number, reason: SkipReason): void {
    for (let k = this.dependentsAt[i]!, to = this.dependentsAt[i + 1]!; k < to; k++) {
      const d = this.dependents[k]!;
      if (this.status[d] === WAITING) this.skipAt(d, reason);
    }
  }

  private checkStall(): void {
    const { blocked, stalled } = this.hooks!;
    if (!stalled || !blocked || this.running.size === 0 || (this.hasReady() && !this.opts.stopStarting?.aborted)) return;
    const running = this.running.toArray().map((i) => this.jobs[i]!);
    if (running.every((j) => blocked(j))) stalled(running);
  }
}

/**
 * A FIFO queue read from its head by index: `shift()` on 10,000 ready jobs would copy the array each time.
 *
 * @example const q = new ReadyQueue<string>(); q.push("a"); q.take(); // "a"
 */
class ReadyQueue<T> {
  private items: T[] = [];
  private head = 0;

  push(item: T): void {
    this.items.push(item);
  }

  /** The oldest item, or undefined when empty. */
  take(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head++];
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items.splice(0, this.head);
      this.head = 0;
    }
    return item;
  }

  some(test: (item: T) => boolean): boolean {
    for (let i = this.head; i < this.items.length; i++) if (test(this.items[i]!)) return true;
    return false;
  }

  /** Empties the queue, returning what it held. */
  drain(): T[] {
    const rest = this.items.slice(this.head);
    this.items = [];
    this.head = 0;
    return rest;
  }
}
