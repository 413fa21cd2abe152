import { afterEach, describe, expect, it } from "vitest";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { program } from "../../src/program/program.js";
import { defineResource } from "../../src/program/define.js";
import type { EngineEvent } from "../../src/apply/events.js";
import type { Provider } from "../../src/provider/provider.js";
import { InFlight } from "../../src/apply/invoke.js";
import { Cancelled } from "../../src/apply/scheduler.js";

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

/** A provider whose creates wait until the test lets them finish; it counts the calls at once. */
function gatedProvider() {
  const gates: (() => void)[] = [];
  const created: string[] = [];
  const seen = { running: 0, peak: 0, onCall: (_urn: string) => {} };
  const provider: Provider<{ i: number }, { i: number }> = {
    async create({ urn, inputs }) {
      seen.peak = Math.max(seen.peak, ++seen.running);
      seen.onCall(urn);
      await new Promise<void>((r) => gates.push(r));
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
  it("never more than `parallel` calls at once, while later calls' pending records are already durable", async () => {
    const p = gatedProvider();
    const { stack, events, journal } = await stackWith(p.provider, 12, 2);
    const run = stack.up();
    await new Promise<void>((r) => (p.seen.onCall = () => r()));
    const beginsAtFirstCall = (await journal()).split("\n").filter((l) => l.includes('"t":"begin"')).length;
    await new Promise((r) => setTimeout(r, 20));
    // Steps are reported started when their call starts, not when they journal it: two of twelve so far.
    const startedWhileTwoRun = events.filter((e) => e.type === "step-started").length;
    await p.drain(() => p.created.length === 12);
    const r = await run;

    expect(r.summary).toMatchObject({ ok: true, succeeded: 12 });
    expect(p.seen.peak).toBe(2);
    // All twelve records went out in the first durable write, before the first call: not two per round.
    expect(beginsAtFirstCall).toBe(12);
    expect(startedWhileTwoRun).toBe(2);
    expect(events.filter((e) => e.type === "step-started")).toHaveLength(12);
  });

  it("a cancel while calls wait for a slot starts none of them and closes their records: nothing is left pending", async () => {
    const p = gatedProvider();
    const { stack, events, journal } = await stackWith(p.provider, 6, 1);
    const ctl = new AbortController();
    const run = stack.up({ signal: ctl.signal });
    await new Promise<void>((r) => (p.seen.onCall = () => r()));
    ctl.abort();
    await p.drain(() => p.created.length === 1);
    await run.catch(() => undefined);

    expect(p.created).toEqual(["t0"]);
    expect(events.filter((e) => e.type === "step-started").map((e) => (e as { urn: string }).urn.split("::").pop())).toEqual(["t0"]);
    expect(events.filter((e) => e.type === "step-skipped")).toHaveLength(5);
    // Every begin is matched by an end or an abort, so the next run finds no interrupted operation.
    const lines = (await journal()).trim().split("\n").map((l) => JSON.parse(l) as { t: string });
    expect(lines.filter((l) => l.t === "begin")).toHaveLength(0); // compacted: the snapshot holds the one object

    const next: EngineEvent[] = [];
    stack.events.subscribe((e) => next.push(e));
    p.seen.onCall = () => {};
    const second = stack.up();
    await p.drain(() => p.created.length === 6);
    const r2 = await second;
    expect(r2.summary).toMatchObject({ ok: true, succeeded: 5 });
    expect(next.filter((e) => e.type === "diagnostic").map((e) => (e as { message: string }).message).join("\n")).not.toMatch(/interrupted/i);
  });
});

describe("a run that loses its lock while calls wait for a slot", () => {
  it("starts none of them: the record written ahead is not a licence to call", async () => {
    const p = gatedProvider();
    const { stack, events } = await stackWith(p.provider, 4, 1);
    const run = stack.up();
    await new Promise<void>((r) => (p.seen.onCall = () => r()));
    // Another run took the stack over (as `unlock --force` and a new `up` would) while the first call ran.
    const lock = join(dirs.at(-1)!, "stacks", "dev", "lock.json");
    const held = JSON.parse(await readFile(lock, "utf8")) as Record<string, unknown>;
    await writeFile(lock, JSON.stringify({ ...held, pid: 999_999_999 }));
    await new Promise((r) => setTimeout(r, 150)); // past the 100 ms a lock check is trusted for
    await p.drain(() => p.created.length === 1);
    await run.catch(() => undefined);
    await new Promise((r) => setTimeout(r, 20));

    expect(p.created).toEqual(["t0"]);
    const failed = events.flatMap((e) => (e.type === "step-failed" ? [e.error] : []));
    expect(failed[0]).toMatch(/create of "t1" was not started: .*lock/i);
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
