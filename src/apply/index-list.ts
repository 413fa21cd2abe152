/**
 * A set of indices `0…size-1` that keeps the order they were added in, linked through two arrays: adding
 * and removing cost no allocation. A `Set` of the jobs running, with one added and one removed per job,
 * rehashed every few hundred jobs, and each new table outlived the young generation.
 *
 * @example
 * const running = new IndexList(4);
 * running.add(2); running.add(0); running.delete(2);
 * running.toArray() // [0]
 */
export class IndexList {
  private readonly next: Int32Array;
  private readonly prev: Int32Array;
  private readonly member: Uint8Array;
  private head = -1;
  private tail = -1;
  private count = 0;

  constructor(capacity: number) {
    this.next = new Int32Array(capacity);
    this.prev = new Int32Array(capacity);
    this.member = new Uint8Array(capacity);
  }

  /** How many indices are in. */
  get size(): number {
    return this.count;
  }

  has(i: number): boolean {
    return this.member[i] === 1;
  }

  /** Adds `i` at the end (nothing if it is in already). */
  add(i: number): void {
    if (this.member[i] === 1) return;
    this.member[i] = 1;
    this.prev[i] = this.tail;
    this.next[i] = -1;
    if (this.tail >= 0) this.next[this.tail] = i;
    else this.head = i;
    this.tail = i;
    this.count++;
  }

  /** Removes `i`; false if it was not in. */
  delete(i: number): boolean {
    if (this.member[i] !== 1) return false;
    this.member[i] = 0;
    const p = this.prev[i]!;
    const n = this.next[i]!;
    if (p >= 0) this.next[p] = n;
    else this.head = n;
    if (n >= 0) this.prev[n] = p;
    else this.tail = p;
    this.count--;
    return true;
  }

  /** The indices in, in the order they were added. */
  toArray(): number[] {
    const out: number[] = [];
    for (let i = this.head; i >= 0; i = this.next[i]!) out.push(i);
    return out;
  }
}
