import { describe, expect, it } from "vitest";
import { boundedRead } from "../../src/runtime/bounded-read.js";
import { TransientError } from "../../src/core/errors.js";
import { MAX_RETRIES } from "../../src/core/retry-policy.js";
import { FakeClock } from "../../src/testing/fake-clock.js";
import type { Duration } from "../../src/core/duration.js";
import type { OpContext } from "../../src/provider/provider.js";
import { InFlight, type Bounded } from "../../src/apply/in-flight.js";
import "../../src/providers/aws/error-kinds.js"; // ThrottlingException and AccessDeniedException are classified as the AWS layer says

/**
 * A read's bound (time limit `timeoutMs`, ended early when `stop` aborts) and its context, on a fake clock
 * that moves at once to each retry's end.
 */
function bounded(opts: { stop?: AbortSignal; timeoutMs?: number; clock?: FakeClock } = {}): { ctx: OpContext & { clock: FakeClock }; bound: Bounded } {
  const bound = new InFlight([opts.stop]).open(opts.timeoutMs ?? 60_000);
  const ctx = {
    get signal() {
      return bound.signal;
    },
    log: { info: () => {}, warn: () => {} },
    clock: opts.clock ?? new FakeClock({ auto: true }),
    workDir: ".",
    timeout: (opts.timeoutMs ?? 60_000) as Duration,
  };
  return { ctx, bound };
}

/** A read failing with `errors` in turn, then answering `value`; counts its calls. */
function failing<T>(errors: unknown[], value: T) {
  const read = async () => {
    read.calls++;
    const e = errors.shift();
    if (e !== undefined) throw e;
    return value;
  };
  read.calls = 0;
  return read;
}

describe("boundedRead: a provider read outside an apply", () => {
  it("retries transient failures with backoff on the context's clock, telling each retry, and answers", async () => {
    const { ctx, bound } = bounded();
    const retries: [number, string][] = [];
    const read = failing([new TransientError("Rate exceeded"), Object.assign(new Error("busy"), { name: "ThrottlingException" })], { v: 1 });
    const start = ctx.clock.now();
    await expect(boundedRead(ctx, bound, { retryDeadlineMs: 60_000, retrying: (attempt, error) => retries.push([attempt, error]) }, read)).resolves.toEqual({ v: 1 });
    expect(read.calls).toBe(3);
    expect(retries).toEqual([[1, "Rate exceeded"], [2, "busy"]]);
    expect(ctx.clock.now() - start).toBeLessThanOrEqual(3_000); // at most 1 s, then 2 s of backoff
  });

  it("fails at once on an error retrying cannot fix, with the provider's own error", async () => {
    const { ctx, bound } = bounded();
    const denied = Object.assign(new Error("User is not authorized to perform: acm:DescribeCertificate"), { name: "AccessDeniedException" });
    const read = failing([denied], { v: 1 });
    let retried = 0;
    await expect(boundedRead(ctx, bound, { retryDeadlineMs: 60_000, retrying: () => retried++ }, read)).rejects.toBe(denied);
    expect(read.calls).toBe(1);
    expect(retried).toBe(0);
  });

  it("gives up on a failure that stays transient at the retry deadline (or after the most retries), saying how long it tried", async () => {
    const { ctx, bound } = bounded();
    const read = failing(Array.from({ length: 50 }, () => new TransientError("Rate exceeded")), { v: 1 });
    const start = ctx.clock.now();
    const e = await boundedRead(ctx, bound, { retryDeadlineMs: 10_000 }, read).then(() => undefined, (x: unknown) => x as Error);
    expect(e?.message).toMatch(/^Rate exceeded \(a transient failure, tried \d+ time\(s\): retries stop 10s after the first failure/);
    expect(read.calls).toBeGreaterThan(1);
    expect(read.calls).toBeLessThanOrEqual(MAX_RETRIES + 1);
    expect(ctx.clock.now() - start).toBeLessThan(10_000);
  });

  it("abandons a read that never answers and ignores its signal, at its time limit", async () => {
    const { ctx, bound } = bounded({ timeoutMs: 50 });
    const t0 = Date.now();
    await expect(boundedRead(ctx, bound, { retryDeadlineMs: 60_000 }, () => new Promise(() => {}))).rejects.toThrow("no answer within 50ms, retries included: the read was abandoned");
    expect(Date.now() - t0).toBeLessThan(5_000);
  });

  it("stops when the run is stopped (a second Ctrl-C), naming why, also while it waits to retry", async () => {
    const stop = new AbortController();
    const { ctx, bound } = bounded({ stop: stop.signal, clock: new FakeClock() }); // time stands still: the retry waits
    const read = failing([new TransientError("Rate exceeded")], { v: 1 });
    const reading = boundedRead(ctx, bound, { retryDeadlineMs: 60_000 }, read);
    await new Promise((r) => setImmediate(r));
    stop.abort(new Error("interrupted twice"));
    await expect(reading).rejects.toThrow("the read was stopped (interrupted twice)");
    expect(read.calls).toBe(1);
  });
});
