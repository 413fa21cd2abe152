import type { ClientBase } from "pg";
import { UserError } from "../../core/diagnostic.js";

/** Quotes an SQL identifier. @example ident("cairn") // '"cairn"' */
export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * The schema's migrations, in order; `schema_version` records how many ran. Append, never edit: a
 * database migrated by one Cairn must be readable by the next.
 */
export function migrations(s: string): string[][] {
  const t = (n: string) => `${ident(s)}.${n}`;
  return [
    [
      `CREATE TABLE ${t("stacks")} (id bigserial PRIMARY KEY, project text NOT NULL, name text NOT NULL,
         created_at timestamptz NOT NULL DEFAULT now(), encryption text, UNIQUE (project, name))`,
      `CREATE TABLE ${t("snapshots")} (stack_id bigint NOT NULL REFERENCES ${t("stacks")}(id) ON DELETE CASCADE,
         serial bigint NOT NULL, data text NOT NULL, resources integer NOT NULL, bytes integer NOT NULL,
         written_at timestamptz NOT NULL DEFAULT now(), written_by text, PRIMARY KEY (stack_id, serial))`,
      `CREATE TABLE ${t("journal")} (stack_id bigint NOT NULL REFERENCES ${t("stacks")}(id) ON DELETE CASCADE,
         seq bigint NOT NULL, base_serial bigint NOT NULL, record text NOT NULL, PRIMARY KEY (stack_id, seq))`,
      `CREATE TABLE ${t("config")} (stack_id bigint NOT NULL REFERENCES ${t("stacks")}(id) ON DELETE CASCADE,
         key text NOT NULL, value text NOT NULL, PRIMARY KEY (stack_id, key))`,
      `CREATE TABLE ${t("locks")} (stack_id bigint PRIMARY KEY REFERENCES ${t("stacks")}(id) ON DELETE CASCADE,
         holder text NOT NULL, token text NOT NULL, session_pid integer NOT NULL, acquired_at timestamptz NOT NULL DEFAULT now())`,
    ],
  ];
}

/** The schema version this build writes. */
export const SCHEMA_VERSION = migrations("x").length;

/**
 * Creates the schema on first use and runs the migrations it lacks, one run at a time (a transaction
 * holding an advisory lock). Refuses a schema migrated by a newer Cairn.
 *
 * @example await ensureSchema(client, "cairn");
 */
export async function ensureSchema(client: ClientBase, schema: string): Promise<void> {
  await client.query("BEGIN");
  try {
    await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`cairn-schema:${schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${ident(schema)}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${ident(schema)}.schema_version (version integer NOT NULL)`);
    const { rows } = await client.query<{ version: number }>(`SELECT version FROM ${ident(schema)}.schema_version`);
    const current = rows[0]?.version ?? 0;
    if (current > SCHEMA_VERSION) {
      throw new UserError(`the PostgreSQL schema ${schema} was migrated by a newer Cairn (schema version ${current}, this build knows ${SCHEMA_VERSION}): upgrade cairn`);
    }
    for (const step of migrations(schema).slice(current)) for (const sql of step) await client.query(sql);
    if (rows.length === 0) await client.query(`INSERT INTO ${ident(schema)}.schema_version (version) VALUES ($1)`, [SCHEMA_VERSION]);
    else if (current < SCHEMA_VERSION) await client.query(`UPDATE ${ident(schema)}.schema_version SET version = $1`, [SCHEMA_VERSION]);
    await client.query("COMMIT");
  } catch (e) {
    await client.query("ROLLBACK").catch(() => {});
    throw e;
  }
}
