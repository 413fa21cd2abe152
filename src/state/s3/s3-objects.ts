import type { S3Client } from "@aws-sdk/client-s3";
import { isTransientError } from "../../core/errors.js";
import { withRetry, type RetryPolicy } from "../net/retry.js";
import { isNotFound, isPreconditionFailed, loadS3, s3Client, s3Error, type S3Target } from "./s3-target.js";

/** The commands that write: each passes {@link S3Objects.fence} first. */
const WRITES = new Set(["PutObjectCommand", "DeleteObjectCommand", "DeleteObjectsCommand"]);

/** One object as read. */
export interface S3Object {
  text: string;
  etag: string;
  metadata: Record<string, string>;
  /** When it was last written, by the server's clock. */
  lastModified: Date;
  /** The server's time when it answered (its `Date` header), where it said; else this host's. */
  serverTime: Date;
}

/** A listed object. */
export interface S3Listed {
  key: string;
  size: number;
  lastModified: Date;
}

/** Condition of a write: create only (`If-None-Match: *`), or replace only this version (`If-Match`). */
export type WriteCondition = { ifNoneMatch: "*" } | { ifMatch: string } | undefined;

/**
 * The few S3 calls the backend makes, with keys relative to the target's prefix, errors naming the
 * object, and the client created on first use.
 *
 * @example const objects = new S3Objects(target); await objects.put("web/dev/state.json", text, { ifNoneMatch: "*" });
 */
export class S3Objects {
  private client: Promise<S3Client> | undefined;
  /** The server's clock as last seen (its `Date` header) and this process's monotonic time then. */
  private clock: { server: number; mono: number } | undefined;
  /**
   * Asked right before each write request leaves (a put or delete, with the full key; `undefined` for a
   * batch delete), after signing: throws to stop it. The stack lock sets it while held, so a run whose lease
   * may have ended writes nothing until it has renewed it, however long it was stopped since its last check.
   */
  fence: ((key: string | undefined) => Promise<void>) | undefined;

  constructor(readonly target: S3Target) {}

  /** The full key of `rel` under the prefix. */
  key(rel: string): string {
    return this.target.prefix ? `${this.target.prefix}/${rel}` : rel;
  }

  /**
   * The server's time now: its last `Date` header moved on by this process's monotonic clock, so neither a
   * jump of this host's clock nor a difference between the two clocks moves a lease. This host's clock
   * only until the server has answered once.
   */
  serverNow(): number {
    return this.clock ? this.clock.server + (performance.now() - this.clock.mono) : Date.now();
  }

  async get(rel: string): Promise<S3Object | undefined> {
    const { GetObjectCommand } = await loadS3();
    try {
      return await this.call("reading", rel, async (s3) => {
        const r = await s3.send(new GetObjectCommand({ Bucket: this.target.bucket, Key: this.key(rel) }));
        const text = (await r.Body?.transformToString("utf-8")) ?? "";
        return { text, etag: r.ETag ?? "", metadata: r.Metadata ?? {}, lastModified: r.LastModified ?? new Date(this.serverNow()), serverTime: new Date(this.serverNow()) };
      });
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw e;
    }
  }

  /** An object's ETag, metadata and time without its body, or undefined if it does not exist. */
  async head(rel: string): Promise<Omit<S3Object, "text"> | undefined> {
    const { HeadObjectCommand } = await loadS3();
    try {
      return await this.call("reading", rel, async (s3) => {
        const r = await s3.send(new HeadObjectCommand({ Bucket: this.target.bucket, Key: this.key(rel) }));
        return { etag: r.ETag ?? "", metadata: r.Metadata ?? {}, lastModified: r.LastModified ?? new Date(this.serverNow()), serverTime: new Date(this.serverNow()) };
      });
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw e;
    }
  }

  /**
   * Writes an object under `cond`; resolves with its new ETag. A condition that fails because an earlier
   * attempt of this same write landed (its answer lost on the way) is success: the object then holds
   * exactly `body`. Other precondition failures are rethrown as they are.
   */
  async put(rel: string, body: string, cond: WriteCondition, metadata?: Record<string, string>): Promise<string> {
    const { PutObjectCommand } = await loadS3();
    const command = () =>
      new PutObjectCommand({
        Bucket: this.target.bucket,
        Key: this.key(rel),
        Body: body,
        ContentType: rel.endsWith(".ndjson") ? "application/x-ndjson" : "application/json",
        ...(cond && "ifNoneMatch" in cond ? { IfNoneMatch: "*" } : {}),
        ...(cond && "ifMatch" in cond ? { IfMatch: cond.ifMatch } : {}),
        ...(metadata ? { Metadata: metadata } : {}),
      });
    let tries = 0;
    try {
      return await this.call("writing", rel, async (s3) => {
        tries++;
        return (await s3.send(command())).ETag ?? "";
      }, false);
    } catch (e) {
      if (!cond || !isPreconditionFailed(e) || tries < 2) throw e;
      const now = await this.get(rel);
      if (now?.text === body) return now.etag;
      throw e;
    }
  }

  /** Deletes one object, only if it is still version `ifMatch` when given (gone already after a retry: done). */
  async delete(rel: string, ifMatch?: string): Promise<void> {
    const { DeleteObjectCommand } = await loadS3();
    let tries = 0;
    try {
      await this.call("deleting", rel, async (s3) => {
        tries++;
        await s3.send(new DeleteObjectCommand({ Bucket: this.target.bucket, Key: this.key(rel), ...(ifMatch ? { IfMatch: ifMatch } : {}) }));
      }, false);
    } catch (e) {
      if (!(tries > 1 && isNotFound(e))) throw e;
    }
  }

  /** Deletes many objects (best effort: used for garbage such as compacted journal batches). */
  async deleteMany(rels: string[]): Promise<void> {
    const { DeleteObjectsCommand } = await loadS3();
    for (let i = 0; i < rels.length; i += 1000) {
      const chunk = rels.slice(i, i + 1000);
      await this.call("deleting", chunk[0]!, (s3) => s3.send(new DeleteObjectsCommand({ Bucket: this.target.bucket, Delete: { Objects: chunk.map((r) => ({ Key: this.key(r) })), Quiet: true } })));
    }
  }

  /** Every object under `rel` (a folder ending in `/`), in key order. */
  async list(rel: string): Promise<S3Listed[]> {
    const { ListObjectsV2Command } = await loadS3();
    const out: S3Listed[] = [];
    const base = this.key("");
    let token: string | undefined;
    do {
      const r = await this.call("listing", rel, (s3) => s3.send(new ListObjectsV2Command({ Bucket: this.target.bucket, Prefix: this.key(rel), ...(token ? { ContinuationToken: token } : {}) })));
      for (const o of r.Contents ?? []) out.push({ key: o.Key!.slice(base.length), size: o.Size ?? 0, lastModified: o.LastModified ?? new Date() });
      token = r.IsTruncated ? r.NextContinuationToken : undefined;
    } while (token);
    return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  /** The names of the folders directly under `rel`. */
  async folders(rel: string): Promise<string[]> {
    const { ListObjectsV2Command } = await loadS3();
    const names: string[] = [];
    let token: string | undefined;
    do {
      const r = await this.call("listing", rel, (s3) => s3.send(new ListObjectsV2Command({ Bucket: this.target.bucket, Prefix: this.key(rel), Delimiter: "/", ...(token ? { ContinuationToken: token } : {}) })));
      for (const p of r.CommonPrefixes ?? []) names.push(p.Prefix!.slice(this.key(rel).length).replace(/\/$/, ""));
      token = r.IsTruncated ? r.NextContinuationToken : undefined;
    } while (token);
    return names.sort();
  }

  /** How calls are retried: transient failures (a reset, a timeout, a 5xx) within the target's budget. */
  private policy(): RetryPolicy {
    return { where: `S3 bucket ${this.target.bucket}${this.target.endpoint ? ` at ${this.target.endpoint}` : ""}`, budgetMs: this.target.retryMs, isTransient: isTransientError, contact: this.target.contact };
  }

  /**
   * One S3 request, retried while it fails transiently. With `wrap` (the default) a refusal is turned into
   * an error naming the object; otherwise the SDK's error is thrown as it is (callers look at conditions).
   */
  private async call<T>(action: string, rel: string, f: (s3: S3Client) => Promise<T>, wrap = true): Promise<T> {
    const s3 = await this.s3();
    try {
      return await withRetry(this.policy(), `${action} s3://${this.target.bucket}/${this.key(rel)}`, () => f(s3));
    } catch (e) {
      if (!wrap || isNotFound(e)) throw e;
      throw s3Error(e, action, this.key(rel), this.target);
    }
  }

  private s3(): Promise<S3Client> {
    this.client ??= s3Client(this.target).then((client) => {
      // Every answer's Date header: the server's clock, for leases (see serverNow).
      client.middlewareStack.add(
        (next) => async (args) => {
          const out = await next(args);
          const date = (out.response as { headers?: Record<string, string> } | undefined)?.headers?.date;
          const server = date ? Date.parse(date) : Number.NaN;
          if (!Number.isNaN(server)) this.clock = { server, mono: performance.now() };
          return out;
        },
        { step: "deserialize", name: "cairnServerClock" },
      );
      // The last step before the request is sent: nothing asynchronous of the SDK's comes after it.
      client.middlewareStack.add(
        (next, context) => async (args) => {
          if (WRITES.has(context.commandName ?? "")) await this.fence?.((args.input as { Key?: string }).Key);
          return next(args);
        },
        { step: "finalizeRequest", priority: "low", name: "cairnWriteFence" },
      );
      return client;
    });
    return this.client;
  }
}
