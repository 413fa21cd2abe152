import { join } from "node:path";
import { BACKEND_SCHEMES, parseBackendUrl } from "./backend-url.js";
import type { StateBackend } from "./backend.js";
import { FileBackend } from "./file-backend.js";
import { MemoryBackend } from "./memory-backend.js";
import { PgBackend } from "./pg/pg-backend.js";
import { S3Backend } from "./s3/s3-backend.js";
import { UserError } from "../core/diagnostic.js";

/** What {@link openBackend} needs. */
export interface OpenBackendOptions {
  /**
   * Where the state lives: `file://<dir>` (relative to the working directory), `postgres://…`
   * (or `postgresql://…`), `s3://bucket/prefix?region=…`, `memory://[name]`, or a backend instance.
   * Absent: files in `stateDir`.
   */
  backend?: string | StateBackend | undefined;
  /** The state folder used when `backend` is absent. */
  stateDir?: string | undefined;
  stack: string;
  project: string;
  passphrase?: string | undefined;
  /** How users run the program (`npx tsx infra.ts`, `node infra.ts`), for hints such as how to unlock. */
  programHint?: string | undefined;
  /** Use the previous version of a damaged snapshot (`--from-backup`) instead of refusing it. */
  fromBackup?: boolean | undefined;
}


/**
 * Opens the backend a URL names (PostgreSQL and S3 drivers load on first use, so this is cheap).
 * An instance is returned as it is, after checking it is for the same stack.
 *
 * @example
 * openBackend({ backend: process.env.CAIRN_BACKEND, stateDir: ".cairn", stack: "dev", project: "web" });
 */
export function openBackend(opts: OpenBackendOptions): StateBackend {
  const common = {
    stack: opts.stack, project: opts.project, passphrase: opts.passphrase, programHint: opts.programHint, fromBackup: opts.fromBackup,
    ...(opts.stateDir ? { spillDir: join(opts.stateDir, "spill") } : {}),
  };
  const b = opts.backend;
  if (b !== undefined && typeof b !== "string") {
    if (b.stack !== opts.stack || b.project !== opts.project) {
      throw new UserError(`the backend given is for stack ${b.project}/${b.stack}, not ${opts.project}/${opts.stack}: open one per stack`);
    }
    return b;
  }
  if (b === undefined || b === "") {
    if (!opts.stateDir) throw new UserError(`no state backend given for stack ${opts.stack}: pass a backend URL (${BACKEND_SCHEMES}) or a state directory`);
    return new FileBackend({ ...common, stateDir: opts.stateDir });
  }
  const parsed = parseBackendUrl(b);
  switch (parsed.kind) {
    case "file":
      return new FileBackend({ ...common, stateDir: parsed.dir });
    case "postgres":
      return new PgBackend({ ...common, url: b });
    case "s3":
      return new S3Backend({ ...common, url: b });
    case "memory":
      return new MemoryBackend({ ...common, ...(parsed.space ? { space: parsed.space } : {}) });
    default: {
      const never: never = parsed;
      return never;
    }
  }
}
