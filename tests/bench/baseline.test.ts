import { describe, expect, it } from "vitest";
import { figuresOf, regressions } from "../../bench/lib/baseline.js";
import type { BenchReport } from "../../bench/lib/report.js";

const summary = (median: number) => ({ median, min: median - 1, runs: [median - 1, median, median + 1] });

const report = {
  engine: [{ n: 10_000, applyWallMs: summary(900), noopPlanMs: summary(300), peakRssMb: summary(170), target: { bytesWrittenOverFinal: 2 } }],
  acm: { certificates: 50, parallel: 10, up: { calls: 103, floor: 103, byCommand: { RequestCertificate: 50 }, changesPerRequest: [50] }, target: { upCallsAtMost: 136 } },
  change: { n: 100_000, command: "up", freshUp: { wallMs: summary(3900), peakRssMb: summary(316) }, changes: [{ pct: 1, changedResources: 1000, wallMs: summary(3000), peakRssMb: summary(320) }], target: { onePctWallMsAtMost: 3900, onePctPeakRssMbAtMost: 316 } },
} as unknown as BenchReport;

describe("bench baseline: a figure that grows more than 25% fails the run", () => {
  it("names cost figures by their rows, medians of timed runs, and leaves targets, floors and sizes out", () => {
    expect(figuresOf(report)).toEqual({
      "engine.n=10000.applyWallMs": 900,
      "engine.n=10000.noopPlanMs": 300,
      "engine.n=10000.peakRssMb": 170,
      "acm.up.calls": 103,
      "acm.up.byCommand.RequestCertificate": 50,
      "change.n=100000.freshUp.wallMs": 3900,
      "change.n=100000.freshUp.peakRssMb": 316,
      "change.n=100000.changes.pct=1.wallMs": 3000,
      "change.n=100000.changes.pct=1.peakRssMb": 320,
    });
  });

  it("does not compare change rows of a stack of another size (a 100k run against a 10k baseline)", () => {
    const base = { "change.n=10000.changes.pct=1.wallMs": 818 };
    expect(regressions(base, figuresOf(report))).toEqual([]);
    expect(regressions({ "change.n=100000.changes.pct=1.wallMs": 2000 }, figuresOf(report))).toEqual([{ figure: "change.n=100000.changes.pct=1.wallMs", baseline: 2000, now: 3000 }]);
  });

  it("reports figures that grew past 25% and past noise; figures only one side has are not compared", () => {
    const base = { "engine.n=10000.applyWallMs": 900, "engine.n=10000.noopPlanMs": 8, "acm.up.calls": 103, "gone.figure": 1 };
    const now = { "engine.n=10000.applyWallMs": 1200, "engine.n=10000.noopPlanMs": 16, "acm.up.calls": 140, "new.figure": 5 };
    expect(regressions(base, now)).toEqual([
      { figure: "engine.n=10000.applyWallMs", baseline: 900, now: 1200 },
      { figure: "acm.up.calls", baseline: 103, now: 140 },
    ]);
    expect(regressions(base, { "engine.n=10000.applyWallMs": 1125, "acm.up.calls": 128 })).toEqual([]);
  });
});
