import type { Client, ClientBase } from "pg";
import { isTransientError } from "../../core/errors.js";
import { retryParam, type Contact, type RetryPolicy } from "../net/retry.js";
import { ensureSchema } from "./pg-schema.js";
import { unknownParameterMessage } from "../backend-url.js";
import { UserError } from "../../core/diagnostic.js";

/** Where a PostgreSQL backend keeps its state: the server, and the schema holding Cairn's tables. */
export interface PgTarget {
  /** Passed to the driver (the URL without Cairn's own parameters). */
  connectionString: string;
  /** For messages and `backend.url`: the URL without its password. */
  display: string;
  schema: string;
  /** `host:port`, for messages about the network. */
  server: string;
  /** How long a request failing for network reasons is retried (`?retry=<seconds>`, default 60). */
  retryMs: number;
  /** Whether the server answered in this process (see `FIRST_CONTACT_MS`). */
  contact: Contact;
}

/**
 * The parameters a PostgreSQL URL takes: Cairn's own (`schema`, `retry`), then those the `pg` driver reads
 * from a connection string (its pg-connection-string and lib/connection-parameters.js, pg 8.x).
 */
const PG_PARAMETERS: readonly string[] = [
  "schema", "retry",
  "host", "port", "user", "password", "database", "db", "encoding", "client_encoding", "application_name", "fallback_application_name", "options",
  "ssl", "sslmode", "sslcert", "sslkey", "sslrootcert", "sslnegotiation", "uselibpqcompat", "connect_timeout", "keepalives", "keepalives_idle",
  "statement_timeout", "query_timeout", "lock_timeout", "idle_in_transaction_session_timeout", "replication", "binary",
];

/**
 * Reads `postgres://user:password@host:5432/db?schema=cairn&sslmode=require`: `schema` (default
 * `cairn`) names the schema of Cairn's tables; the driver's parameters go to the driver; any other is refused.
 *
 * @example parsePgUrl("postgres://ci@db.internal/infra").schema // "cairn"
 */
export function parsePgUrl(url: string): PgTarget {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new UserError(`invalid PostgreSQL URL ${JSON.stringify(redact(url))}: expected postgres://user:password@host:5432/database`);
  }
  for (const k of u.searchParams.keys()) {
    if (!PG_PARAMETERS.includes(k)) throw new UserError(`${unknownParameterMessage(k, `the PostgreSQL URL ${redact(url)}`, PG_PARAMETERS, "schema or retry, or a parameter of the pg driver (sslmode, application_name, connect_timeout, …)")}. Nothing was opened: a mistyped parameter would otherwise be dropped and could point at another, empty stack`);
  }
  const schema = u.searchParams.get("schema") ?? "cairn";
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) {
    throw new UserError(`invalid schema ${JSON.stringify(schema)} in the PostgreSQL URL: use letters, digits and "_" (e.g. ?schema=cairn)`);
  }
  const retry = u.searchParams.get("retry");
  const retryMs = retryParam(u, "in the PostgreSQL URL");
  u.searchParams.delete("schema");
  u.searchParams.delete("retry");
  const connectionString = u.toString();
  const shown = new URL(u.toString());
  shown.password = "";
  if (schema !== "cairn") shown.searchParams.set("schema", schema);
  if (retry !== null) shown.searchParams.set("retry", retry);
  return { connectionString, display: shown.toString(), schema, server: `${u.hostname || "localhost"}:${u.port || "5432"}`, retryMs, contact: { reached: false } };
}

function redact(url: string): string {
  return url.replace(/\/\/([^:/@]*):[^@]*@/, "//$1:***@");
}

type PgModule = { Client: typeof Client };
let driver: Promise<PgModule> | undefined;

/** Loads the `pg` driver on first use, so `import "cairn-iac"` stays light. */
async function loadPg(): Promise<PgModule> {
  driver ??= import("pg").then((m) => ((m as unknown as { default?: PgModule }).default ?? (m as unknown as PgModule)));
  return driver;
}

// Schemas created or migrated by this process, by server and schema: checked once per process.
const ensured = new Set<string>();

// SQLSTATEs of a connection that went away or a server not taking connections now: worth another attempt.
const TRANSIENT_STATES = new Set(["57P01", "57P02", "57P03", "53300", "40001", "40P01"]);
const TRANSIENT_MESSAGES = /Connection terminated|connection error and is not queryable|Client was closed and is not queryable|timeout expired|Connection closed|terminating connection/i;

/**
 * True for PostgreSQL failures worth another attempt: the connection was reset, refused, timed out or
 * ended by the server (e.g. `pg_terminate_backend`), or the server is restarting. Never for a refusal
 * (bad credentials, no such database, a constraint).
 *
 * @example isPgTransient(new Error("Connection terminated unexpectedly")) // true
 */
export function isPgTransient(e: unknown): boolean {
  const err = e as { code?: unknown; message?: unknown } | undefined;
  const code = typeof err?.code === "string" ? err.code : "";
  if (code.startsWith("08") || TRANSIENT_STATES.has(code)) return true;
  if (isTransientError(e)) return true;
  return typeof err?.message === "string" && code === "" && TRANSIENT_MESSAGES.test(err.message);
}

/**
 * How requests to `target` are retried: transient failures for `retryMs`, then {@link BackendUnreachableError}.
 * @example await withRetry(pgRetry(target), "reading the state", () => query());
 */
export function pgRetry(target: PgTarget, beforeRetry?: RetryPolicy["beforeRetry"]): RetryPolicy {
  return { where: `PostgreSQL at ${target.server}`, budgetMs: target.retryMs, isTransient: isPgTransient, contact: target.contact, ...(beforeRetry ? { beforeRetry } : {}) };
}

/**
 * Opens a connection (TCP keepalive on, so a vanished peer is noticed) and makes sure the schema exists
 * and is migrated. A network failure is thrown as it is (for the caller to retry); a refusal names the
 * server (never the password) and says what to check.
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
    if (isPgTransient(e)) throw e;
    throw new UserError(`cannot connect to PostgreSQL at ${target.display} (${(e as Error).message}): check the URL, the credentials and that the database exists`);
  }
  const key = `${target.display}|${target.schema}`;
  if (!ensured.has(key)) {
    try {
      await ensureSchema(client, target.schema);
    } catch (e) {
      await client.end().catch(() => {});
      if (isPgTransient(e)) throw e;
      throw new UserError(`cannot prepare the Cairn schema "${target.schema}" at ${target.display}: ${(e as Error).message}`);
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
