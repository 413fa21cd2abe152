import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { StackLockedError } from "../../src/state/lock-holder.js";
import { S3Backend } from "../../src/state/s3/s3-backend.js";
import { startS3Fake } from "./s3-http-fake.js";
import { tempDir } from "./helpers.js";

let s3: Awaited<ReturnType<typeof startS3Fake>>;
const saved = { ...process.env };
beforeAll(async () => {
  s3 = await startS3Fake();
  Object.assign(process.env, { AWS_ACCESS_KEY_ID: "test", AWS_SECRET_ACCESS_KEY: "test", AWS_REGION: "us-east-1" });
  delete process.env.AWS_PROFILE;
});
afterAll(async () => {
  await s3.stop();
  process.env = saved;
});
afterEach(() => {
  s3.shiftClock(0);
  s3.objects.clear();
  vi.restoreAllMocks();
});

const URL = () => `s3://state/cairn?region=us-east-1&endpoint=${encodeURIComponent(s3.endpoint)}&forcePathStyle=true`;
const backend = async () => new S3Backend({ url: URL(), stack: "dev", project: "web", spillDir: await tempDir() });
const LOCK = "state/cairn/web/dev/lock.json";

/** lock.json of a run on another machine, last renewed `ageMs` ago by the server's clock, with a 60 s lease. */
function seedLock(ageMs: number) {
  const holder = { pid: 4242, host: "ci-runner-elsewhere", since: new Date(s3.now() - ageMs).toISOString(), command: "up" };
  s3.seed(LOCK, JSON.stringify({ token: "theirs", leaseMs: 60_000, holder }), ageMs);
}

describe("the S3 lease is judged by the server's clock", () => {
  it("keeps a live lease when this host's clock runs 10 minutes ahead of S3's", async () => {
    s3.shiftClock(-10 * 60_000);
    seedLock(5_000);
    const err = await (await backend()).lock("up").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StackLockedError);
    expect(s3.objects.get(LOCK)!.body).toContain('"token":"theirs"');
  });

  it("takes over a lease that ran out by S3's clock, when this host's clock runs 10 minutes behind", async () => {
    s3.shiftClock(10 * 60_000);
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
