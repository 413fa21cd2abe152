import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { StateBackend } from "../../../src/state/backend.js";
import { LockCompromisedError, StackLockedError } from "../../../src/state/lock-holder.js";
import { S3Backend } from "../../../src/state/s3/s3-backend.js";
import { fakeS3 } from "../fake-s3.js";
import { resource, urnOf } from "../helpers.js";

const URL = "s3://acme-state/cairn?region=eu-west-1";
const KEY = (name: string) => `acme-state/cairn/web/dev/${name}`;

let s3: ReturnType<typeof fakeS3>;
beforeEach(() => {
  s3 = fakeS3();
});
afterEach(() => s3.restore());

const backend = (url = URL) => new S3Backend({ url, stack: "dev", project: "web" });

/** Loads under the lock and opens a journal, as a run does. */
async function startRun(b: StateBackend) {
  const lock = await b.lock({ command: "up" });
  const journal = b.openJournal((await b.load()).state);
  return { lock, journal };
}

describe("the S3 backend", () => {
  it("writes state.json only conditionally: created with If-None-Match, replaced with If-Match on the ETag it loaded", async () => {
    const run = await startRun(backend());
    const op = await run.journal.begin({ kind: "create", urn: urnOf("a"), type: "local:File" });
    run.journal.end(op, [{ kind: "upsert", resource: resource("a") }]);
    await run.journal.compact();
    await run.journal.close();
    await run.lock.release();
    const second = await startRun(backend());
    await second.journal.compact();
    await second.journal.close();
    await second.lock.release();

    const stateWrites = s3.writes.filter((w) => w.key === "cairn/web/dev/state.json");
    expect(stateWrites).toEqual([
      { key: "cairn/web/dev/state.json", ifNoneMatch: "*" },
      { key: "cairn/web/dev/state.json", ifMatch: expect.stringMatching(/^".+"$/) },
    ]);
    for (const w of s3.writes.filter((x) => x.key.includes("/journal/") || x.key.endsWith("encryption.json"))) expect(w.ifNoneMatch).toBe("*");
    expect(JSON.parse(s3.text(KEY("history/000000000002.json"))!).serial).toBe(2);
    expect([...s3.objects.keys()].filter((k) => k.includes("/journal/"))).toEqual([]); // compacted away
  });

  it("lets exactly one of two racing runs take the lock", async () => {
    const results = await Promise.allSettled([backend().lock({ command: "up" }), backend().lock({ command: "destroy" })]);
    const won = results.filter((r) => r.status === "fulfilled");
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]!.reason).toBeInstanceOf(StackLockedError);
    expect(String(lost[0]!.reason.message)).toMatch(/^stack dev is locked by pid \d+ on \S+ since \S+ \(for \d+s; command: (up|destroy); lease until \S+\)/);
    await (won[0] as PromiseFulfilledResult<Awaited<ReturnType<StateBackend["lock"]>>>).value.release();
    expect(s3.text(KEY("lock.json"))).toBeUndefined();
  });

  it("never lets two writers overwrite each other's snapshot, even when the lock was forced from under one", async () => {
    const a = backend();
    const runA = await startRun(a);
    const opA = await runA.journal.begin({ kind: "create", urn: urnOf("from-a"), type: "local:File" });
    runA.journal.end(opA, [{ kind: "upsert", resource: resource("from-a") }]);
    await runA.journal.flush();

    // Someone forces the lock away and a second writer starts from the same snapshot.
    await backend().forceUnlock({ force: true });
    const b = backend();
    const runB = await startRun(b);
    const opB = await runB.journal.begin({ kind: "create", urn: urnOf("from-b"), type: "local:File" });
    runB.journal.end(opB, [{ kind: "upsert", resource: resource("from-b") }]);

    const [resA, resB] = await Promise.allSettled([runA.journal.compact(), runB.journal.compact()]);
    expect(resB.status).toBe("fulfilled");
    expect(resA.status).toBe("rejected");
    expect(String((resA as PromiseRejectedResult).reason.message)).toMatch(/lock on stack dev .* was lost while this run held it|was replaced by another writer since this run loaded it/);
    await runA.lock.release();
    await runB.journal.close();
    await runB.lock.release();
    const final = await backend().load();
    expect(Object.keys(final.state.resources)).toContain(urnOf("from-b"));
    expect(JSON.parse(s3.text(KEY("state.json"))!).serial).toBe(final.state.serial);
  });

  it("refuses a snapshot write whose ETag moved on, naming the object (the If-Match condition alone)", async () => {
    const a = backend();
    const run = await startRun(a);
    await run.journal.compact(); // state.json now exists, with an ETag this run knows
    // Another writer replaces state.json behind this run's back (no lock involved at all).
    const other = JSON.parse(s3.text(KEY("state.json"))!) as { serial: number };
    s3.seed(KEY("state.json"), JSON.stringify({ ...other, serial: other.serial + 5 }));
    await expect(run.journal.compact()).rejects.toThrow(/s3:\/\/acme-state\/cairn\/web\/dev\/state\.json was replaced by another writer since this run loaded it \(its ETag changed\): nothing was overwritten/);
    await run.journal.close().catch(() => {});
    await run.lock.release();
    expect(JSON.parse(s3.text(KEY("state.json"))!).serial).toBe(other.serial + 5);
  });

  it("refuses a journal batch another writer already wrote (If-None-Match on numbered objects)", async () => {
    const run = await startRun(backend());
    await run.journal.begin({ kind: "create", urn: urnOf("a"), type: "local:File" }); // batch 1
    s3.seed(KEY("journal/000000000000/0000000002.ndjson"), '{"t":"mutate","m":[]}\n');
    await expect(run.journal.begin({ kind: "create", urn: urnOf("b"), type: "local:File" })).rejects.toThrow(/another run wrote journal batch 2 of stack dev meanwhile/);
    await run.lock.release();
  });

  it("renews its lease while the run lives, and a lock whose lease ended is taken over with a note", async () => {
    const held = await backend(`${URL}&lease=1`).lock({ command: "up" });
    const first = s3.objects.get(KEY("lock.json"))!.etag;
    await new Promise((r) => setTimeout(r, 1600)); // past one lease: renewals kept it
    expect(s3.objects.get(KEY("lock.json"))!.etag).not.toBe(first);
    await expect(backend(`${URL}&lease=1`).lock({ command: "up" })).rejects.toThrow(StackLockedError);
    expect(() => held.assertHeld()).not.toThrow();
    await held.release();

    // A holder on another machine that died 5 minutes ago, with a 60 s lease.
    const holder = { pid: 777, host: "ci-runner-9", since: new Date(Date.now() - 360_000).toISOString(), command: "up", expires: new Date(Date.now() - 300_000).toISOString() };
    s3.seed(KEY("lock.json"), JSON.stringify({ token: "dead", leaseMs: 60_000, holder }), 300_000);
    const taken = await backend().lock({ command: "up" });
    expect(taken.notes).toEqual([expect.stringMatching(/^took over the lock left by pid 777 on ci-runner-9 since \S+ \(for 6m 0\ds; command: up; lease until \S+\): its lease ended 4m 0\ds ago without renewal/)]);
    await taken.release();
  });

  it("does not take over a lock still in its lease; unlock refuses it and --force removes it", async () => {
    const holder = { pid: 777, host: "ci-runner-9", since: new Date(Date.now() - 30_000).toISOString(), command: "up" };
    s3.seed(KEY("lock.json"), JSON.stringify({ token: "live", leaseMs: 60_000, holder }), 10_000);
    await expect(backend().lock({ command: "up" })).rejects.toThrow(/stack dev is locked by pid 777 on ci-runner-9 since \S+ \(for 30s; command: up\)/);
    await expect(backend().forceUnlock()).rejects.toThrow(/which renewed its lease 10s ago \(valid until \S+, by the server's clock\): the lock was left in place/);
    const forced = await backend().forceUnlock({ force: true });
    expect(forced).toMatchObject({ removed: true, holder: { pid: 777 }, warning: expect.stringContaining("removed the lock of stack dev held by pid 777 on ci-runner-9") });
    expect(s3.text(KEY("lock.json"))).toBeUndefined();
  });

  it("notices a lock taken over while it runs, and writes nothing more", async () => {
    const run = await startRun(backend());
    await backend().forceUnlock({ force: true });
    const other = await backend().lock({ command: "up" });
    await expect(run.journal.begin({ kind: "create", urn: urnOf("late"), type: "local:File" })).rejects.toThrow(LockCompromisedError);
    await run.lock.release();
    expect(s3.text(KEY("lock.json"))).toContain(`"token"`); // the other run's lock is untouched
    await other.release();
    expect([...s3.objects.keys()].filter((k) => k.includes("/journal/"))).toEqual([]);
  });
});
