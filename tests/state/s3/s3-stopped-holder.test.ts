import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { hasChanges } from "../../../src/plan/plan.js";
import { LockCompromisedError, StackLockedError } from "../../../src/state/lock-holder.js";
import { lockS3Stack } from "../../../src/state/s3/s3-lock.js";
import { S3Store } from "../../../src/state/s3/s3-store.js";
import { parseS3Url } from "../../../src/state/s3/s3-target.js";
import { cloudObjects, boxesProgram, exited, stoppedHolder } from "../fixtures/stop-cloud.js";
import { tempDir } from "../helpers.js";
import { useS3Fake } from "../s3-http-fake.js";

const fake = useS3Fake();
beforeEach(() => fake.fake().objects.clear());
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const LEASE_S = 2;

describe("an S3 lock holder suspended (SIGSTOP) past its lease", () => {
  it("keeps its lock on its own host: a second up is refused naming it, and once resumed it finishes alone, creating each object once", async () => {
    const cloud = join(await tempDir(), "cloud");
    const backend = fake.url(`&lease=${LEASE_S}`);
    const { child, output } = await stoppedHolder(backend, cloud, await tempDir());
    try {
      await sleep(LEASE_S * 1000 * 2); // two leases without renewal
      const taker = boxesProgram({ cloud, dir: await tempDir() }).stack({ stack: "dev", backend, parallel: 1 });
      const err = (await taker.up().catch((e: unknown) => e)) as StackLockedError;
      expect(err).toBeInstanceOf(StackLockedError);
      expect(err.holder?.pid).toBe(child.pid);
      expect(err.message).toMatch(
        new RegExp(`^stack dev is locked by pid ${child.pid} on \\S+ since .*, which is still running on this host, although it has not renewed its lease for \\ds \\(lease 2s\\): a stopped process .* Resume it \\(fg, kill -CONT ${child.pid}\\) or end it`),
      );
      expect(await cloudObjects(cloud)).toEqual({ s0: 1 });

      // WHEN it resumes THEN it still holds its lock, and finishes
      child.kill("SIGCONT");
      expect(await exited(child), output()).toBe(0);
      expect(output()).toContain("up ended: ok");
      expect(await cloudObjects(cloud)).toEqual({ s0: 1, s1: 1 });
      expect(hasChanges(await taker.preview())).toBe(false);
      expect(await cloudObjects(cloud)).toEqual({ s0: 1, s1: 1 });
    } finally {
      child.kill("SIGKILL");
      await exited(child);
    }
  }, 60_000);

  it("of another host loses it to a second up, and stops before its next write or call, saying so: no object is made twice", async () => {
    const cloud = join(await tempDir(), "cloud");
    const backend = fake.url(`&lease=${LEASE_S}`);
    const { child, output } = await stoppedHolder(backend, cloud, await tempDir(), "laptop-elsewhere");
    try {
      await sleep(LEASE_S * 1000 + 1500); // its lease ran out unrenewed
      const taker = boxesProgram({ cloud, dir: await tempDir() }).stack({ stack: "dev", backend, parallel: 1 });
      const warnings: string[] = [];
      taker.events.subscribe((e) => e.type === "diagnostic" && e.severity === "warning" && warnings.push(e.summary));
      const r = await taker.up();
      expect(r.summary?.ok).toBe(true);
      expect(warnings.join("\n")).toMatch(new RegExp(`took over the lock left by pid ${child.pid} on laptop-elsewhere .*: its lease ended \\d+s ago without renewal`));
      expect(warnings.join("\n")).toMatch(/An interrupted create of urn:cairn:dev::stopcloud::stop:cloud:Box::s0 .* was resumed: its request had finished: the object s0\.\S+ was created and is now recorded/);
      expect(await cloudObjects(cloud)).toEqual({ s0: 1, s1: 1 });

      // WHEN the old holder resumes THEN it makes no further call nor write, and says why
      child.kill("SIGCONT");
      expect(await exited(child), output()).toBe(3);
      expect(output()).toMatch(/the lock on stack dev \(s3:\/\/state\/cairn\/stopcloud\/dev\/lock\.json\) was lost while this run held it \((its lease could not be renewed in time|another run took the lock over)/);
      expect(await cloudObjects(cloud)).toEqual({ s0: 1, s1: 1 });
      expect(hasChanges(await taker.preview())).toBe(false);
    } finally {
      child.kill("SIGKILL");
      await exited(child);
    }
  }, 60_000);
});

describe("every write of an S3 lock holder is fenced on its lease", () => {
  const LOCK = "state/cairn/web/dev/lock.json";
  const BATCH = "journal/000000000000/0000000001.ndjson";
  /** A store holding the lock, and a clock that jumps `ms` ahead as this process sees it (a run stopped that long). */
  async function late(ms: number) {
    const store = new S3Store(parseS3Url(fake.url("&lease=5")), { stack: "dev", project: "web" });
    const lock = await lockS3Stack(store, "up");
    const real = performance.now.bind(performance);
    vi.spyOn(performance, "now").mockImplementation(() => real() + ms);
    return { store, lock };
  }
  afterEach(() => vi.restoreAllMocks());

  it("renews a lease that may have ended before the write leaves, and writes when no other run took the lock", async () => {
    const { store, lock } = await late(9_000);
    const before = fake.fake().objects.get(LOCK)!.etag;
    await store.objects.put(store.rel(BATCH), '{"t":"mutate","m":[]}\n', { ifNoneMatch: "*" });
    expect(fake.fake().objects.get(LOCK)!.etag).not.toBe(before); // renewed first
    expect(fake.fake().objects.has(`state/cairn/web/dev/${BATCH}`)).toBe(true);
    expect(lock.compromised).toBeUndefined();
    await lock.release();
  });

  it("refuses, as it leaves, the write of a run whose lease another run took over: nothing is written", async () => {
    const { store, lock } = await late(9_000);
    const other = { pid: 4242, host: "ci-runner-elsewhere", since: new Date().toISOString(), command: "up" };
    fake.fake().seed(LOCK, JSON.stringify({ token: "theirs", leaseMs: 5_000, holder: other }), 0);
    const err = await store.objects.put(store.rel(BATCH), '{"t":"mutate","m":[]}\n', { ifNoneMatch: "*" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LockCompromisedError);
    expect((err as Error).message).toMatch(/^the lock on stack dev \(s3:\/\/state\/cairn\/web\/dev\/lock\.json\) was lost while this run held it \(another run took the lock over/);
    expect(fake.fake().objects.has(`state/cairn/web/dev/${BATCH}`)).toBe(false);
    expect(fake.fake().objects.get(LOCK)!.body).toContain('"token":"theirs"');
    await lock.release();
    expect(fake.fake().objects.get(LOCK)!.body).toContain('"token":"theirs"'); // a lost lock leaves the new holder's alone
  });
});
