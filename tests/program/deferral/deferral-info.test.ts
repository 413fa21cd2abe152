import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../../src/core/unknown.js";
import type { Deferral } from "../../../src/program/deferral/deferral.js";
import { afterCallback, deferralsOnly, joinDeferral, withPartial } from "../../../src/program/deferral/deferral-info.js";

const d = (waitsFor: string): Deferral => ({ waitsFor, on: [], declares: [] });

describe("DeferralInfo: what a value's state carries about deferral", () => {
  it("joining values adds up their deferrals and drops what was known of each", () => {
    const a = d("cert.options");
    const b = d("zone.id");
    const once = joinDeferral(undefined, { deferrals: [a], partial: { x: 1 } }, false);
    expect(once).toEqual({ deferrals: [a] });
    expect(joinDeferral(once, { deferrals: [b] }, false)).toEqual({ deferrals: [a, b] });
  });

  it("joining keeps unrun from an unknown value only, and nothing when a value carries only what is known of it", () => {
    expect(joinDeferral(undefined, { unrun: true }, false)).toEqual({ unrun: true });
    expect(joinDeferral(undefined, { unrun: true }, true)).toBeUndefined();
    expect(joinDeferral(undefined, { partial: { port: 1 } }, false)).toBeUndefined();
    expect(joinDeferral({ unrun: true }, { deferrals: [d("a")] }, false)).toEqual({ deferrals: [d("a")], unrun: true });
  });

  it("a callback's unknown result gains the foreseen deferral, else is marked unrun; the value's known part is not its result's", () => {
    const a = d("a");
    const b = d("b");
    expect(afterCallback({ deferrals: [a], partial: { x: 1 } }, b)).toEqual({ deferrals: [a, b] });
    expect(afterCallback({ deferrals: [a], partial: { x: 1 } }, null)).toEqual({ deferrals: [a], unrun: true });
    expect(afterCallback(undefined, null)).toEqual({ unrun: true });
  });

  it("a field's known part replaces the value's, and a field still unknown has none", () => {
    const a = d("a");
    expect(withPartial({ partial: { port: 5432 }, deferrals: [a] }, 5432)).toEqual({ partial: 5432, deferrals: [a] });
    expect(withPartial({ partial: { port: UNKNOWN }, deferrals: [a] }, UNKNOWN)).toEqual({ deferrals: [a] });
    expect(withPartial({ partial: { port: 1 } }, undefined)).toBeUndefined();
  });

  it("a value embedded in planned inputs keeps its deferrals only", () => {
    const a = d("a");
    const only = { deferrals: [a] };
    expect(deferralsOnly(only)).toBe(only);
    expect(deferralsOnly({ deferrals: [a], unrun: true, partial: 1 })).toEqual({ deferrals: [a] });
    expect(deferralsOnly({ unrun: true })).toBeUndefined();
    expect(deferralsOnly(undefined)).toBeUndefined();
  });
});
