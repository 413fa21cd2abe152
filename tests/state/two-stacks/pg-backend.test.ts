import pg from "pg";
import { afterAll, beforeAll, describe, it, type TestContext } from "vitest";
import { startPostgres, type PgServer } from "../pg-server.js";
import { conformance } from "./two-stacks.js";

let server: PgServer | string | undefined;

beforeAll(async () => {
  server = await startPostgres();
  if (typeof server === "string") console.warn(`PostgreSQL stack-reference tests skipped: ${server}`);
}, 120_000);

afterAll(async () => {
  if (typeof server === "object") await server.stop();
});

async function database(ctx: TestContext): Promise<string> {
  if (typeof server !== "object") return ctx.skip(String(server));
  return server.database("stackrefs");
}

/** Everything Cairn stored in the database, as text. */
async function dump(url: string): Promise<string> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const tables = (await c.query<{ t: string }>("SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'cairn'")).rows;
    let out = "";
    for (const { t } of tables) out += JSON.stringify((await c.query(`SELECT * FROM cairn."${t}"`)).rows);
    return out;
  } finally {
    await c.end();
  }
}

describe("two stacks that feed each other, on PostgreSQL", () => {
  it("app reads network's outputs (secrets stay secret), sees them change, and network's destroy needs --force", async (ctx) => {
    const url = await database(ctx);
    await conformance({ backend: url, passphrase: "test-pass" }, "pgstacks", async () => {
      const text = await dump(url);
      // The dump must hold app's state, or the secret check below proves nothing.
      if (!text.includes("cairn:stack:StackReference")) throw new Error("the database dump holds no stack reference");
      return text;
    });
  }, 60_000);
});
