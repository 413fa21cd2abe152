import { readdir } from "node:fs/promises";
import { join } from "node:path";
import pg from "pg";
import { describe, expect, it, type TestContext } from "vitest";
import { hasChanges } from "../../../src/plan/plan.js";
import { boxes, cloud, cloudMatches } from "../fault-cloud.js";
import { usePostgres } from "../pg-server.js";
import { seeded } from "../s3-http-fake.js";
import { startProxy } from "../tcp-proxy.js";

const pgdb = usePostgres("faults");
const database = (ctx: TestContext) => pgdb.database(ctx);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs `f` with a fresh database reached through a TCP proxy (the network between Cairn and the server). */
async function throughProxy(ctx: TestContext, f: (url: URL, proxy: Awaited<ReturnType<typeof startProxy>>) => Promise<void>): Promise<void> {
  const url = new URL(await database(ctx));
  const proxy = await startProxy(Number(url.port));
  try {
    url.port = String(proxy.port);
    await f(url, proxy);
  } finally {
    cloud.delayMs = 3;
    await proxy.stop();
  }
}

/** Ends every connection Cairn has open to the server, as `pg_terminate_backend` by an administrator (or a failover) does. */
async function terminateCairn(url: string): Promise<number> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ ok: boolean }>("SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = 'cairn' AND pid <> pg_backend_pid()");
    return rows.filter((r) => r.ok).length;
  } finally {
    await admin.end();
  }
}

describe("the PostgreSQL backend when its connections are killed", () => {
  it("loses no result: 30 runs whose connections are terminated mid-run (pg_terminate_backend) leave zero duplicate objects", async (ctx) => {
    const url = await database(ctx);
    const N = 12;
    let killed = 0;
    for (let trial = 1; trial <= 30; trial++) {
      const rng = seeded(2000 + trial);
      const { prog } = await boxes(N);
      const stack = prog.stack({ stack: `t${trial}`, backend: url, parallel: 3 });
      cloud.objects.clear();
      cloud.delayMs = 8;
      const running = stack.up();
      await sleep(10 + rng() * 40);
      killed += await terminateCairn(url);
      await sleep(rng() * 30);
      killed += await terminateCairn(url);
      const first = await running;
      cloud.delayMs = 3;
      expect(first.summary?.ok, `trial ${trial}`).toBe(true);
      const again = await stack.up();
      expect(hasChanges(again.plan), `trial ${trial}: the second run plans nothing`).toBe(false);
      expect(cloudMatches((await stack.resources()).map((r) => r.id)), `trial ${trial}`).toEqual({ objects: N, recorded: N, orphans: [] });
    }
    expect(killed).toBeGreaterThanOrEqual(30);
  }, 240_000);

  it("rides out a 3-second network outage in the middle of a run", (ctx) =>
    throughProxy(ctx, async (url, proxy) => {
      const { prog } = await boxes(12);
      const stack = prog.stack({ stack: "drop3", backend: url.toString(), parallel: 2 });
      cloud.objects.clear();
      cloud.delayMs = 40;
      const t0 = Date.now();
      const running = stack.up();
      while (cloud.objects.size === 0) await sleep(5); // the run is under way
      proxy.down(3000);
      const r = await running;
      cloud.delayMs = 3;
      expect(r.summary?.ok).toBe(true);
      expect(Date.now() - t0).toBeGreaterThan(3000);
      expect(cloudMatches((await stack.resources()).map((x) => x.id))).toEqual({ objects: 12, recorded: 12, orphans: [] });
    }), 60_000);

  it("keeps the results of a longer outage on this machine, names the network, and writes them first thing next run", (ctx) =>
    throughProxy(ctx, async (url, proxy) => {
      url.searchParams.set("retry", "1");
      const { prog, dir } = await boxes(12);
      const stack = prog.stack({ stack: "outage", backend: url.toString(), parallel: 3 });
      cloud.objects.clear();
      cloud.delayMs = 60;
      const running = stack.up();
      while (cloud.objects.size === 0) await sleep(5); // the run is under way
      proxy.down(4000);
      const r = await running.catch((e: Error) => e);
      cloud.delayMs = 3;
      const message = r instanceof Error ? r.message : "";
      expect(message).toMatch(new RegExp(`PostgreSQL at 127\\.0\\.0\\.1:${proxy.port} could not be reached while .*retried for 1s\\): the network or the server is down`));
      expect(message).not.toMatch(/check the URL, the credentials/);
      expect(message).toContain(join(dir, ".cairn", "spill"));
      expect(cloud.objects.size).toBeGreaterThan(0);

      await sleep(4200); // the network is back
      const next = await stack.up();
      expect(next.summary?.ok).toBe(true);
      expect(cloudMatches((await stack.resources()).map((x) => x.id))).toEqual({ objects: 12, recorded: 12, orphans: [] });
      expect(await readdir(join(dir, ".cairn", "spill"))).toEqual([]);
    }), 60_000);
});
