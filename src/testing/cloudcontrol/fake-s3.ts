/**
 * The S3 object calls an asset makes (HeadObject, PutObject, GetObject, DeleteObject), served by the fake Cloud
 * Control's server: path-style `/<bucket>/<key>`, into buckets the fake cloud holds (`AWS::S3::Bucket`),
 * so a program whose Lambda code is a folder runs against one fake.
 */
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

/** One stored object. */
export interface FakeS3Object {
  bytes: Buffer;
  etag: string;
}

/**
 * Objects by `bucket/key`, and how many PutObject calls were made (an unchanged re-run makes none).
 *
 * @example const store = new FakeS3(() => ["assets"]); store.objects.get("assets/<hash>.zip")
 */
export class FakeS3 {
  readonly objects = new Map<string, FakeS3Object>();
  /** PutObject calls served. */
  puts = 0;

  constructor(private readonly buckets: () => readonly string[]) {}

  /**
   * Answers an S3 request; false when `req` is not one (it carries an `x-amz-target`: Cloud Control's JSON protocol).
   *
   * @example if (s3.serves(req)) return void s3.answer(req, res, body);
   */
  serves(req: IncomingMessage): boolean {
    return req.headers["x-amz-target"] === undefined && ["PUT", "HEAD", "GET", "DELETE"].includes(req.method ?? "");
  }

  /** Answers `req` (see {@link serves}) with `body`, the request's bytes. */
  answer(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
    const [, bucket = "", ...rest] = new URL(req.url ?? "/", "http://fake").pathname.split("/");
    const key = decodeURIComponent(rest.join("/"));
    if (!this.buckets().includes(bucket)) return error(res, 404, "NoSuchBucket", `The specified bucket does not exist: ${bucket}`);
    if (req.method === "PUT") {
      this.puts++;
      const etag = `"${createHash("md5").update(body).digest("hex")}"`;
      this.objects.set(`${bucket}/${key}`, { bytes: body, etag });
      res.writeHead(200, { etag });
      return void res.end();
    }
    if (req.method === "DELETE") {
      this.objects.delete(`${bucket}/${key}`);
      res.writeHead(204);
      return void res.end();
    }
    const o = this.objects.get(`${bucket}/${key}`);
    if (!o) return error(res, 404, "NoSuchKey", `The specified key does not exist: ${key}`);
    res.writeHead(200, { etag: o.etag, "content-length": String(o.bytes.length), "content-type": "application/zip" });
    res.end(req.method === "HEAD" ? undefined : o.bytes);
  }
}

function error(res: ServerResponse, status: number, code: string, message: string): void {
  res.writeHead(status, { "content-type": "application/xml" });
  res.end(`<Error><Code>${code}</Code><Message>${message}</Message></Error>`);
}

/**
 * A request body's bytes; an `aws-chunked` body (the SDK streams a checksum after it) is decoded.
 *
 * @example const bytes = await s3Body(req);
 */
export async function s3Body(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const raw = Buffer.concat(chunks);
  if (!String(req.headers["content-encoding"] ?? "").includes("aws-chunked")) return raw;
  const out: Buffer[] = [];
  for (let at = 0; ; ) {
    const eol = raw.indexOf("\r\n", at);
    const size = parseInt(raw.toString("latin1", at, eol).split(";")[0]!, 16);
    if (!size) break;
    out.push(raw.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(out);
}
