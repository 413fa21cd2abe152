import { execFile, spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { chown, mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, type TestContext } from "vitest";

const run = promisify(execFile);

/** A PostgreSQL server a test started: 127.0.0.1 only, in a temporary directory, removed by `stop`. */
export interface PgServer {
  port: number;
  /** Creates a fresh database and returns its URL. */
  database(name: string): Promise<string>;
  stop(): Promise<void>;
}

/** Where the server binaries are: on PATH, else where Debian's `postgresql` package puts them (newest version). */
function findBinDir(): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) if (dir && existsSync(join(dir, "initdb")) && existsSync(join(dir, "pg_ctl"))) return dir;
  const base = "/usr/lib/postgresql";
  const versions = existsSync(base) ? readdirSync(base).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) if (existsSync(join(base, v, "bin", "initdb"))) return join(base, v, "bin");
  return undefined;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** The uid/gid to run the server as: ourselves, or the `postgres` user when we are root (initdb refuses root). */
async function serverUser(): Promise<{ uid: number; gid: number } | undefined | string> {
  if (process.getuid?.() !== 0) return undefined;
  try {
    const uid = Number((await run("id", ["-u", "postgres"])).stdout.trim());
    const gid = Number((await run("id", ["-g", "postgres"])).stdout.trim());
    return { uid, gid };
  } catch {
    return "running as root and there is no `postgres` user to run the server as (install the postgresql package)";
  }
}

/**
 * Starts a real PostgreSQL server for a test file, or returns why it cannot (binaries missing, or root
 * without a `postgres` user). On CI (`CI=true`) a missing server is an error, not a skip: `.ci/run`
 * installs the distribution's `postgresql` package.
 *
 * @example const server = await startPostgres(); if (typeof server === "string") ctx.skip(server);
 */
export async function startPostgres(): Promise<PgServer | string> {
  const bin = findBinDir();
  const user = await serverUser();
  const why = !bin ? "PostgreSQL server binaries (initdb, pg_ctl) were not found on PATH or in /usr/lib/postgresql/*/bin" : typeof user === "string" ? user : undefined;
  if (why) {
    if (process.env.CI) throw new Error(`${why}: .ci/run must install the postgresql package`);
    return why;
  }
  const dir = await mkdtemp(join(tmpdir(), "cairn-pg-"));
  const asUser = typeof user === "object" ? user : undefined;
  if (asUser) await chown(dir, asUser.uid, asUser.gid);
  const data = join(dir, "data");
  const port = await freePort();
  const exec = (file: string, args: string[]) =>
    new Promise<void>((resolve, reject) => {
      const child = spawn(join(bin!, file), args, { cwd: dir, stdio: ["ignore", "pipe", "pipe"], ...(asUser ?? {}) });
      let out = "";
      child.stdout.on("data", (d) => (out += d));
      child.stderr.on("data", (d) => (out += d));
      child.on("error", reject);
      child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`${file} ${args.join(" ")} exited ${code}: ${out}`))));
    });
  try {
    await exec("initdb", ["-D", data, "-U", "cairn", "--auth=trust", "-E", "UTF8", "--no-instructions"]);
    await exec("pg_ctl", ["-D", data, "-l", join(dir, "server.log"), "-w", "-t", "60", "-o", `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir}`, "start"]);
  } catch (e) {
    const log = await readFile(join(dir, "server.log"), "utf8").catch(() => "");
    await rm(dir, { recursive: true, force: true });
    throw new Error(`could not start PostgreSQL: ${(e as Error).message}\n${log}`);
  }
  return {
    port,
    async database(name: string) {
      const admin = new pg.Client({ host: "127.0.0.1", port, user: "cairn", database: "postgres" });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE "${name}"`);
      } finally {
        await admin.end();
      }
      return `postgres://cairn@127.0.0.1:${port}/${name}`;
    },
    async stop() {
      await exec("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]).catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Starts a server for a test file (stopped after it); `database(ctx)` makes a fresh database per test, or
 * skips the test saying why there is no server.
 *
 * @example const pgdb = usePostgres("faults"); it("…", async (ctx) => { const url = await pgdb.database(ctx); });
 */
export function usePostgres(prefix: string) {
  let server: PgServer | string | undefined;
  let n = 0;
  beforeAll(async () => {
    server = await startPostgres();
  }, 120_000);
  afterAll(async () => {
    if (typeof server === "object") await server.stop();
  });
  return {
    async database(ctx: TestContext): Promise<string> {
      if (typeof server !== "object") return ctx.skip(String(server));
      return server.database(`${prefix}${++n}`);
    },
  };
}
