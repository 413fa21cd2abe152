import type { Client, ClientBase } from "pg";
import { ensureSchema } from "./pg-schema.js";

/** Where a PostgreSQL backend keeps its state: the server, and the schema holding Cairn's tables. */
export interface PgTarget {
  /** Passed to the driver (the URL without Cairn's own parameters). */
  connectionString: string;
  /** For messages and `backend.url`: the URL without its password. */
  display: string;
  schema: string;
}

/**
 * Reads `postgres://user:password@host:5432/db?schema=cairn&sslmode=require`: `schema` (default
 * `cairn`) names the schema of Cairn's tables; every other parameter goes to the driver.
 *
 * @example parsePgUrl("postgres://ci@db.internal/infra").schema // "cairn"
 */
export function parsePgUrl(url: string): PgTarget {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error(`invalid PostgreSQL URL ${JSON.stringify(redact(url))}: expected postgres://user:password@host:5432/database`);
  }
  const schema = u.searchParams.get("schema") ?? "cairn";
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) {
    throw new Error(`invalid schema ${JSON.stringify(schema)} in the PostgreSQL URL: use letters, digits and "_" (e.g. ?schema=cairn)`);
  }
  u.searchParams.delete("schema");
  const connectionString = u.toString();
  const shown = new URL(u.toString());
  shown.password = "";
  if (schema !== "cairn") shown.searchParams.set("schema", schema);
  return { connectionString, display: shown.toString(), schema };
}

function redact(url: string): string {
  return url.replace(/\/\/([^:/@]*):[^@]*@/, "//$1:***@");
}

type PgModule = { Client: typeof Client };
let driver: Promise<PgModule> | undefined;

/** Loads the `pg` driver on first use, so `import "cairn"` stays light. */
async function loadPg(): Promise<PgModule> {
  driver ??= import("pg").then((m) => ((m as unknown as { default?: PgModule }).default ?? (m as unknown as PgModule)));
  return driver;
}

// Schemas created or migrated by this process, by server and schema: checked once per process.
const ensured = new Set<string>();

/**
 * Opens a connection (TCP keepalive on, so a vanished peer is noticed) and makes sure the schema exists
 * and is migrated. Errors name the server (never the password) and say what to check.
 *
 * @example const client = await connectPg(target); try { ... } finally { await client.end(); }
 */
export async function connectPg(target: PgTarget): Promise<Client> {
  const pg = await loadPg();
  const client = new pg.Client({ connectionString: target.connectionString, application_name: "cairn", keepAlive: true, connectionTimeoutMillis: 15_000 });
  client.on("error", () => {}); // a connection lost while idle is reported by the next query instead
  try {
    await client.connect();
  } catch (e) {
    await client.end().catch(() => {});
    throw new Error(`cannot connect to PostgreSQL at ${target.display} (${(e as Error).message}): check the URL, the credentials and that the server is reachable`);
  }
  const key = `${target.display}|${target.schema}`;
  if (!ensured.has(key)) {
    try {
      await ensureSchema(client, target.schema);
    } catch (e) {
      await client.end().catch(() => {});
      throw new Error(`cannot prepare the Cairn schema "${target.schema}" at ${target.display}: ${(e as Error).message}`);
    }
    ensured.add(key);
  }
  return client;
}

/**
 * Runs `fn` in a transaction on `client`: committed if it resolves, rolled back if it throws.
 * @example await inTransaction(client, async () => { await client.query(...); });
 */
export async function inTransaction<T>(client: ClientBase, fn: () => Promise<T>): Promise<T> {
  await client.query("BEGIN");
  try {
    const out = await fn();
    await client.query("COMMIT");
    return out;
  } catch (e) {
    await client.query("ROLLBACK").catch(() => {});
    throw e;
  }
}
