import { describe, expect, it, vi } from "vitest";
import { stripVTControlCharacters } from "node:util";
import type { EngineEvent } from "../../src/apply/events.js";
import type { Urn } from "../../src/core/urn.js";
import { colors, noColors } from "../../src/core/colors.js";
import { PlainReporter } from "../../src/cli/progress/plain.js";
import { LiveReporter, type LiveRegion } from "../../src/cli/progress/live.js";
import { RunningSteps } from "../../src/cli/progress/running.js";

const cert = "urn:cairn:dev::app::aws:acm:Certificate::cert" as Urn;
const rec = "urn:cairn:dev::app::aws:route53:RecordSet::rec" as Urn;
const waitUrn = "urn:cairn:dev::app::cairn:wait::issued" as Urn;
const polled = (elapsedMs: number, status: string): Extract<EngineEvent, { type: "wait-polled" }> => ({ type: "wait-polled", urn: waitUrn, name: "issued", reads: 1, elapsedMs, observed: [{ path: "status", value: status }] });

/** A clock tests move by hand, and the lines a reporter printed. */
function harness() {
  const t = { now: 1_000_000 };
  const out: string[] = [];
  const sink = { out: (s: string) => out.push(`out: ${stripVTControlCharacters(s)}`), err: (s: string) => out.push(`err: ${stripVTControlCharacters(s)}`) };
  return { t, out, sink, now: () => t.now };
}

describe("progress in logs and CI (plain lines)", () => {
  it("keeps a long step alive with a line every 10 s, and prints its result once it ends", () => {
    const h = harness();
    const r = new PlainReporter(h.sink, noColors, "npx tsx infra.ts", { now: h.now, timers: false });
    r.event({ type: "step-started", urn: cert, kind: "create" });
    for (let s = 1; s <= 25; s++) {
      h.t.now += 1000;
      r.tick();
    }
    r.event({ type: "step-succeeded", urn: cert, kind: "create", durationMs: 25_400 });
    expect(h.out).toEqual([
      "out: … still creating cert (aws:acm:Certificate)… [10s elapsed]",
      "out: … still creating cert (aws:acm:Certificate)… [20s elapsed]",
      "out: ✓ created urn:cairn:dev::app::aws:acm:Certificate::cert (25s)",
    ]);
  });

  it("prints a wait's observed values when they change, and a keep-alive with them while they do not", () => {
    const h = harness();
    const r = new PlainReporter(h.sink, noColors, "npx tsx infra.ts", { now: h.now, timers: false });
    r.event({ type: "step-started", urn: waitUrn, kind: "wait" });
    r.event(polled(0, "PENDING_VALIDATION"));
    for (let s = 1; s <= 12; s++) {
      h.t.now += 1000;
      r.tick();
      r.event(polled(s * 1000, "PENDING_VALIDATION"));
    }
    h.t.now += 1000;
    r.event(polled(13_000, "ISSUED"));
    r.event({ type: "wait-ended", urn: waitUrn, name: "issued", message: "", outcome: { kind: "satisfied", reads: 14, elapsedMs: 13_000, observed: [{ path: "status", value: "ISSUED" }] } });
    r.event({ type: "step-succeeded", urn: waitUrn, kind: "wait", durationMs: 13_000 });
    expect(h.out).toEqual([
      'out: > issued  waiting 0s  (status = "PENDING_VALIDATION")',
      'out: … still waiting for issued… [10s elapsed]  (status = "PENDING_VALIDATION")',
      'out: > issued  waiting 13s  (status = "ISSUED")',
      'out: ✓ > issued  [waited 13s]  (status = "ISSUED")',
    ]);
  });

  it("a failure names the resource and operation, gives the provider's message and a hint, on stderr", () => {
    const h = harness();
    const r = new PlainReporter(h.sink, noColors, "npx tsx infra.ts", { now: h.now, timers: false });
    r.event({ type: "step-started", urn: rec, kind: "delete" });
    r.event({ type: "step-failed", urn: rec, kind: "delete", error: "AccessDenied: not allowed to ChangeResourceRecordSets\n(request id 1)" });
    r.event({ type: "step-skipped", urn: cert, kind: "delete", reason: `dependency failed: ${rec}` });
    r.event({ type: "summary", summary: { ok: false, succeeded: 2, failed: 1, skipped: 1, done: { create: 2 }, durationMs: 3_200 } });
    expect(h.out).toEqual([
      "err: ✗ delete urn:cairn:dev::app::aws:route53:RecordSet::rec failed:\n" +
        "    AccessDenied: not allowed to ChangeResourceRecordSets\n" +
        "    (request id 1)\n" +
        "    hint: the credentials in use may not do this: check the permissions (or the file mode). Then: it stays in state, so the next run tries again; if it was already removed by hand, `npx tsx infra.ts refresh` forgets it.",
      "out: - skipped delete urn:cairn:dev::app::aws:acm:Certificate::cert: dependency failed: urn:cairn:dev::app::aws:route53:RecordSet::rec",
      "out: \nFailed: 2 created, 1 failed, 1 skipped in 3s",
    ]);
  });

  it("summarises what a run did, counting a replace once and waits as satisfied", () => {
    const h = harness();
    const r = new PlainReporter(h.sink, noColors, "x", { now: h.now, timers: false });
    r.event({ type: "summary", summary: { ok: true, succeeded: 7, failed: 0, skipped: 0, done: { create: 3, replace: 1, "delete-replaced": 1, wait: 1, delete: 1 }, durationMs: 134_000 } });
    expect(h.out).toEqual(["out: \nDone: 3 created, 1 replaced, 1 deleted, 1 wait satisfied in 2m14s"]);
  });
});

describe("live progress in a terminal", () => {
  function live(columns = 100, timers = false) {
    const h = harness();
    const frames: string[] = [];
    const region: LiveRegion = { update: (t) => frames.push(stripVTControlCharacters(t)), clear: () => frames.push("<clear>"), done: () => frames.push("<done>") };
    const r = new LiveReporter(h.sink, colors(true), "npx tsx infra.ts", region, () => ({ columns, rows: 20 }), { now: h.now, timers });
    return { ...h, frames, r };
  }

  const record = (i: number) => `urn:cairn:dev::app::aws:route53:RecordSet::rec-${i}` as Urn;

  it("draws one line per running step with a spinner and elapsed time, and waits with what they observe", () => {
    const l = live();
    l.r.event({ type: "step-started", urn: cert, kind: "create" });
    l.t.now += 3_000;
    l.r.event({ type: "step-started", urn: waitUrn, kind: "wait" });
    l.r.event(polled(0, "PENDING_VALIDATION"));
    l.t.now += 42_000;
    l.r.draw();
    expect(l.frames.at(-1)).toBe(["⠋ creating cert (aws:acm:Certificate)  45s", '⠋ > issued  waiting 42s  status = "PENDING_VALIDATION"'].join("\n"));
  });

  it("collapses a finished step into a result line printed above the running ones", () => {
    const l = live();
    l.r.event({ type: "step-started", urn: cert, kind: "create" });
    l.r.event({ type: "step-started", urn: rec, kind: "create" });
    l.r.event({ type: "step-succeeded", urn: rec, kind: "create", durationMs: 1_200 });
    expect(l.out).toEqual(["out: ✓ created urn:cairn:dev::app::aws:route53:RecordSet::rec (1s)"]);
    expect(l.frames.slice(-2)).toEqual(["<clear>", "⠋ creating cert (aws:acm:Certificate)  0s"]); // erased, printed above, redrawn
    l.r.event({ type: "step-succeeded", urn: cert, kind: "create", durationMs: 1_500 });
    l.r.close();
    expect(l.frames.slice(-2)).toEqual(["<clear>", "<done>"]);
  });

  it("with thousands running, draws the first that fit the terminal and a count of the rest", () => {
    const l = live();
    for (let i = 0; i < 5000; i++) l.r.event({ type: "step-started", urn: record(i), kind: "create" });
    l.r.event({ type: "step-succeeded", urn: record(0), kind: "create", durationMs: 5 });
    const lines = l.frames.at(-1)!.split("\n");
    expect(lines).toHaveLength(18); // 20 rows: 17 steps, the count, and room for the cursor
    expect(lines[0]).toBe("⠋ creating rec-1 (aws:route53:RecordSet)  0s");
    expect(lines.at(-1)).toBe("  … and 4982 more running");
  });

  it("redraws the running lines at most once a spinner frame, however many steps start and finish in it", async () => {
    vi.useFakeTimers();
    try {
      const l = live(100, true);
      for (let i = 0; i < 1000; i++) l.r.event({ type: "step-started", urn: record(i), kind: "create" });
      await Promise.resolve(); // drawn once the events at hand are handled
      expect(l.frames).toHaveLength(1);
      for (let i = 0; i < 500; i++) l.r.event({ type: "step-succeeded", urn: record(i), kind: "create", durationMs: 5 });
      await Promise.resolve();
      // Every result line is printed at once; the running lines, erased by the first, wait for the next frame.
      expect(l.out).toHaveLength(500);
      expect(l.frames).toHaveLength(2);
      expect(l.frames.at(-1)).toBe("<clear>");
      l.t.now += 80;
      vi.advanceTimersByTime(80);
      expect(l.frames).toHaveLength(3);
      expect(l.frames.at(-1)!.split("\n")[0]).toBe("⠙ creating rec-500 (aws:route53:RecordSet)  0s");
      l.r.close();
      expect(l.frames.slice(-2)).toEqual(["<clear>", "<done>"]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("cuts a wait's observed values to the terminal width, so lines never wrap", () => {
    const l = live(40);
    l.r.event({ type: "wait-polled", urn: waitUrn, name: "issued", reads: 1, elapsedMs: 0, observed: [{ path: "status", value: "PENDING_VALIDATION_FOR_A_VERY_LONG_TIME" }] });
    const line = l.frames.at(-1)!;
    expect(line.length).toBeLessThan(40);
    expect(line).toMatch(/^⠋ > issued {2}waiting 0s {2}status = .*…$/);
  });
});

describe("the running steps progress displays track", () => {
  it("lists steps in start order, a step started again in its first place, and two kinds of one URN as two steps", () => {
    const running = new RunningSteps();
    running.started({ type: "step-started", urn: cert, kind: "replace" }, 1);
    running.started({ type: "step-started", urn: rec, kind: "create" }, 2);
    running.started({ type: "step-started", urn: cert, kind: "delete-replaced" }, 3);
    running.started({ type: "step-started", urn: cert, kind: "replace" }, 4);
    expect(running.list().map((s) => [s.name, s.kind, s.startedAt])).toEqual([["cert", "replace", 4], ["rec", "create", 2], ["cert", "delete-replaced", 3]]);
    running.finished(cert, "replace");
    running.finished(cert, "create"); // not running: nothing to do
    expect(running.first(1).map((s) => s.kind)).toEqual(["create"]);
    expect(running.size).toBe(2);
  });

  it("names a wait as its polls do", () => {
    const running = new RunningSteps();
    running.started({ type: "step-started", urn: waitUrn, kind: "wait" }, 1);
    expect(running.polled(polled(0, "PENDING"), 2)).toMatchObject({ step: { name: "issued", status: 'status = "PENDING"' }, changed: true });
    expect(running.polled(polled(1000, "PENDING"), 3).changed).toBe(false);
    expect(running.list()).toHaveLength(1);
  });
});
