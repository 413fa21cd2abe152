import type { GraphNode, ResourceNode } from "../program/node.js";
import type { PlanContext } from "./context.js";
import { unknownValue } from "../runtime/values.js";

/**
 * Follows "waits for" links from `start` until one repeats: the cycle, in order (first node repeated at
 * the end), or undefined if the chain ends.
 *
 * @example waitCycle(a, (n) => n === a ? b : a) // [a, b, a]
 */
export function waitCycle<T>(start: T, next: (n: T) => T | undefined): T[] | undefined {
  const path: T[] = [];
  for (let at: T | undefined = start; at !== undefined; at = next(at)) {
    const i = path.indexOf(at);
    if (i >= 0) return [...path.slice(i), at];
    path.push(at);
  }
  return undefined;
}

/**
 * `"a" (urn, at infra.ts:3:1) → "b" (urn, at infra.ts:4:1) → "a"`: a chain names where each of its links is
 * declared, as one diagnostic's single site cannot.
 *
 * @example describeChain([a, b, a])
 */
export function describeChain(nodes: readonly ResourceNode[]): string {
  return nodes.map((n, i) => (i === nodes.length - 1 ? `"${n.name}"` : chainLink(`"${n.name}"`, n.urn, n.site))).join(" → ");
}

/**
 * One link of a chain of nodes: its name, and its URN and site when given.
 *
 * @example chainLink('"a"', undefined, site) // '"a" (at infra.ts:3:1)'
 */
export function chainLink(name: string, urn: string | undefined, site: { toString(): string } | undefined): string {
  const where = [urn, site?.toString() ? `at ${site}` : undefined].filter(Boolean).join(", ");
  return where ? `${name} (${where})` : name;
}

/**
 * A promise that rejects with `message()` once `signal` aborts (never, without one), and `release` to stop
 * listening. Call `release` when the watched work ends: the signal outlives planning (the same one watches
 * the apply), and its listener would keep `message`, and whatever that closes over, alive until it fires.
 *
 * @example
 * const { stuck, release } = whenStuck(signal, () => "stuck");
 * try { await Promise.race([work, stuck]); } finally { release(); }
 */
export function whenStuck(signal: AbortSignal | undefined, message: () => string): { stuck: Promise<never>; release: () => void } {
  let release = () => {};
  const stuck = new Promise<never>((_, reject) => {
    if (!signal) return;
    const fire = () => reject(new Error(message()));
    if (signal.aborted) return fire();
    signal.addEventListener("abort", fire, { once: true });
    release = () => signal.removeEventListener("abort", fire);
  });
  return { stuck, release };
}

/**
 * Plans one node: nothing when it was planned at once (most are), else a promise that settles, never
 * rejecting, when its planning ends.
 */
export type PlanOne = (n: GraphNode) => Promise<void> | void;

/**
 * Watches the nodes of a planning pass. When every node still being planned waits for another node's
 * value, nothing can ever move: they form a cycle the graph could not see up front (a value read through
 * `apply` from a resource declared later). The cycle is reported once, its members get unknown values,
 * and planning goes on to find any other problem. Only nodes whose planning goes on past the call that
 * starts it are watched: one planned at once costs the watch nothing.
 */
export class StallWatch {
  private readonly pending = new Set<GraphNode>();
  private ctx: PlanContext | undefined;
  private queued = false;
  private finished: () => void = () => {};

  /** Asks for a check once the current turn's work has run. */
  poke(): void {
    if (this.queued) return;
    this.queued = true;
    setImmediate(() => {
      this.queued = false;
      this.check();
    });
  }

  /**
   * Plans every node and waits for all of them (and for those {@link add} brings); rejects naming what never
   * finished if `stuck` aborts first.
   */
  async run(ctx: PlanContext, nodes: readonly GraphNode[], plan: PlanOne, stuck: AbortSignal | undefined): Promise<void> {
    this.ctx = ctx;
    const all = new Promise<void>((resolve) => (this.finished = resolve));
    // Nothing settles while this loop runs (a promise's callbacks wait for it to end), so none is done yet.
    for (let i = 0; i < nodes.length; i++) this.follow(nodes[i]!, plan(nodes[i]!));
    if (this.pending.size === 0) this.finished();
    const names = () => [...this.pending].map((n) => `"${n.name}" (${n.urn})`).join(", ");
    const watch = whenStuck(stuck, () => `Planning is stuck: nothing is left to run, yet these never finished: ${names()}. Each waits for a promise (an input, or a provider call such as check, diff or a lookup) that never settles.`);
    try {
      await Promise.race([all, watch.stuck]);
    } finally {
      // The stuck signal lives on through the apply: let go of the planning context (large for a large
      // program) as soon as planning ends, whether it finished or got stuck.
      watch.release();
      this.ctx = undefined;
      this.finished = () => {};
    }
  }

  /**
   * Plans a node added on the way (declared by a callback), once the current callback has returned: it
   * counts as pending, so the {@link run} in progress (or the next, given no nodes) waits for it.
   */
  add(n: GraphNode, plan: PlanOne): void {
    this.pending.add(n);
    queueMicrotask(() => {
      const running = plan(n);
      if (running) void running.then(() => this.done(n));
      else this.done(n);
    });
  }

  /** Watches a node whose planning goes on (`running`), until it ends. */
  private follow(n: GraphNode, running: Promise<void> | void): void {
    if (!running) return;
    this.pending.add(n);
    void running.then(() => this.done(n));
  }

  /** A node's planning ended (however it ended). */
  private done(n: GraphNode): void {
    if (this.pending.delete(n) && this.pending.size === 0) this.finished();
  }

  private blockedOn(n: GraphNode): GraphNode | undefined {
    const awaited = this.ctx?.resolver.awaitedBy(n);
    if (awaited) for (const m of awaited) if (this.pending.has(m as GraphNode)) return m as GraphNode;
    return undefined;
  }

  private check(): void {
    const ctx = this.ctx;
    if (!ctx || this.pending.size === 0) return;
    for (const n of this.pending) if (!this.blockedOn(n)) return;
    const cycle = waitCycle(this.pending.values().next().value as GraphNode, (n) => this.blockedOn(n));
    if (!cycle) return;
    ctx.diagnostics.push({
      severity: "error",
      urn: cycle[0]!.urn,
      summary:
        `Dependency cycle through apply(): ${describeChain(cycle)}. Each needs a value of the next before it can be planned; ` +
        "the graph could not see it up front because the value is read inside an apply() callback. Break the cycle: pass one of the values another way, or remove the reference.",
    });
    for (const n of cycle) ctx.publish(n, unknownValue());
  }
}
