import { join } from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { hasChanges } from "../../../src/plan/plan.js";
import { StackLockedError } from "../../../src/state/lock-holder.js";
import { boxesProgram, cloudObjects, exited, stoppedHolder } from "../fixtures/stop-cloud.js";
import { tempDir } from "../helpers.js";
import { usePostgres } from "../pg-server.js";

const pgdb = usePostgres("stopped");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Ends the database sessions of the child `pid` (its lock's session), as an administrator or a failover would. */
async function endSessionsOf(url: string, pid: number): Promise<number> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    // The holder's row names its process and its session; the session's backend is what ends.
    const { rows } = await admin.query<{ ok: boolean }>(
      `SELECT pg_terminate_backend(session_pid) AS ok FROM cairn.locks WHERE (holder::jsonb ->> 'pid')::int = $1`,
      [pid],
    );
    return rows.filter((r) => r.ok).length;
  } finally {
    await admin.end();
  }
}

describe("a PostgreSQL lock holder suspended (SIGSTOP)", () => {
  it("keeps its lock while its session lives, however long it is stopped: a second up is refused, and it finishes alone once resumed", async (ctx) => {
    const url = await pgdb.database(ctx);
    const cloud = join(await tempDir(), "cloud");
    const { child, output } = await stoppedHolder(url, cloud, await tempDir());
    try {
      await sleep(3000);
      const taker = boxesProgram({ cloud, dir: await tempDir() }).stack({ stack: "dev", backend: url, parallel: 1 });
      const err = (await taker.up().catch((e: unknown) => e)) as StackLockedError;
      expect(err).toBeInstanceOf(StackLockedError);
      expect(err.message).toMatch(new RegExp(`^stack dev is locked by pid ${child.pid} on \\S+ since .*database session \\d+`));
      child.kill("SIGCONT");
      expect(await exited(child), output()).toBe(0);
      expect(await cloudObjects(cloud)).toEqual({ s0: 1, s1: 1 });
      expect(hasChanges(await taker.preview())).toBe(false);
    } finally {
      child.kill("SIGKILL");
      await exited(child);
    }
  }, 60_000);

  it("whose session was ended loses the lock to a second up, and once resumed writes and calls nothing more, saying so: no object is made twice", async (ctx) => {
    const url = await pgdb.database(ctx);
    const cloud = join(await tempDir(), "cloud");
    const { child, output } = await stoppedHolder(url, cloud, await tempDir());
    try {
      expect(await endSessionsOf(url, child.pid!)).toBe(1);
      await sleep(500); // the session's backend exits, letting go of the advisory lock
      const taker = boxesProgram({ cloud, dir: await tempDir() }).stack({ stack: "dev", backend: url, parallel: 1 });
      const warnings: string[] = [];
      taker.events.subscribe((e) => e.type === "diagnostic" && e.severity === "warning" && warnings.push(e.summary));
      const r = await taker.up();
      expect(r.summary?.ok).toBe(true);
      expect(warnings.join("\n")).toMatch(new RegExp(`took over the lock left by pid ${child.pid} .*: its database session had ended`));
      expect(await cloudObjects(cloud)).toEqual({ s0: 1, s1: 1 });

      child.kill("SIGCONT");
      expect(await exited(child), output()).toBe(3);
      expect(output()).toMatch(/the lock on stack dev \(.*\) was lost while this run held it \(its lock row was removed or taken over while this run's database connection was down\)/);
      expect(await cloudObjects(cloud)).toEqual({ s0: 1, s1: 1 });
      expect(hasChanges(await taker.preview())).toBe(false);
    } finally {
      child.kill("SIGKILL");
      await exited(child);
    }
  }, 60_000);
});
