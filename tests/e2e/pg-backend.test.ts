import { readdir } from "node:fs/promises";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, type TestContext } from "vitest";
import { startPostgres, type PgServer } from "../state/pg-server.js";
import { cli, finish, start, tempProject, waitFor } from "./cli-harness.js";
import { slowProgram } from "./programs.js";

const SLOW = slowProgram(8);

let server: PgServer | string | undefined;
let dbs = 0;

beforeAll(async () => {
  server = await startPostgres();
  if (typeof server === "string") console.warn(`PostgreSQL CLI tests skipped: ${server}`);
}, 120_000);

afterAll(async () => {
  if (typeof server === "object") await server.stop();
});

async function database(ctx: TestContext): Promise<string> {
  if (typeof server !== "object") return ctx.skip(String(server));
  return server.database(`e2e${++dbs}`);
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<T>(sql)).rows;
  } finally {
    await c.end();
  }
}

const objects = async (dir: string) => (await readdir(join(dir, "objs")).catch(() => [])).sort();
const lockRow = (url: string) => query<{ holder: string }>(url, "SELECT holder FROM cairn.locks");

describe("a stack shared in PostgreSQL, through the CLI", () => {
  it("lets one of two concurrent ups run; the other fails at once naming the holder and writes nothing", async (ctx) => {
    const url = await database(ctx);
    const dir = await tempProject({ "infra.ts": SLOW });
    const env = { CAIRN_BACKEND: url, SLOW_MS: "5000" };
    const first = start(dir, ["up", "--yes"], env);
    const firstDone = finish(first);
    await waitFor(async () => (await lockRow(url).catch(() => [])).length > 0);

    const t0 = Date.now();
    const second = await cli(dir, ["up", "--yes"], env);
    expect(Date.now() - t0).toBeLessThan(8000);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/stack dev is locked by pid \d+ on \S+ since \S+ \(for \d+s; command: up; database session \d+\)/);
    expect(second.stderr).toContain("unlock --stack dev");

    const r = await firstDone;
    expect(r.code, r.stderr).toBe(0);
    expect(await objects(dir)).toEqual(["0", "1", "2", "3", "4", "5", "6", "7"]);
    const snaps = await query<{ serial: string; resources: number; written_by: string }>(url, "SELECT serial, resources, written_by FROM cairn.snapshots ORDER BY serial");
    expect(snaps).toHaveLength(1); // only the first run wrote a version
    expect(snaps[0]).toMatchObject({ resources: 8, written_by: expect.stringMatching(/^up by pid \d+ on /) });
    expect(await query(url, "SELECT * FROM cairn.journal")).toEqual([]);
    expect(await lockRow(url)).toEqual([]);
  });

  it("frees the lock of a holder killed with kill -9 (its session ends) and recovers its journal", async (ctx) => {
    const url = await database(ctx);
    const dir = await tempProject({ "infra.ts": SLOW });
    const child = start(dir, ["up", "--yes", "--parallel", "2"], { CAIRN_BACKEND: url, SLOW_MS: "400" });
    const done = finish(child);
    await waitFor(async () => (await objects(dir)).length >= 3);
    process.kill(-child.pid!, "SIGKILL");
    await done;
    const journal = await query<{ record: string }>(url, "SELECT record FROM cairn.journal ORDER BY seq");
    expect(journal.some((j) => j.record.includes('"t":"begin"'))).toBe(true);

    const r = await cli(dir, ["up", "--yes"], { CAIRN_BACKEND: url, SLOW_MS: "0" });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stderr).toMatch(/took over the lock left by pid \d+ on .*: its database session had ended/);
    expect(r.stderr).toMatch(/interrupted create of urn:cairn:dev::slow::e2e:Slow::s\d/);
    expect(await objects(dir)).toEqual(["0", "1", "2", "3", "4", "5", "6", "7"]);
    const again = await cli(dir, ["preview", "--expect-no-changes"], { CAIRN_BACKEND: url });
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });

  it("lists versions with state history and restores one with state rollback", async (ctx) => {
    const url = await database(ctx);
    const dir = await tempProject({ "infra.ts": SLOW });
    expect((await cli(dir, ["up", "--yes", "--backend", url], { COUNT: "2" })).code).toBe(0);
    expect((await cli(dir, ["up", "--yes", "--backend", url], { COUNT: "3" })).code).toBe(0);

    const history = await cli(dir, ["state", "history", "--json", "--backend", url]);
    const versions = JSON.parse(history.stdout) as { version: number; resources: number; current: boolean; writtenBy: string }[];
    expect(versions.map((v) => [v.resources, v.current])).toEqual([
      [2, false],
      [3, true],
    ]);
    expect((await cli(dir, ["state", "history", "--backend", url])).stdout).toMatch(new RegExp(`^${versions[1]!.version} \\(current\\)\\s+\\S+\\s+3\\s+`, "m"));

    const rolled = await cli(dir, ["state", "rollback", String(versions[0]!.version), "--backend", url, "--yes"]);
    expect(rolled.code, rolled.stderr).toBe(0);
    expect(rolled.stdout).toContain(`Rolled back stack "dev" to version ${versions[0]!.version} (2 resources): it is now version ${versions[1]!.version + 1}.`);
    const list = await cli(dir, ["state", "list", "--json", "--backend", url]);
    expect((JSON.parse(list.stdout) as unknown[]).length).toBe(2);
    const preview = await cli(dir, ["preview", "--backend", url], { COUNT: "3" });
    expect(preview.stdout).toMatch(/\+ create\s+urn:cairn:dev::slow::e2e:Slow::s2/);
  });

  it("unlock refuses while the holder's session lives; --force ends that session, and its run can write nothing more", async (ctx) => {
    const url = await database(ctx);
    const dir = await tempProject({ "infra.ts": SLOW });
    const env = { CAIRN_BACKEND: url, SLOW_MS: "2000", COUNT: "4" };
    const first = finish(start(dir, ["up", "--yes", "--parallel", "1"], env));
    await waitFor(async () => (await lockRow(url).catch(() => [])).length > 0);

    const refused = await cli(dir, ["unlock"], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/stack dev is locked by pid \d+ .*, which still holds its database session \(server pid \d+\): the lock was left in place/);
    const forced = await cli(dir, ["unlock", "--force"], env);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr).toMatch(/warning: removed the lock of stack dev held by pid \d+ .*that session was ended: if that run is still active/);

    const r = await first;
    expect(r.code).toBe(1);
    expect(r.stderr + r.stdout).toMatch(/terminat|connection|lock/i);
    expect((await objects(dir)).length).toBeLessThan(4);
  });

  it("takes a file stack over with state migrate --to, and carries on from there", async (ctx) => {
    const url = await database(ctx);
    const dir = await tempProject({ "infra.ts": SLOW });
    expect((await cli(dir, ["up", "--yes"], { COUNT: "3" })).code).toBe(0);
    expect((await cli(dir, ["config", "set", "team", "platform"])).code).toBe(0);
    const m = await cli(dir, ["state", "migrate", "--to", url]);
    expect(m.code, m.stderr).toBe(0);
    expect(m.stdout).toMatch(new RegExp(`^Copied stack "dev" from file://.*\\.cairn to ${url.replace(/[.]/g, "\\.")}: version \\d+ \\(3 resources\\), 1 stored version\\(s\\), 0 journal record\\(s\\), 1 config key\\(s\\); the copy was read back and matches\\.`));
    const preview = await cli(dir, ["preview", "--expect-no-changes", "--backend", url], { COUNT: "3" });
    expect(preview.code, preview.stdout + preview.stderr).toBe(0);
    expect((await cli(dir, ["config", "get", "team", "--backend", url])).stdout.trim()).toBe("platform");
    const twice = await cli(dir, ["state", "migrate", "--to", url]);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain("already holds state for stack dev of project slow: nothing was copied");
  });
});
