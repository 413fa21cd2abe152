import { describe, expect, it } from "vitest";
import { deferredRegion } from "../../../src/cli/progress/deferred-region.js";
import type { LiveRegion } from "../../../src/cli/progress/live.js";

function recording() {
  const calls: string[] = [];
  const region: LiveRegion = { update: (t) => void calls.push(`update ${t}`), clear: () => void calls.push("clear"), done: () => void calls.push("done") };
  return { calls, region };
}

describe("deferredRegion", () => {
  it("replays calls made while the region loads, in order, then forwards at once", async () => {
    const { calls, region } = recording();
    let ready!: (r: LiveRegion) => void;
    const live = deferredRegion(new Promise((r) => (ready = r)));
    live.update("a");
    live.clear();
    live.update("b");
    expect(calls).toEqual([]);
    ready(region);
    await Promise.resolve();
    expect(calls).toEqual(["update a", "clear", "update b"]);
    live.done();
    expect(calls).toEqual(["update a", "clear", "update b", "done"]);
  });

  it("a region that fails to load draws nothing and says why once; calls keep working", async () => {
    const errors: unknown[] = [];
    const live = deferredRegion(Promise.reject(new Error("no log-update")), (e) => errors.push(e));
    live.update("a");
    await new Promise((r) => setImmediate(r));
    live.update("b");
    live.done();
    expect(errors.map((e) => (e as Error).message)).toEqual(["no log-update"]);
  });
});
