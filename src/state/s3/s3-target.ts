import type { S3Client } from "@aws-sdk/client-s3";
import { BackendUnreachableError, retryParam, type Contact } from "../net/retry.js";
import { unknownParameterMessage } from "../backend-url.js";
import { LockCompromisedError } from "../lock-holder.js";
import { UserError } from "../../core/diagnostic.js";

/** Where an S3 backend keeps its state, from `s3://bucket/prefix?region=…`. */
export interface S3Target {
  bucket: string;
  /** Key prefix without a trailing slash ("" for the bucket's root). */
  prefix: string;
  region?: string;
  /** An S3-compatible endpoint (MinIO, LocalStack, ...); `AWS_ENDPOINT_URL_S3` / `AWS_ENDPOINT_URL` also work. */
  endpoint?: string;
  forcePathStyle: boolean;
  /** How long a lock stays valid without renewal; renewed every third of it while the run lives. */
  leaseMs: number;
  /** How long a request failing for network reasons (a reset, a timeout, a 5xx) is retried (`retry=<seconds>`, default 60). */
  retryMs: number;
  /** The URL as shown in messages. */
  display: string;
  /** Whether the bucket answered in this process (see `FIRST_CONTACT_MS`). */
  contact: Contact;
}

/** Default lock lease: 60 s, renewed every 20 s. */
export const DEFAULT_LEASE_MS = 60_000;

/**
 * Reads `s3://bucket/prefix?region=eu-west-1&endpoint=http://127.0.0.1:9000&forcePathStyle=true&lease=60`.
 * @example parseS3Url("s3://acme-state/cairn?region=eu-west-1").prefix // "cairn"
 */
export function parseS3Url(url: string): S3Target {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new UserError(`invalid S3 URL ${JSON.stringify(url)}: expected s3://bucket/prefix?region=eu-west-1`);
  }
  if (!u.hostname) throw new UserError(`invalid S3 URL ${JSON.stringify(url)}: the bucket is missing (s3://bucket/prefix)`);
  const known = ["region", "endpoint", "forcePathStyle", "lease", "retry"];
  for (const k of u.searchParams.keys()) if (!known.includes(k)) throw new UserError(unknownParameterMessage(k, `S3 URL ${url}`, known, "region, endpoint, forcePathStyle, lease or retry (seconds)"));
  const retryMs = retryParam(u, `in S3 URL ${url}`);
  const lease = u.searchParams.get("lease");
  const leaseMs = lease === null ? DEFAULT_LEASE_MS : Number(lease) * 1000;
  if (!Number.isFinite(leaseMs) || leaseMs < 1000) throw new UserError(`invalid lease "${lease}" in S3 URL ${url}: give the lock lease in seconds (≥ 1), e.g. lease=60`);
  const region = u.searchParams.get("region") ?? undefined;
  const endpoint = u.searchParams.get("endpoint") ?? undefined;
  if (endpoint !== undefined) checkEndpoint(endpoint, url);
  const forcePathStyle = u.searchParams.get("forcePathStyle");
  if (forcePathStyle !== null && forcePathStyle !== "true" && forcePathStyle !== "false") throw new UserError(`invalid forcePathStyle "${forcePathStyle}" in S3 URL ${url}: use forcePathStyle=true or false`);
  return {
    bucket: u.hostname,
    prefix: decodeURIComponent(u.pathname).replace(/^\/+|\/+$/g, ""),
    ...(region ? { region } : {}),
    ...(endpoint ? { endpoint } : {}),
    forcePathStyle: u.searchParams.get("forcePathStyle") === "true",
    leaseMs,
    retryMs,
    display: url,
    contact: { reached: false },
  };
}

/** Refuses an `endpoint=` that is not an http(s) URL, naming the parameter (the SDK would say only "Invalid URL"). */
function checkEndpoint(endpoint: string, url: string): void {
  let ok = false;
  try {
    const e = new URL(endpoint);
    ok = (e.protocol === "http:" || e.protocol === "https:") && e.hostname !== "";
  } catch {
    // not a URL at all
  }
  if (!ok) throw new UserError(`invalid endpoint ${JSON.stringify(endpoint)} in S3 URL ${url}: give the S3-compatible server as an http(s) URL, e.g. endpoint=http://127.0.0.1:9000 (percent-encoded inside the s3:// URL), or leave it out for AWS`);
}

type S3Module = typeof import("@aws-sdk/client-s3");
let sdk: Promise<S3Module> | undefined;

/** Loads the S3 SDK on first use, so `import "cairn-iac"` stays light. @example const { PutObjectCommand } = await loadS3(); */
export function loadS3(): Promise<S3Module> {
  sdk ??= import("@aws-sdk/client-s3");
  return sdk;
}

/** A client for the target (credentials from the usual AWS chain). @example const client = await s3Client(target); */
export async function s3Client(target: S3Target): Promise<S3Client> {
  const { S3Client } = await loadS3();
  const client = new S3Client({
    // Retries are Cairn's own (within the target's budget, recognising their own earlier writes); a request
    // that hangs is cut off rather than waited on forever.
    maxAttempts: 1,
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000 },
    ...(target.region ? { region: target.region } : {}),
    ...(target.endpoint ? { endpoint: target.endpoint } : {}),
    ...(target.forcePathStyle ? { forcePathStyle: true } : {}),
  });
  // Every request's failure for a missing bucket names the bucket and the URL: S3 says only "The specified
  // bucket does not exist", and whichever part of the backend met it first would pass that on as it is.
  client.middlewareStack.add(
    (next) => async (args) => {
      try {
        return await next(args);
      } catch (e) {
        if ((e as { name?: string })?.name === "NoSuchBucket" && e instanceof Error) e.message = noSuchBucket(target);
        throw e;
      }
    },
    { step: "initialize", name: "cairnNamesMissingBucket" },
  );
  return client;
}

/** The message for a bucket that does not exist. */
function noSuchBucket(target: S3Target): string {
  return `the bucket "${target.bucket}" of the S3 backend ${target.display} does not exist (NoSuchBucket${target.endpoint ? ` at ${target.endpoint}` : target.region ? ` in ${target.region}` : ""}): create it first (Cairn does not create buckets), or fix the bucket in --backend / CAIRN_BACKEND. Nothing was changed`;
}

/** True for S3's "a condition did not hold" answers (412, or 409 when two conditional writes race). */
export function isPreconditionFailed(e: unknown): boolean {
  const err = e as { name?: string; $metadata?: { httpStatusCode?: number } };
  return err?.name === "PreconditionFailed" || err?.name === "ConditionalRequestConflict" || err?.$metadata?.httpStatusCode === 412 || err?.$metadata?.httpStatusCode === 409;
}

/** True for "no such key" (a missing bucket is not: it is the backend that is missing, not an object). */
export function isNotFound(e: unknown): boolean {
  const err = e as { name?: string; $metadata?: { httpStatusCode?: number } };
  if (err?.name === "NoSuchBucket") return false;
  return err?.name === "NoSuchKey" || err?.name === "NotFound" || err?.$metadata?.httpStatusCode === 404;
}

/**
 * Wraps an S3 error so it names the object and the URL, and says what to check.
 * @example catch (e) { throw s3Error(e, "writing", key, target); }
 */
export function s3Error(e: unknown, action: string, key: string, target: S3Target): Error {
  if (e instanceof BackendUnreachableError) return e; // names the network already: the configuration is not the problem
  if (e instanceof LockCompromisedError) return e; // the write was fenced: the lock, not the bucket, is the problem
  const err = e as Error;
  if (err?.name === "NoSuchBucket") return err; // names the bucket and the URL already
  return new Error(`${action} s3://${target.bucket}/${key} failed (${err.name}: ${err.message}): check the bucket, the region and the credentials`);
}
