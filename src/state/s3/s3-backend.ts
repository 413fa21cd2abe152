import { StoreBackend, type BackendOptions } from "../store-backend.js";
import { S3Store } from "./s3-store.js";
import { parseS3Url } from "./s3-target.js";

/** Options of an {@link S3Backend}. */
export interface S3BackendOptions extends BackendOptions {
  /** `s3://bucket/prefix?region=eu-west-1` (also `endpoint=`, `forcePathStyle=true`, `lease=<seconds>`). */
  url: string;
}

/**
 * A {@link StateBackend} in S3 (see {@link S3Store}); `--backend s3://…`. The AWS SDK is loaded on
 * first use; credentials come from the usual AWS chain (environment, profile, role).
 *
 * @example
 * const backend = new S3Backend({ url: "s3://acme-state/cairn?region=eu-west-1", stack: "prod", project: "web" });
 */
export class S3Backend extends StoreBackend {
  constructor(opts: S3BackendOptions) {
    super(new S3Store(parseS3Url(opts.url), { stack: opts.stack, project: opts.project, programHint: opts.programHint }), opts);
  }
}
