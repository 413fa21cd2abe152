import { afterEach, describe, expect, it, vi } from "vitest";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { program } from "../../src/entry/program.js";
import { defineResource } from "../../src/program/define.js";
import type { EngineEvent } from "../../src/apply/events.js";
import type { Provider } from "../../src/provider/provider.js";
import { InFlight } from "../../src/apply/in-flight.js";
import { Cancelled } from "../../src/apply/scheduler.js";
import { MAX_STAGED, stagedAhead } from "../../src/apply/executor.js";

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

/**
 * A provider whose creates wait until the test lets them finish, except the first `fast` ones, which answer
 * at once (so the engine learns the provider is fast); it counts the calls at once.
 */
function gatedProvider(fast = 0) {
  const gates: (() => void)[] = [];
  const created: string[] = [];
  const seen = { running: 0, peak: 0, calls: 0, onCall: (_urn: string) => {} };
  const provider: Provider<{ i: number }, { i: number }> = {
    async create({ urn, inputs }) {
      seen.peak = Math.max(seen.peak, ++seen.running);
      if (++seen.calls > fast) {
        seen.onCall(urn);
        await new Promise<void>((r) => gates.push(r));
      }
      seen.running--;
      created.push(urn.slice(urn.lastIndexOf("::") + 2));
      return { id: `id-${inputs.i}`, outputs: inputs };
    },
    async read({ outputs }) {
      return outputs;
    },
    async delete() {},
  };
  /** Lets the waiting creates finish, again and again, until `until` holds. */
  const drain = async (until: () => boolean) => {
    for (let turns = 0; !until(); turns++) {
      if (turns > 2000) throw new Error(`still waiting after ${turns} turns; created so far: ${created.join(", ")}`);
      for (const g of gates.splice(0)) g();
      await new Promise((r) => setTimeout(r, 1));
    }
  };
  return { provider, created, seen, drain };
}

let typeNo = 0;

async function stackWith(provider: Provider<{ i: number }, { i: number }>, n: number, parallel: number) {
  const Thing = defineResource<{ i: number }, { i: number }>(`test:slots${++typeNo}:Thing`, { provider, schema: { inputs: { i: {} }, outputs: { i: {} } } });
  const dir = await mkdtemp(join(tmpdir(), "cairn-slots-"));
  dirs.push(dir);
  const stack = program("slots", () => {
    for (let i = 0; i < n; i++) new Thing(`t${i}`, { i });
  }).stack({ stateDir: dir, parallel });
  const events: EngineEvent[] = [];
  stack.events.subscribe((e) => events.push(e));
  const journal = () => readFile(join(dir, "stacks", "dev", "journal.ndjson"), "utf8");
  return { stack, events, journal };
}

describe("provider calls run in `parallel` slots; their records are written ahead", () => {
  const begins = async (journal: () => Promise<string>) => (await journal()).split("\n").filter((l) => l.includes('"t":"begin"')).length;

  it("never more than `parallel` calls at once; while calls are slow, no record is written ahead of its call", async () => {
    const p = gatedProvider();
    const { stack, events, journal } = await stackWith(p.provider, 12, 2);
    const run = stack.up();
    await new Promise<void>((r) => (p.seen.onCall = () => r()));
    await new Promise((r) => setTimeout(r, 20));
    const beginsWhileTwoRun = await begins(journal);
    // Steps are reported started when their call starts: two of twelve so far.
    const startedWhileTwoRun = events.filter((e) => e.type === "step-started").length;
    await p.drain(() => p.created.length === 12);
    const r = await run;

    expect(r.summary).toMatchObject({ ok: true, succeeded: 12 });
    expect(p.seen.peak).toBe(2);
    // The provider has not shown it is fast: only the two running calls are journaled, so a crash now
    // could leave no record of a call that never started.
    expect(beginsWhileTwoRun).toBe(2);
    expect(startedWhileTwoRun).toBe(2);
    expect(events.filter((e) => e.type === "step-started")).toHaveLength(12);
  });

  it("once calls come back fast, records of the next calls are durable before their slot is free", async () => {
    const p = gatedProvider(100);
    const { stack, journal } = await stackWith(p.provider, 200, 2);
    const run = stack.up();
    await new Promise<void>((r) => (p.seen.onCall = () => r())); // call 101 waits; 99 ended, one more runs
    // Records written ahead of calls 103 and on, while call 101 still waits: their group commit lands on its
    // own time (a fixed pause here missed it on a loaded machine), so wait for it with the call held. How many
    // are staged follows the measured call rate (50 ms of calls), which a busy machine lowers: any record
    // beyond call 103 was written ahead of its slot.
    await vi.waitFor(async () => expect(await begins(journal)).toBeGreaterThan(103), { timeout: 10_000, interval: 5 });
    await p.drain(() => p.created.length === 200);
    expect((await run).summary).toMatchObject({ ok: true, succeeded: 200 });
    expect(p.seen.peak).toBe(2);
  });

  it("a cancel while calls wait for a slot starts none of them and closes their records: nothing is left pending", async () => {
    const p = gatedProvider(100);
    const { stack, events, journal } = await stackWith(p.provider, 200, 1);
    const ctl = new AbortController();
    const run = stack.up({ signal: ctl.signal });
    await new Promise<void>((r) => (p.seen.onCall = () => r()));
    // Calls wait for the slot with their records written (their group commit lands on its own time; how many,
    // the measured call rate decides): any beyond call 102 waits for the slot.
    await vi.waitFor(async () => expect(await begins(journal)).toBeGreaterThan(102), { timeout: 10_000, interval: 5 });
    ctl.abort();
    await p.drain(() => p.created.length === 101);
    await run.catch(() => undefined);

    expect(p.created).toHaveLength(101);
    expect(events.filter((e) => e.type === "step-started")).toHaveLength(101);
    expect(events.filter((e) => e.type === "step-skipped")).toHaveLength(99);
    // Every begin is matched by an end or an abort, so the next run finds no interrupted operation.
    const lines = (await journal()).trim().split("\n").map((l) => JSON.parse(l) as { t: string });
    expect(lines.filter((l) => l.t === "begin")).toHaveLength(0); // compacted: the snapshot holds the one object

    const next: EngineEvent[] = [];
    stack.events.subscribe((e) => next.push(e));
    p.seen.onCall = () => {};
    const second = stack.up();
    await p.drain(() => p.created.length === 200);
    const r2 = await second;
    expect(r2.summary).toMatchObject({ ok: true, succeeded: 99 });
    expect(next.filter((e) => e.type === "diagnostic").map((e) => (e as { summary: string }).summary).join("\n")).not.toMatch(/interrupted/i);
  });
});

describe("a run that loses its lock while calls wait for a slot", () => {
  it("starts none of them: the record written ahead is not a licence to call", async () => {
    const p = gatedProvider(100);
    const { stack, events } = await stackWith(p.provider, 200, 1);
    const run = stack.up();
    await new Promise<void>((r) => (p.seen.onCall = () => r()));
    // Another run took the stack over (as `unlock --force` and a new `up` would) while the first call ran.
    const lock = join(dirs.at(-1)!, "stacks", "dev", "lock.json");
    const held = JSON.parse(await readFile(lock, "utf8")) as Record<string, unknown>;
    await writeFile(lock, JSON.stringify({ ...held, pid: 999_999_999 }));
    await new Promise((r) => setTimeout(r, 150)); // past the 100 ms a lock check is trusted for
    await p.drain(() => p.created.length === 101);
    await run.catch(() => undefined);
    await new Promise((r) => setTimeout(r, 20));

    expect(p.created).toHaveLength(101);
    expect(p.seen.calls).toBe(101);
    const failed = events.flatMap((e) => (e.type === "step-failed" ? [e] : []));
    // Every action left fails naming the lock: t101, whose record was durable, is "not started"; those whose
    // records were still being written may fail first, with the journal's own lost-lock error.
    expect(failed.length).toBeGreaterThan(0);
    for (const f of failed) expect(f.error).toMatch(/lock/i);
    expect(failed.find((f) => f.urn.endsWith("::t101"))?.error).toMatch(/create of "t101" was not started: .*lock/i);
  });
});

describe("InFlight slots", () => {
  it("hands slots out first come, first served, and passes a freed slot straight on", async () => {
    const f = new InFlight([], 1);
    const order: number[] = [];
    const first = await f.enter();
    const waiting = [1, 2, 3].map((i) => f.enter().then((leave) => (order.push(i), leave)));
    first();
    first(); // leaving twice gives back one slot, not two
    const l1 = await waiting[0]!;
    expect(order).toEqual([1]);
    l1();
    (await waiting[1]!)();
    (await waiting[2]!)();
    expect(order).toEqual([1, 2, 3]);
  });

  it("ends each call at its own deadline with one timer: a later call due sooner is ended first", async () => {
    const f = new InFlight([], 10);
    const long = f.open(10_000);
    const short = f.open(30); // opened after, due before: the timer is set again for it
    const pending = new Promise<never>(() => {});
    const outcome = await short.race(pending).then(
      () => "settled",
      (e: Error) => e.message,
    );
    expect(outcome).toBe("timed out");
    expect(short.timedOut).toBe(true);
    expect(long.timedOut).toBe(false);
    long.dispose();
    short.dispose();
  });

  it("abandons exactly the calls still in flight, however many ended before, in whatever order", async () => {
    const abandon = new AbortController();
    const f = new InFlight([abandon.signal], 100);
    const bounds = Array.from({ length: 20 }, () => f.open(60_000));
    // End every third call, first and last included: each end moves the last call into its place.
    const ended = bounds.filter((_, i) => i % 3 === 0 || i === 19);
    for (const b of ended) b.dispose();
    ended[0]!.dispose(); // a second dispose changes nothing
    const pending = new Promise<never>(() => {});
    const races = bounds.map((b) => (ended.includes(b) ? undefined : b.race(pending).catch((e: Error) => e.message)));
    abandon.abort(new Error("abandoned"));
    for (const [i, r] of races.entries()) {
      if (r) expect(await r, `call ${i}`).toBe("abandoned");
    }
    expect(bounds.filter((b) => ended.includes(b)).map((b) => b.signal.aborted)).toEqual(ended.map(() => false));
  });

  it("measures how fast calls come back, over the last 64", async () => {
    const f = new InFlight([], 4);
    for (let i = 0; i < 63; i++) (await f.enter())();
    expect(f.callsPerSecond()).toBe(0); // not enough calls yet to say
    (await f.enter())();
    expect(f.callsPerSecond()).toBeGreaterThan(1000);
    const slow = new InFlight([], 4);
    for (let i = 0; i < 64; i++) {
      const leave = await slow.enter();
      await new Promise((r) => setTimeout(r, 2));
      leave();
    }
    expect(slow.callsPerSecond()).toBeLessThan(700);
  });

  it("writes records ahead for the calls expected in the next 50 ms, at most 256", () => {
    expect(stagedAhead(0)).toBe(0);
    expect(stagedAhead(10)).toBe(0); // a cloud answering ten calls a second: nothing ahead
    expect(stagedAhead(1_000)).toBe(50);
    expect(stagedAhead(100_000)).toBe(MAX_STAGED);
  });

  it("says why a call that got its slot must not start", () => {
    const cancel = new AbortController();
    const abandon = new AbortController();
    const f = new InFlight([abandon.signal], 1);
    expect(f.stopReason(cancel.signal)).toBeUndefined();
    abandon.abort(new Error("nothing else was left to run"));
    expect(f.stopReason(cancel.signal)?.message).toMatch(/not started: the run was stopped .*nothing else was left to run/);
    cancel.abort();
    expect(f.stopReason(cancel.signal)).toBeInstanceOf(Cancelled);
  });
});
