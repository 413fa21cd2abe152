import { describe, expect, it, vi } from "vitest";
import { LockCompromisedError, StackLockedError, type LockHolder } from "../../src/state/lock-holder.js";
import { lockedHere, loseOnce, remoteStackLock, type HeldRemoteLock } from "../../src/state/remote-lock.js";
import { carriedRecords, recordLines } from "../../src/state/remote-journal.js";

const place = { ctx: { stack: "prod", programHint: "node infra.ts" }, names: { lock: "s3://acme/web/prod/lock.json" } };
const holder: LockHolder = { pid: 4242, host: "ci-3", since: "2025-01-01T10:00:00.000Z", command: "up" };

function held(): HeldRemoteLock {
  return { holder, lost: undefined };
}

describe("a network backend's held lock (remoteStackLock)", () => {
  it("checks with the store on verify, and refuses once the store says the lock was taken", async () => {
    const h = held();
    let taken = false;
    const lock = remoteStackLock(h, [], { confirm: async () => void (taken && loseOnce(place, h, "lock.json was taken over by another run")), release: async () => {} });
    await lock.verify!();
    expect(lock.compromised).toBeUndefined();
    taken = true;
    const err = await lock.verify!().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LockCompromisedError);
    expect((err as Error).message).toContain("lock.json was taken over by another run");
    expect(() => lock.assertHeld()).toThrow(err as Error);
    expect(lock.compromised).toBe(err);
  });

  it("runs the backend's own check before every assertHeld (what this process alone can tell)", () => {
    const h = held();
    const check = vi.fn(() => void loseOnce(place, h, "its lease could not be renewed in time"));
    const lock = remoteStackLock(h, [], { check, confirm: async () => {}, release: async () => {} });
    expect(() => lock.assertHeld()).toThrow(/its lease could not be renewed in time/);
    expect(check).toHaveBeenCalledOnce();
  });

  it("keeps the first reason it was lost for: a later one does not replace it", () => {
    const h = held();
    const first = loseOnce(place, h, "its lock row was removed (unlock --force)");
    expect(loseOnce(place, h, "another run took the lock")).toBe(first);
    expect(first.message).toContain("its lock row was removed (unlock --force)");
    expect(first.message).toContain("s3://acme/web/prod/lock.json");
  });

  it("releases once, and a released lock neither reports nor refuses anything", async () => {
    const h = held();
    const release = vi.fn(async () => {});
    const confirm = vi.fn(async () => {});
    const lock = remoteStackLock(h, ["took over a stale lock"], { confirm, release });
    await lock.release();
    await lock.release();
    expect(release).toHaveBeenCalledOnce();
    loseOnce(place, h, "lock.json was removed (unlock --force)");
    expect(lock.compromised).toBeUndefined();
    expect(() => lock.assertHeld()).not.toThrow();
    await lock.verify!();
    expect(confirm).not.toHaveBeenCalled();
    expect(lock.notes).toEqual(["took over a stale lock"]);
    expect(lock.holder).toBe(holder);
  });

  it("refuses a second lock of the same store naming the first holder and how to unlock", () => {
    const err = lockedHere(place, holder);
    expect(err).toBeInstanceOf(StackLockedError);
    expect(err.holder).toBe(holder);
    expect(err.message).toContain("pid 4242 on ci-3");
    expect(err.message).toContain("node infra.ts unlock --stack prod");
  });
});

describe("a network journal's records", () => {
  it("are the lines of the text without the empty one after the last newline", () => {
    expect(recordLines('{"t":"a"}\n{"t":"b"}\n')).toEqual(['{"t":"a"}', '{"t":"b"}']);
    expect(recordLines("")).toEqual([]);
  });

  it("carried by a compaction leave out the head line, which the new version's serial implies", () => {
    expect(carriedRecords('{"t":"head","serial":8}\n{"t":"begin","op":3}\n')).toEqual(['{"t":"begin","op":3}']);
    expect(carriedRecords('{"t":"head","serial":8}\n')).toEqual([]);
  });
});
