import type { LockCompromisedError, LockHolder } from "../lock-holder.js";
import type { StoreContext, StoreNames } from "../store.js";
import type { S3Objects } from "./s3-objects.js";
import type { S3Target } from "./s3-target.js";

/** The lock while a run holds it. */
export interface S3Lease {
  token: string;
  etag: string;
  holder: LockHolder;
  /**
   * Until when (this process's monotonic clock, `performance.now()`) the lease is certainly valid: from the
   * start of the last successful renewal. A jump of the wall clock moves neither this nor the server's view.
   */
  validUntil: number;
  lost: LockCompromisedError | undefined;
}

/**
 * The key of one stored state version (zero-padded, so keys list in version order).
 * @example versionKey(7) // "history/000000000007.json"
 */
export const versionKey = (v: number) => `history/${String(v).padStart(12, "0")}.json`;

/**
 * What the lock and the journal use of an S3 store (the store is one): its objects, its keys and the lease.
 * Named here so that they depend on this, not on the store that depends on them.
 *
 * @example const lock = await place.objects.get(place.rel("lock.json"));
 */
export interface S3Place {
  readonly target: S3Target;
  readonly ctx: StoreContext;
  readonly names: StoreNames;
  readonly objects: S3Objects;
  /** The lease while this store holds the stack lock. */
  lease: S3Lease | undefined;
  /** The ETag of `state.json` as last read or written (null: absent), for conditional writes. */
  stateEtag: string | null | undefined;
  /** The key of `name` under the stack's prefix. */
  rel(name: string): string;
}
