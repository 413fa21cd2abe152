import { describe, expect, it } from "vitest";
import { limitedMap } from "../../src/core/limited-map.js";

const tick = () => new Promise((r) => setTimeout(r, 1));

describe("limitedMap", () => {
  it("runs at most `limit` calls at once and hands the results back in the items' order", async () => {
    let running = 0;
    let peak = 0;
    const out = await limitedMap([5, 1, 4, 2, 3, 9, 7], 3, async (n, i) => {
      peak = Math.max(peak, ++running);
      for (let k = 0; k < n; k++) await tick(); // later items finish first
      running--;
      return `${i}:${n}`;
    });
    expect(out).toEqual(["0:5", "1:1", "2:4", "3:2", "4:3", "5:9", "6:7"]);
    expect(peak).toBe(3);
  });

  it("starts no call after one failed, and rejects with that failure", async () => {
    const started: number[] = [];
    const run = limitedMap([1, 2, 3, 4, 5, 6], 2, async (n) => {
      started.push(n);
      await tick();
      if (n === 2) throw new Error("read of 2 failed");
      return n;
    });
    await expect(run).rejects.toThrow("read of 2 failed");
    await new Promise((r) => setTimeout(r, 20));
    expect(started).toEqual([1, 2, 3]);
  });

  it("takes no items, and limits of zero or less than one as one at a time", async () => {
    expect(await limitedMap([], 4, async (x) => x)).toEqual([]);
    let running = 0;
    let peak = 0;
    await limitedMap([1, 2, 3], 0, async () => {
      peak = Math.max(peak, ++running);
      await tick();
      running--;
    });
    expect(peak).toBe(1);
  });
});
