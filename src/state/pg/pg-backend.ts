import { StoreBackend, type BackendOptions } from "../store-backend.js";
import { parsePgUrl } from "./pg-connection.js";
import { PgStore } from "./pg-store.js";

/** Options of a {@link PgBackend}. */
export interface PgBackendOptions extends BackendOptions {
  /** `postgres://user:password@host:5432/database?schema=cairn` (any driver parameter, e.g. `sslmode`, may follow). */
  url: string;
}

/**
 * A {@link StateBackend} in PostgreSQL (see {@link PgStore}); `--backend postgres://…`. The `pg`
 * driver is loaded on first use.
 *
 * @example
 * const backend = new PgBackend({ url: "postgres://ci@db.internal/infra", stack: "prod", project: "web" });
 * console.log((await backend.history()).length);
 */
export class PgBackend extends StoreBackend {
  constructor(opts: PgBackendOptions) {
    super(new PgStore(parsePgUrl(opts.url), { stack: opts.stack, project: opts.project, programHint: opts.programHint }), opts);
  }
}
