import { describe, expect, it } from "vitest";
import { WaitPoller, type WaitRun } from "../../src/wait/waiter.js";
import type { OpContext, Provider } from "../../src/provider/provider.js";
import type { Urn } from "../../src/core/urn.js";
import { FakeClock } from "../../src/testing/fake-clock.js";
import { minutes, seconds } from "../../src/core/duration.js";

type Props = Record<string, unknown>;

function setup(readyAt: number, opts: { readMany?: boolean; randomJitter?: boolean } = {}) {
  const clock = new FakeClock({ auto: true });
  const t0 = clock.now();
  const readTimes: number[] = [];
  let calls = 0;
  const status = () => (clock.now() - t0 >= readyAt ? "READY" : "PENDING");
  const provider: Provider<Props, Props> = {
    async create() {
      throw new Error("unused");
    },
    async read() {
      calls++;
      readTimes.push(clock.now() - t0);
      return { status: status() };
    },
    async delete() {},
  };
  if (opts.readMany) {
    provider.readMany = async ({ targets }) => {
      calls++;
      readTimes.push(clock.now() - t0);
      return new Map(targets.map((t) => [t.id, { status: status() }]));
    };
  }
  const ctx = (): OpContext => ({ signal: new AbortController().signal, log: { info() {}, warn() {} }, clock, workDir: "." });
  const poller = new WaitPoller({ clock, opContext: ctx, random: opts.randomJitter ? Math.random : () => 0.5 }); // mid jitter unless asked: deterministic
  const run = (i: number, over: Partial<WaitRun> = {}): WaitRun => ({
    urn: `urn:w${i}` as Urn,
    subject: "t",
    target: { urn: `urn:t${i}` as Urn, id: `t${i}`, inputs: {}, outputs: {} },
    provider,
    until: { op: "eq", path: ["status"], value: "READY" },
    timeoutMs: minutes(75),
    intervalMs: seconds(5),
    secret: new Set(),
    ...over,
  });
  return { clock, poller, run, readTimes, calls: () => calls, provider };
}

describe("WaitPoller", () => {
  it("reads at once, then backs off: a target ready after 2 s is noticed in about 2 s", async () => {
    const { poller, run, readTimes } = setup(2000);
    const { outcome } = await poller.wait(run(1));
    expect(outcome.kind).toBe("satisfied");
    expect(readTimes[0]).toBe(50); // the gather window for waits starting together
    expect((outcome as { elapsedMs: number }).elapsedMs).toBeGreaterThanOrEqual(2000);
    expect((outcome as { elapsedMs: number }).elapsedMs).toBeLessThan(3200);
  });

  it("a slow target costs few calls: pauses grow to the interval and stay there", async () => {
    const { poller, run, readTimes } = setup(minutes(10));
    const { outcome } = await poller.wait(run(1, { intervalMs: seconds(30) }));
    expect(outcome.kind).toBe("satisfied");
    // 10 minutes: ~11 reads ramping up over the first 90 s, then one per ~27 s (30 s less 10% jitter):
    // about 30 reads, where polling every 500 ms would make 1,200.
    expect(readTimes.length).toBeGreaterThan(25);
    expect(readTimes.length).toBeLessThan(36);
    const gaps = readTimes.slice(1).map((t, i) => t - readTimes[i]!);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(seconds(30));
    expect(gaps[0]).toBeLessThanOrEqual(500);
    // Detection latency after the flip is at most one interval.
    expect(readTimes.at(-1)! - minutes(10)).toBeLessThanOrEqual(seconds(30));
  });

  it("batches waits on one provider into one readMany per round", async () => {
    const { poller, run, calls } = setup(seconds(20), { readMany: true, randomJitter: true });
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => poller.wait(run(i))));
    expect(results.every((r) => r.outcome.kind === "satisfied")).toBe(true);
    const rounds = poller.stats.rounds;
    expect(calls()).toBe(rounds); // one call per round
    // Jitter spreads the waits' schedules; rides-along keep them in shared rounds.
    const reads = results.reduce((n, r) => n + (r.outcome as { reads: number }).reads, 0);
    expect(reads / rounds).toBeGreaterThan(50);
  });

  it("without readMany, falls back to one read per target", async () => {
    const { poller, run, calls } = setup(0);
    await Promise.all([poller.wait(run(1)), poller.wait(run(2)), poller.wait(run(3))]);
    expect(calls()).toBe(3);
  });

  it("ends a timed-out wait with a read at the deadline", async () => {
    const { poller, run, readTimes } = setup(Infinity);
    const { outcome } = await poller.wait(run(1, { timeoutMs: seconds(60) }));
    expect(outcome).toMatchObject({ kind: "timed-out", elapsedMs: 60_000, observed: [{ path: "status", value: "PENDING" }] });
    expect(readTimes.at(-1)).toBe(60_000);
  });

  it("waits starting within the gather window share their first read", async () => {
    const { poller, run, calls } = setup(0, { readMany: true });
    const first = poller.wait(run(1));
    await new Promise((r) => setImmediate(r));
    const second = poller.wait(run(2));
    await Promise.all([first, second]);
    expect(calls()).toBe(1);
  });
});

/** Starts `count` waits, one every `everyMs` of the fake clock, and returns their results. */
async function staggered(clock: FakeClock, poller: WaitPoller, run: (i: number) => WaitRun, count: number, everyMs: number, from = 0) {
  const started: Promise<Awaited<ReturnType<WaitPoller["wait"]>>>[] = [];
  for (let i = 0; i < count; i++) {
    started.push(poller.wait(run(from + i)));
    if (i < count - 1) await clock.sleep(everyMs);
  }
  return Promise.all(started);
}

describe("WaitPoller: one readMany per round", () => {
  it("waits released one by one over 300 ms share their first read (the gather window slides on)", async () => {
    const { clock, poller, run, calls, readTimes } = setup(0, { readMany: true });
    const results = await staggered(clock, poller, run, 30, 10);
    expect(results.every((r) => r.outcome.kind === "satisfied")).toBe(true);
    expect(calls()).toBe(1);
    expect(readTimes[0]).toBe(290 + 50); // the last joined at 290 ms; none joined in the 50 ms after
  });

  it("a first read is held back at most 500 ms however long waits keep joining", async () => {
    const { clock, poller, run, readTimes } = setup(0, { readMany: true });
    await staggered(clock, poller, run, 200, 10);
    expect(readTimes[0]).toBe(500);
  });

  it("waits that started at different times fall into one cadence: soon every round reads them all", async () => {
    const { clock, poller, run, provider } = setup(seconds(20), { readMany: true });
    const sizes: number[] = [];
    const readMany = provider.readMany!;
    provider.readMany = (args) => (sizes.push(args.targets.length), readMany(args));
    // Two cohorts 1.3 s apart: their own backoffs put them out of step at first.
    const early = Promise.all(Array.from({ length: 40 }, (_, i) => poller.wait(run(i))));
    await clock.sleep(1300);
    const late = Promise.all(Array.from({ length: 60 }, (_, i) => poller.wait(run(100 + i))));
    const results = [...(await early), ...(await late)];
    expect(results.every((r) => r.outcome.kind === "satisfied")).toBe(true);
    expect(poller.stats.calls).toBe(sizes.length); // one call per round
    const together = sizes.indexOf(100);
    expect(together).toBeGreaterThan(0);
    expect(sizes.slice(together)).toEqual(sizes.slice(together).map(() => 100)); // from then on, all in every round
    expect(together).toBeLessThanOrEqual(5);
  });
});

describe("FakeClock", () => {
  it("fires timers in order as time is advanced by hand", async () => {
    const clock = new FakeClock();
    const fired: string[] = [];
    void clock.sleep(3000 as never).then(() => fired.push("3s"));
    void clock.sleep(1000 as never).then(() => fired.push("1s"));
    await clock.advance(999);
    expect(fired).toEqual([]);
    await clock.advance(2001);
    expect(fired).toEqual(["1s", "3s"]);
    expect(clock.pending).toBe(0);
  });

  it("rejects a sleep when its signal aborts", async () => {
    const clock = new FakeClock();
    const c = new AbortController();
    const s = clock.sleep(1000 as never, c.signal);
    c.abort(new Error("stop"));
    await expect(s).rejects.toThrow("stop");
    expect(clock.pending).toBe(0);
  });
});
