/**
 * How old a lock check may be when a call whose record was written earlier starts: one `stat` per call would
 * cost a large run CPU for nothing. A forced unlock in the last 100 ms is not seen by the calls it allows.
 */
const REVERIFY_MS = 100;

/**
 * The lock re-checks of one journal: a run that lost its stack lock writes and calls nothing more.
 * `guard` answers at once from what the lock knows (no I/O); `verify` asks the lock's store (a `stat` for
 * files, a request for S3; a PostgreSQL session learns of its end by itself). They are asked at four places:
 *
 * - every record made ({@link LockFence.assert}, by the journal);
 * - every group-commit write, just before it ({@link LockFence.beforeWrite});
 * - every provider call's start, when the last verify is older than 100 ms ({@link LockFence.beforeCall}):
 *   records are written ahead of their calls, so the check their write made may be stale by then;
 * - a compaction, before it installs its snapshot ({@link LockFence.beforeInstall}).
 *
 * @example
 * const fence = new LockFence(() => lock.assertHeld(), () => lock.verify());
 * await fence.beforeWrite(); // throws if another run took the lock
 */
export class LockFence {
  /** When the lock was last verified (by a write, or {@link LockFence.beforeCall}). */
  private verifiedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly guard: (() => void) | undefined,
    private readonly verify: (() => Promise<void>) | undefined,
  ) {}

  /** Throws if the run is known to have lost its lock (no I/O). @example fence.assert(); */
  assert(): void {
    this.guard?.();
  }

  /** Before a write: the lock is asserted and verified with its store. @example await fence.beforeWrite(); */
  async beforeWrite(): Promise<void> {
    this.guard?.();
    await this.verify?.();
    this.verifiedAt = performance.now();
  }

  /**
   * Before a call whose begin record is durable starts: verifies the lock again unless that was done in the
   * last 100 ms. Answers at once (returns nothing) unless a verify is due: most calls of a fast provider
   * then start without an event-loop turn.
   * @example await fence.beforeCall();
   */
  beforeCall(): Promise<void> | void {
    if (!this.verify || performance.now() - this.verifiedAt < REVERIFY_MS) return;
    return this.verify().then(() => {
      this.verifiedAt = performance.now();
    });
  }

  /** Before a compaction installs its snapshot: a run whose lock was taken over must not. @example await fence.beforeInstall(); */
  async beforeInstall(): Promise<void> {
    this.guard?.();
    await this.verify?.();
  }
}
