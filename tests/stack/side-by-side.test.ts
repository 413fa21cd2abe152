import { describe, expect, it } from "vitest";
import { program } from "../../src/entry/program.js";
import { defineResource } from "../../src/program/define.js";
import type { Provider } from "../../src/provider/provider.js";
import type { EngineEvent } from "../../src/apply/events.js";
import { memoryProvider } from "../helpers.js";

/**
 * One process, two programs, run at the same time: each defines the type token `test:shared:Thing` with a
 * provider of its own, on a stack named `dev` in a memory backend of its own. Whatever one run does must
 * not reach the other (its provider, its state, its outputs, its events).
 */
function side(who: "alpha" | "beta") {
  const mem = memoryProvider({ outputs: () => ({ who }) });
  const Thing = defineResource<{ v: string }, { v: string; who: string }>("test:shared:Thing", {
    provider: mem.provider as unknown as Provider<{ v: string }, { v: string; who: string }>,
    schema: { inputs: { v: {} }, outputs: { v: {}, who: {} } },
  });
  const seen: string[] = []; // what this program's apply callback was given
  const program_ = { declares: true }; // a test turns it off to remove the object from the program
  const prog = program(who, async () => {
    await new Promise((r) => setImmediate(r)); // let the other program's evaluation run meanwhile
    if (!program_.declares) return {};
    const t = new Thing("thing", { v: `${who}-1` });
    await new Promise((r) => setImmediate(r));
    const label = t.who.apply((w) => (seen.push(w), `${who} made by ${w}`));
    return { label };
  });
  const stack = prog.stack({ stack: "dev", backend: "memory://" });
  const events: EngineEvent[] = [];
  stack.events.subscribe((e) => events.push(e));
  return { stack, calls: mem.calls, objects: mem.objects, seen, events, program: program_ };
}

/** The URNs an event names (the `summary` and a diagnostic without one name none). */
function urnsOf(events: readonly EngineEvent[]): string[] {
  return events.flatMap((e) => ("urn" in e && e.urn ? [e.urn] : []));
}

describe("two runs side by side in one process", () => {
  it("two programs defining one type token with different providers each up, preview and destroy with their own", async () => {
    // GIVEN two programs with the same token, the same stack name and a memory backend each
    const a = side("alpha");
    const b = side("beta");

    // WHEN both go up at once
    const [upA, upB] = await Promise.all([a.stack.up(), b.stack.up()]);

    // THEN each created its object with its own provider, and sees its own outputs and state
    expect(upA.outputs).toEqual({ label: "alpha made by alpha" });
    expect(upB.outputs).toEqual({ label: "beta made by beta" });
    expect(a.seen).toContain("alpha");
    expect(a.seen).not.toContain("beta");
    expect(b.seen).not.toContain("alpha");
    expect((await a.stack.resources()).map((r) => [r.urn, r.outputs])).toEqual([[expect.stringContaining("alpha"), { v: "alpha-1", who: "alpha" }]]);
    expect((await b.stack.resources()).map((r) => [r.urn, r.outputs])).toEqual([[expect.stringContaining("beta"), { v: "beta-1", who: "beta" }]]);

    // WHEN both preview at once: nothing to do for either
    const [planA, planB] = await Promise.all([a.stack.preview(), b.stack.preview()]);
    expect(planA.steps.every((s) => s.kind === "same")).toBe(true);
    expect(planB.steps.every((s) => s.kind === "same")).toBe(true);

    // WHEN both destroy at once (the program is evaluated, but deletes go through the type's definition)
    const [downA, downB] = await Promise.all([a.stack.destroy(), b.stack.destroy()]);
    expect(downA.summary?.ok).toBe(true);
    expect(downB.summary?.ok).toBe(true);

    // THEN each provider saw exactly its own program's calls, and each stack's events name only its own resources
    expect(a.calls.map((c) => [c.op, c.urn.includes("alpha")])).toEqual([["create", true], ["delete", true]]);
    expect(b.calls.map((c) => [c.op, c.urn.includes("beta")])).toEqual([["create", true], ["delete", true]]);
    expect(a.objects.size).toBe(0);
    expect(b.objects.size).toBe(0);
    expect(urnsOf(a.events).length).toBeGreaterThan(0);
    expect(urnsOf(a.events).every((u) => u.includes("alpha"))).toBe(true);
    expect(urnsOf(b.events).every((u) => u.includes("beta"))).toBe(true);
    expect(await a.stack.resources()).toEqual([]);
    expect(await b.stack.resources()).toEqual([]);
  });

  it("an object the program no longer declares is deleted with its own stack's definition, not the one defined last", async () => {
    // GIVEN alpha is up, then beta defines the same token with another provider and goes up
    const a = side("alpha");
    await a.stack.up();
    const b = side("beta");
    await b.stack.up();

    // WHEN alpha's program stops declaring its object, and alpha goes up
    a.program.declares = false;
    const r = await a.stack.up();

    // THEN alpha's own provider deleted it; beta's object is untouched
    expect(r.summary?.ok).toBe(true);
    expect(a.calls.map((c) => c.op)).toEqual(["create", "delete"]);
    expect(b.calls.map((c) => c.op)).toEqual(["create"]);
    expect(b.objects.size).toBe(1);
  });
});
