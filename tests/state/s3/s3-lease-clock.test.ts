import { afterEach, describe, expect, it, vi } from "vitest";
import { StackLockedError } from "../../../src/state/lock-holder.js";
import { S3Backend } from "../../../src/state/s3/s3-backend.js";
import { useS3Fake } from "../s3-http-fake.js";
import { tempDir } from "../helpers.js";

const fake = useS3Fake();
afterEach(() => {
  fake.fake().shiftClock(0);
  fake.fake().objects.clear();
  vi.restoreAllMocks();
});

const URL = () => fake.url();
const backend = async () => new S3Backend({ url: URL(), stack: "dev", project: "web", spillDir: await tempDir() });
const LOCK = "state/cairn/web/dev/lock.json";

/** lock.json of a run on another machine, last renewed `ageMs` ago by the server's clock, with a 60 s lease. */
function seedLock(ageMs: number) {
  const holder = { pid: 4242, host: "ci-runner-elsewhere", since: new Date(fake.fake().now() - ageMs).toISOString(), command: "up" };
  fake.fake().seed(LOCK, JSON.stringify({ token: "theirs", leaseMs: 60_000, holder }), ageMs);
}

describe("the S3 lease is judged by the server's clock", () => {
  it("keeps a live lease when this host's clock runs 10 minutes ahead of S3's", async () => {
    fake.fake().shiftClock(-10 * 60_000);
    seedLock(5_000);
    const err = await (await backend()).lock("up").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StackLockedError);
    expect(fake.fake().objects.get(LOCK)!.body).toContain('"token":"theirs"');
  });

  it("takes over a lease that ran out by S3's clock, when this host's clock runs 10 minutes behind", async () => {
    fake.fake().shiftClock(10 * 60_000);
    seedLock(120_000);
    const lock = await (await backend()).lock("up");
    expect(lock.notes).toEqual([expect.stringMatching(/took over the lock left by pid 4242 on ci-runner-elsewhere .*: its lease ended 1m 0\ds ago without renewal/)]);
    await lock.release();
  });

  it("is not lost by the holder when this host's wall clock jumps: its renewal runs on a monotonic clock", async () => {
    const lock = await (await backend()).lock("up");
    const real = Date.now.bind(Date);
    vi.spyOn(Date, "now").mockImplementation(() => real() + 10 * 60_000);
    expect(() => lock.assertHeld()).not.toThrow();
    await lock.verify!();
    vi.restoreAllMocks();
    await lock.release();
  });
});

describe("the S3 lock's holder on this host", () => {
  it("is judged by its pid only within its own pid space: a container with the same host name keeps its live lease", async () => {
    const { hostname } = await import("node:os");
    // A pid that runs nowhere here, in another boot/pid namespace (a container sharing the host name).
    const holder = { pid: 999_999, host: hostname(), machine: "another-boot/pid:[4026539999]", since: new Date(fake.fake().now()).toISOString(), command: "up" };
    fake.fake().seed(LOCK, JSON.stringify({ token: "theirs", leaseMs: 60_000, holder }), 1_000);
    const err = await (await backend()).lock("up").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StackLockedError);
    expect(fake.fake().objects.get(LOCK)!.body).toContain('"token":"theirs"');
  });

  it("whose pid no longer runs in this pid space is taken over before its lease ends", async () => {
    const { hostname } = await import("node:os");
    const holder = { pid: 999_999, host: hostname(), since: new Date(fake.fake().now()).toISOString(), command: "up" };
    fake.fake().seed(LOCK, JSON.stringify({ token: "theirs", leaseMs: 60_000, holder }), 1_000);
    const lock = await (await backend()).lock("up");
    expect(lock.notes).toEqual([expect.stringMatching(/pid 999999 is no longer running on this host/)]);
    await lock.release();
  });
});
