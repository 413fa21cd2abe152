import { createHash } from "node:crypto";
import { mockClient } from "aws-sdk-client-mock";
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";

interface Stored {
  body: string;
  etag: string;
  metadata: Record<string, string>;
  lastModified: Date;
}

function s3Error(name: string, status: number, message: string): S3ServiceException {
  return new S3ServiceException({ name, $fault: "client", $metadata: { httpStatusCode: status }, message });
}

/**
 * A stateful in-memory S3 bucket behind aws-sdk-client-mock that honours `If-None-Match: *` and
 * `If-Match` on PutObject and DeleteObject the way S3 does (412 PreconditionFailed; If-Match on a
 * missing key: 404 NoSuchKey), lists with pagination, and records every write with the conditions it
 * carried. Conditions are enforced only when sent: code that stops sending them is caught by the tests.
 *
 * @example
 * const s3 = fakeS3(); // mocks every S3Client
 * …; s3.restore();
 */
export function fakeS3(opts: { pageSize?: number } = {}) {
  const mock = mockClient(S3Client);
  const objects = new Map<string, Stored>();
  const writes: { key: string; ifMatch?: string; ifNoneMatch?: string }[] = [];
  let version = 0;
  const pageSize = opts.pageSize ?? 1000;
  const key = (input: { Bucket?: string; Key?: string }) => `${input.Bucket}/${input.Key}`;
  const found = (k: string) => {
    const o = objects.get(k);
    if (!o) throw s3Error("NoSuchKey", 404, `The specified key does not exist: ${k}`);
    return o;
  };
  const checkMatch = (k: string, ifMatch: string | undefined, ifNoneMatch: string | undefined) => {
    const cur = objects.get(k);
    if (ifNoneMatch === "*" && cur) throw s3Error("PreconditionFailed", 412, `At least one of the pre-conditions you specified did not hold (${k} exists)`);
    if (ifMatch !== undefined) {
      if (!cur) throw s3Error("NoSuchKey", 404, `The specified key does not exist: ${k}`);
      if (ifMatch !== "*" && cur.etag !== ifMatch) throw s3Error("PreconditionFailed", 412, `At least one of the pre-conditions you specified did not hold (${k} has ${cur.etag})`);
    }
  };

  mock.on(PutObjectCommand).callsFake((input) => {
    const k = key(input);
    writes.push({ key: input.Key!, ...(input.IfMatch ? { ifMatch: input.IfMatch } : {}), ...(input.IfNoneMatch ? { ifNoneMatch: input.IfNoneMatch } : {}) });
    checkMatch(k, input.IfMatch, input.IfNoneMatch);
    const body = String(input.Body);
    const etag = `"${createHash("md5").update(`${body}#${++version}`).digest("hex")}"`;
    objects.set(k, { body, etag, metadata: { ...(input.Metadata ?? {}) }, lastModified: new Date() });
    return { ETag: etag };
  });
  mock.on(GetObjectCommand).callsFake((input) => {
    const o = found(key(input));
    return { Body: { transformToString: async () => o.body }, ETag: o.etag, Metadata: o.metadata, LastModified: o.lastModified };
  });
  mock.on(HeadObjectCommand).callsFake((input) => {
    const o = found(key(input));
    return { ETag: o.etag, Metadata: o.metadata, LastModified: o.lastModified, ContentLength: Buffer.byteLength(o.body) };
  });
  mock.on(DeleteObjectCommand).callsFake((input) => {
    const k = key(input);
    checkMatch(k, input.IfMatch, undefined);
    objects.delete(k);
    return {};
  });
  mock.on(DeleteObjectsCommand).callsFake((input) => {
    for (const o of input.Delete?.Objects ?? []) objects.delete(`${input.Bucket}/${o.Key}`);
    return {};
  });
  mock.on(ListObjectsV2Command).callsFake((input) => {
    const prefix = `${input.Bucket}/${input.Prefix ?? ""}`;
    const keys = [...objects.keys()].filter((k) => k.startsWith(prefix)).sort();
    const start = input.ContinuationToken ? Number(input.ContinuationToken) : 0;
    if (input.Delimiter) {
      const folders = [...new Set(keys.map((k) => k.slice(prefix.length)).filter((r) => r.includes(input.Delimiter!)).map((r) => r.slice(0, r.indexOf(input.Delimiter!) + 1)))];
      return { CommonPrefixes: folders.map((f) => ({ Prefix: `${input.Prefix ?? ""}${f}` })), IsTruncated: false };
    }
    const page = keys.slice(start, start + pageSize);
    const truncated = start + pageSize < keys.length;
    return {
      Contents: page.map((k) => ({ Key: k.slice(`${input.Bucket}/`.length), Size: Buffer.byteLength(objects.get(k)!.body), LastModified: objects.get(k)!.lastModified })),
      IsTruncated: truncated,
      ...(truncated ? { NextContinuationToken: String(start + pageSize) } : {}),
    };
  });

  return {
    /** Objects by `bucket/key`. */
    objects,
    /** Every PutObject, with the conditions it carried. */
    writes,
    /** Text of `bucket/key`, or undefined. */
    text: (bucketKey: string) => objects.get(bucketKey)?.body,
    /** Puts an object directly (as another tool or host would), `ageMs` old. */
    seed(bucketKey: string, body: string, ageMs = 0) {
      objects.set(bucketKey, { body, etag: `"seed${++version}"`, metadata: {}, lastModified: new Date(Date.now() - ageMs) });
    },
    restore: () => mock.restore(),
  };
}
