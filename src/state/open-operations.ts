import type { PendingOperation } from "./types.js";

/**
 * The operations a journal has begun and not yet ended, by op number. New ops are numbered in order, so
 * they sit in a list by number (its ended front dropped now and then); those an earlier run left open,
 * numbered before, in a map beside. A map with an entry added and removed per operation rehashed
 * every few hundred operations, each new table outliving the young generation.
 *
 * @example
 * const open = new OpenOperations(7, leftOpen);
 * open.set(p); open.get(p.op) === p; open.delete(p.op);
 */
export class OpenOperations {
  /** Those an earlier run left open (numbered before this run's first), by op number. */
  private readonly older = new Map<number, PendingOperation>();
  /** This run's, by op number from `base` (ended ones are holes, the ended front dropped now and then). */
  private newer: (PendingOperation | undefined)[] = [];
  /** The op number of `newer[0]`. */
  private base: number;
  /** Slots before this one are all ended. */
  private head = 0;

  /** @param firstNew the number the journal gives its next operation; `leftOpen` are those still open from before. */
  constructor(firstNew: number, leftOpen: readonly PendingOperation[]) {
    this.base = firstNew;
    for (const p of leftOpen) this.set(p);
  }

  get(op: number): PendingOperation | undefined {
    return op < this.base ? this.older.get(op) : this.newer[op - this.base];
  }

  set(p: PendingOperation): void {
    if (p.op < this.base) return void this.older.set(p.op, p);
    const i = p.op - this.base;
    while (this.newer.length < i) this.newer.push(undefined);
    this.newer[i] = p;
  }

  /** Ends `op`; false if it was not open. */
  delete(op: number): boolean {
    if (op < this.base) return this.older.delete(op);
    const i = op - this.base;
    if (this.newer[i] === undefined) return false;
    this.newer[i] = undefined;
    while (this.head < this.newer.length && this.newer[this.head] === undefined) this.head++;
    if (this.head >= 1024 && this.head * 2 >= this.newer.length) {
      this.newer = this.newer.slice(this.head);
      this.base += this.head;
      this.head = 0;
    }
    return true;
  }

  /** The open operations: those left open from before first, then the rest by number. */
  values(): PendingOperation[] {
    const out = [...this.older.values()];
    for (let i = this.head; i < this.newer.length; i++) if (this.newer[i] !== undefined) out.push(this.newer[i]!);
    return out;
  }
}
