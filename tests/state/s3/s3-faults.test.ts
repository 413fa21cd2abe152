import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hasChanges } from "../../../src/plan/plan.js";
import { S3Backend } from "../../../src/state/s3/s3-backend.js";
import { SpillFile, spillPath } from "../../../src/state/spill.js";
import { boxes, cloud, cloudMatches } from "../fault-cloud.js";
import { seeded, useS3Fake } from "../s3-http-fake.js";

const fake = useS3Fake();
const url = fake.url;
describe("the S3 backend over a network that drops connections", () => {
  it("loses no result: 30 runs with connections dropped before and after S3 applied them leave zero duplicate objects", async () => {
    const N = 12;
    for (let trial = 1; trial <= 30; trial++) {
      const seed = 1000 + trial;
      const { prog } = await boxes(N);
      const stack = prog.stack({ stack: `t${trial}`, backend: url(), parallel: 4 });
      cloud.objects.clear();
      fake.fake().faults({ dropBefore: 0.1, dropAfter: 0.1 }, seeded(seed));
      const first = await stack.up();
      expect(first.summary?.ok, `trial ${trial} (seed ${seed})`).toBe(true);
      const again = await stack.up();
      fake.fake().faults({});
      expect(hasChanges(again.plan), `trial ${trial} (seed ${seed}): the second run plans nothing`).toBe(false);
      const m = cloudMatches((await stack.resources()).map((r) => r.id));
      expect(m, `trial ${trial} (seed ${seed})`).toEqual({ objects: N, recorded: N, orphans: [] });
    }
    expect(fake.fake().stats.dropped).toBeGreaterThan(30);
  }, 240_000);
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("the S3 backend through a network outage", () => {
  it("rides out a 3-second outage in the middle of a run", async () => {
    const { prog } = await boxes(12);
    const stack = prog.stack({ stack: "drop3", backend: url(), parallel: 2 });
    cloud.objects.clear();
    cloud.delayMs = 40;
    try {
      const t0 = Date.now();
      const running = stack.up();
      while (cloud.objects.size === 0) await sleep(5); // the run is under way
      fake.fake().down(3000);
      const r = await running;
      expect(r.summary?.ok).toBe(true);
      expect(Date.now() - t0).toBeGreaterThan(3000);
    } finally {
      cloud.delayMs = 3;
    }
    expect(cloudMatches((await stack.resources()).map((r) => r.id))).toEqual({ objects: 12, recorded: 12, orphans: [] });
  }, 60_000);

  it("keeps the results of a longer outage on this machine, names the network, and writes them first thing next run", async () => {
    const { prog, dir } = await boxes(12);
    const stack = prog.stack({ stack: "outage", backend: url("&retry=1&lease=2"), parallel: 3 });
    cloud.objects.clear();
    cloud.delayMs = 60;
    let failure: Error | undefined;
    try {
      const running = stack.up();
      while (cloud.objects.size === 0) await sleep(5); // the run is under way
      fake.fake().down(4000);
      const r = await running.catch((e: Error) => e);
      failure = r instanceof Error ? r : undefined;
      if (!(r instanceof Error)) expect(r.summary?.ok).toBe(false);
    } finally {
      cloud.delayMs = 3;
    }
    const message = failure?.message ?? "";
    expect(message).toMatch(/S3 bucket state at http:\/\/127\.0\.0\.1:\d+ could not be reached while .* retried for 1s\): the network or the server is down/);
    expect(message).not.toMatch(/check the bucket, the region and the credentials/);
    expect(message).toContain(join(dir, ".cairn", "spill"));
    const made = cloud.objects.size;
    expect(made).toBeGreaterThan(0);
    expect((await readdir(join(dir, ".cairn", "spill"))).length).toBe(1);

    await sleep(4500); // the network is back; the failed run's lease (2 s) has run out
    const next = await stack.up();
    expect(next.summary?.ok).toBe(true);
    expect(cloudMatches((await stack.resources()).map((r) => r.id))).toEqual({ objects: 12, recorded: 12, orphans: [] });
    expect(await readdir(join(dir, ".cairn", "spill"))).toEqual([]);
  }, 60_000);
});

describe("records kept on this machine", () => {
  it("are refused, naming the file, when the stack moved on since they were kept; nothing is written", async () => {
    const { dir } = await boxes(1);
    const spillDir = join(dir, ".cairn", "spill");
    const backend = new S3Backend({ url: url(), stack: "moved", project: "faults", spillDir });
    const file = spillPath(spillDir, backend.url, "faults", "moved");
    new SpillFile(file).keep({ base: 7, at: 3, text: '{"t":"mutate","m":[]}\n' });
    const lock = await backend.lock("up");
    try {
      await expect(backend.load()).rejects.toThrow(
        new RegExp(`^${file.replace(/[.]/g, "\\.")} holds 1 journal record\\(s\\) an earlier run kept because .* was unreachable, but they no longer fit there: the stack is at version 0 now, and the records continue version 7\\. Nothing was changed`),
      );
    } finally {
      await lock.release();
    }
    expect([...fake.fake().objects.keys()].filter((k) => k.includes("/moved/journal/"))).toEqual([]);
    expect(new SpillFile(file).read()).toHaveLength(1);
  });
});
