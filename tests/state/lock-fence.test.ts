import { afterEach, describe, expect, it, vi } from "vitest";
import { LockFence } from "../../src/state/lock-fence.js";

/** A lock whose checks are counted, and which can be lost. */
function lock() {
  const l = {
    lost: false,
    guards: 0,
    verifies: 0,
    guard: () => {
      l.guards++;
      if (l.lost) throw new Error("the stack lock was taken over");
    },
    verify: async () => {
      l.verifies++;
      if (l.lost) throw new Error("lock.json names another run");
    },
  };
  return l;
}

let now = 1_000;
afterEach(() => vi.restoreAllMocks());
function fakeNow(): void {
  vi.spyOn(performance, "now").mockImplementation(() => now);
}

describe("the lock re-checks of a journal", () => {
  it("verifies the lock before a call only when the last verify is 100 ms old or more", async () => {
    fakeNow();
    const l = lock();
    const fence = new LockFence(l.guard, l.verify);
    await fence.beforeWrite();
    expect(l.verifies).toBe(1);
    now += 99;
    expect(fence.beforeCall()).toBeUndefined(); // answered at once: no verify due
    expect(l.verifies).toBe(1);
    now += 1;
    await fence.beforeCall();
    expect(l.verifies).toBe(2);
    expect(fence.beforeCall()).toBeUndefined(); // the call's own verify counts
  });

  it("refuses a write, and a snapshot, once the lock is lost, before asking the lock's store", async () => {
    const l = lock();
    const fence = new LockFence(l.guard, l.verify);
    l.lost = true;
    await expect(fence.beforeWrite()).rejects.toThrow("the stack lock was taken over");
    await expect(fence.beforeInstall()).rejects.toThrow("the stack lock was taken over");
    expect(l.verifies).toBe(0);
    expect(() => fence.assert()).toThrow("the stack lock was taken over");
  });

  it("does not count a snapshot's check as a call's: the next call still verifies", async () => {
    fakeNow();
    const l = lock();
    const fence = new LockFence(l.guard, l.verify);
    await fence.beforeInstall();
    expect(l.verifies).toBe(1);
    await fence.beforeCall();
    expect(l.verifies).toBe(2);
  });

  it("asks nothing when the backend has no lock to check", async () => {
    const fence = new LockFence(undefined, undefined);
    fence.assert();
    await fence.beforeWrite();
    expect(fence.beforeCall()).toBeUndefined();
  });
});
