import type { ListObjectsV2Command, ListObjectsV2CommandOutput, S3Client } from "@aws-sdk/client-s3";
import { isNotFound, loadS3, s3Client, s3Error, type S3Target } from "./s3-target.js";

/** One object as read. */
export interface S3Object {
  text: string;
  etag: string;
  metadata: Record<string, string>;
  lastModified: Date;
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

  constructor(readonly target: S3Target) {}

  /** The full key of `rel` under the prefix. */
  key(rel: string): string {
    return this.target.prefix ? `${this.target.prefix}/${rel}` : rel;
  }

  async get(rel: string): Promise<S3Object | undefined> {
    const { GetObjectCommand } = await loadS3();
    try {
      const r = await (await this.s3()).send(new GetObjectCommand({ Bucket: this.target.bucket, Key: this.key(rel) }));
      return { text: (await r.Body?.transformToString("utf-8")) ?? "", etag: r.ETag ?? "", metadata: r.Metadata ?? {}, lastModified: r.LastModified ?? new Date() };
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw s3Error(e, "reading", this.key(rel), this.target);
    }
  }

  /** An object's ETag, metadata and time without its body, or undefined if it does not exist. */
  async head(rel: string): Promise<Omit<S3Object, "text"> | undefined> {
    const { HeadObjectCommand } = await loadS3();
    try {
      const r = await (await this.s3()).send(new HeadObjectCommand({ Bucket: this.target.bucket, Key: this.key(rel) }));
      return { etag: r.ETag ?? "", metadata: r.Metadata ?? {}, lastModified: r.LastModified ?? new Date() };
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw s3Error(e, "reading", this.key(rel), this.target);
    }
  }

  /** Writes an object under `cond`; resolves with its new ETag. Precondition failures are rethrown as they are. */
  async put(rel: string, body: string, cond: WriteCondition, metadata?: Record<string, string>): Promise<string> {
    const { PutObjectCommand } = await loadS3();
    const r = await (await this.s3()).send(
      new PutObjectCommand({
        Bucket: this.target.bucket,
        Key: this.key(rel),
        Body: body,
        ContentType: rel.endsWith(".ndjson") ? "application/x-ndjson" : "application/json",
        ...(cond && "ifNoneMatch" in cond ? { IfNoneMatch: "*" } : {}),
        ...(cond && "ifMatch" in cond ? { IfMatch: cond.ifMatch } : {}),
        ...(metadata ? { Metadata: metadata } : {}),
      }),
    );
    return r.ETag ?? "";
  }

  /** Deletes one object, only if it is still version `ifMatch` when given. */
  async delete(rel: string, ifMatch?: string): Promise<void> {
    const { DeleteObjectCommand } = await loadS3();
    await (await this.s3()).send(new DeleteObjectCommand({ Bucket: this.target.bucket, Key: this.key(rel), ...(ifMatch ? { IfMatch: ifMatch } : {}) }));
  }

  /** Deletes many objects (best effort: used for garbage such as compacted journal batches). */
  async deleteMany(rels: string[]): Promise<void> {
    const { DeleteObjectsCommand } = await loadS3();
    for (let i = 0; i < rels.length; i += 1000) {
      const chunk = rels.slice(i, i + 1000);
      await (await this.s3()).send(new DeleteObjectsCommand({ Bucket: this.target.bucket, Delete: { Objects: chunk.map((r) => ({ Key: this.key(r) })), Quiet: true } }));
    }
  }

  /** Every object under `rel` (a folder ending in `/`), in key order. */
  async list(rel: string): Promise<S3Listed[]> {
    const { ListObjectsV2Command } = await loadS3();
    const out: S3Listed[] = [];
    const base = this.key("");
    let token: string | undefined;
    do {
      const r = await this.send("listing", rel, new ListObjectsV2Command({ Bucket: this.target.bucket, Prefix: this.key(rel), ...(token ? { ContinuationToken: token } : {}) }));
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
      const r = await this.send("listing", rel, new ListObjectsV2Command({ Bucket: this.target.bucket, Prefix: this.key(rel), Delimiter: "/", ...(token ? { ContinuationToken: token } : {}) }));
      for (const p of r.CommonPrefixes ?? []) names.push(p.Prefix!.slice(this.key(rel).length).replace(/\/$/, ""));
      token = r.IsTruncated ? r.NextContinuationToken : undefined;
    } while (token);
    return names.sort();
  }

  private async send<T extends ListObjectsV2CommandOutput>(action: string, rel: string, command: ListObjectsV2Command): Promise<T> {
    try {
      return (await (await this.s3()).send(command)) as T;
    } catch (e) {
      throw s3Error(e, action, this.key(rel), this.target);
    }
  }

  private s3(): Promise<S3Client> {
    this.client ??= s3Client(this.target);
    return this.client;
  }
}
