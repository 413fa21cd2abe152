import { describe, expect, it } from "vitest";
import { WaitProgress, type LiveRegion } from "../../src/cli/wait-progress.js";
import type { EngineEvent } from "../../src/apply/events.js";
import type { Urn } from "../../src/program/urn.js";

const urn = "urn:cairn:dev::p::cairn:wait::issued" as Urn;
const polled = (elapsedMs: number, status: string): EngineEvent => ({ type: "wait-polled", urn, name: "issued", reads: 1, elapsedMs, observed: [{ path: "status", value: status }] });
const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, "");

describe("WaitProgress", () => {
  it("in a log, prints a line when the observed values change, else at most every 30 s", () => {
    let now = 1_000_000;
    const lines: string[] = [];
    const p = new WaitProgress({ out: (l) => lines.push(plain(l)) }, { now: () => now });
    expect(p.handle(polled(0, "PENDING_VALIDATION"))).toBe(true);
    now += 5_000;
    p.handle(polled(5_000, "PENDING_VALIDATION")); // unchanged: quiet
    now += 7_000;
    p.handle(polled(12_000, "PENDING_VALIDATION"));
    now += 30_000;
    p.handle(polled(42_000, "PENDING_VALIDATION")); // 30 s since the last line
    now += 1_000;
    p.handle(polled(43_000, "ISSUED")); // changed
    expect(lines).toEqual([
      '> issued  waiting 0s  (status = "PENDING_VALIDATION")',
      '> issued  waiting 42s  (status = "PENDING_VALIDATION")',
      '> issued  waiting 43s  (status = "ISSUED")',
    ]);
  });

  it("in a terminal, redraws running waits in place and prints other lines above them", () => {
    const now = 1_000_000;
    const lines: string[] = [];
    const frames: string[] = [];
    const live: LiveRegion = { update: (t) => frames.push(plain(t)), clear: () => frames.push("<clear>"), done: () => frames.push("<done>") };
    const p = new WaitProgress({ out: (l) => lines.push(plain(l)), live }, { now: () => now });
    p.handle(polled(12_000, "PENDING_VALIDATION"));
    expect(frames.at(-1)).toBe('> issued  waiting 12s  (status = "PENDING_VALIDATION")');
    p.print("✓ created something");
    expect(lines).toEqual(["✓ created something"]);
    expect(frames.slice(-2)).toEqual(["<clear>", '> issued  waiting 12s  (status = "PENDING_VALIDATION")']); // erased, printed above, redrawn
    expect(p.handle({ type: "wait-ended", urn, name: "issued", message: "", outcome: { kind: "satisfied", reads: 3, elapsedMs: 12_000, observed: [] } })).toBe(false);
    p.close();
    expect(frames.slice(-2)).toEqual(["<clear>", "<done>"]);
  });
});
