import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import type { GraphNode } from "../../src/program/node.js";
import type { PlanContext } from "../../src/plan/context.js";
import { StallWatch, whenStuck } from "../../src/plan/stall.js";

const node = (name: string) => ({ name, urn: `urn:cairn:dev::app::t:Thing::${name}` }) as unknown as GraphNode;
const ctx = { resolver: { awaitedBy: () => undefined }, diagnostics: [], publish: () => {} } as unknown as PlanContext;

describe("the planning stall watch", () => {
  it("listens on the stuck signal only while planning: the listener (and the context it reaches) goes when planning ends", async () => {
    // GIVEN a run's stuck signal, which lives on through the apply
    const idle = new AbortController();
    const watch = new StallWatch();
    const a = node("a");
    // WHEN one node is being planned, then finishes
    let finish = () => {};
    const running = watch.run(ctx, [a], () => new Promise<void>((resolve) => (finish = resolve)), idle.signal);
    expect(getEventListeners(idle.signal, "abort")).toHaveLength(1);
    finish();
    await running;
    // THEN nothing listens any more
    expect(getEventListeners(idle.signal, "abort")).toHaveLength(0);
  });

  it("still names what never finished when the signal aborts, and lets go of the signal after", async () => {
    const idle = new AbortController();
    const running = new StallWatch().run(ctx, [node("a")], () => new Promise<void>(() => {}), idle.signal);
    idle.abort();
    await expect(running).rejects.toThrow(/Planning is stuck: .*"a" \(urn:cairn:dev::app::t:Thing::a\)/);
    expect(getEventListeners(idle.signal, "abort")).toHaveLength(0);
  });

  it("a node planned at once is never waited for: the pass ends without a turn of the event loop", async () => {
    const idle = new AbortController();
    const running = new StallWatch().run(ctx, [node("a"), node("b")], () => {}, idle.signal);
    const nextTurn = new Promise<string>((resolve) => setImmediate(() => resolve("the next turn came first")));
    expect(await Promise.race([running.then(() => "planned"), nextTurn])).toBe("planned");
  });

  it("whenStuck rejects at once on an aborted signal, and release removes its listener", async () => {
    const done = new AbortController();
    done.abort();
    await expect(whenStuck(done.signal, () => "stuck").stuck).rejects.toThrow("stuck");
    const live = new AbortController();
    const w = whenStuck(live.signal, () => "stuck");
    expect(getEventListeners(live.signal, "abort")).toHaveLength(1);
    w.release();
    expect(getEventListeners(live.signal, "abort")).toHaveLength(0);
  });
});
