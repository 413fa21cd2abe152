import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { afterAll, beforeAll } from "vitest";
import type { Socket } from "node:net";

interface Stored {
  body: string;
  etag: string;
  metadata: Record<string, string>;
  /** Server time (ms). */
  modified: number;
}

/** Faults the fake injects, decided per request. */
export interface S3Faults {
  /** Probability that a request's connection is dropped before it is applied. */
  dropBefore: number;
  /** Probability that a request is applied, then its connection dropped before the answer (the answer is lost). */
  dropAfter: number;
}

const xml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** A seeded random number generator (mulberry32): a failing trial can be replayed from its seed. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * An S3-compatible HTTP server for tests, on 127.0.0.1 only: path-style GET/HEAD/PUT/DELETE of objects with
 * `If-None-Match: *` and `If-Match` (412 as S3 answers), `DeleteObjects`, `ListObjectsV2` (prefix,
 * delimiter, pages). It can drop connections (before or after applying a request), go down for a while,
 * and run its clock off this host's (every answer's `Date` and each object's time follow it).
 *
 * @example const s3 = await startS3Fake(); const url = `s3://bucket/p?endpoint=${s3.endpoint}&forcePathStyle=true&region=us-east-1`; …; await s3.stop();
 */
export async function startS3Fake(opts: { pageSize?: number } = {}) {
  const objects = new Map<string, Stored>();
  const sockets = new Set<Socket>();
  let version = 0;
  let clockShiftMs = 0;
  let downUntil = 0;
  let faults: S3Faults = { dropBefore: 0, dropAfter: 0 };
  let random = Math.random;
  const stats = { requests: 0, dropped: 0 };
  const now = () => Date.now() + clockShiftMs;

  const server: Server = createServer((req, res) => {
    void handle(req, res).catch((e: unknown) => {
      res.statusCode = 500;
      res.end(`<Error><Code>InternalError</Code><Message>${xml(String(e))}</Message></Error>`);
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    stats.requests++;
    const body = await readBody(req);
    if (Date.now() < downUntil || random() < faults.dropBefore) return drop(req);
    const answer = apply(req, body);
    if (random() < faults.dropAfter) return drop(req);
    res.statusCode = answer.status;
    res.setHeader("date", new Date(now()).toUTCString());
    for (const [k, v] of Object.entries(answer.headers ?? {})) res.setHeader(k, v);
    res.end(req.method === "HEAD" ? undefined : (answer.body ?? ""));
  }

  function drop(req: IncomingMessage): void {
    stats.dropped++;
    req.socket.destroy();
  }

  function apply(req: IncomingMessage, body: string): { status: number; headers?: Record<string, string>; body?: string } {
    const url = new URL(req.url ?? "/", "http://fake");
    const [, bucket = "", ...rest] = url.pathname.split("/");
    const key = decodeURIComponent(rest.join("/"));
    const id = `${bucket}/${key}`;
    const h = req.headers;
    if (req.method === "GET" && !key && url.searchParams.get("list-type") === "2") return list(bucket, url.searchParams);
    if (req.method === "POST" && url.searchParams.has("delete")) {
      for (const m of body.matchAll(/<Key>([^<]*)<\/Key>/g)) objects.delete(`${bucket}/${unxml(m[1]!)}`);
      return { status: 200, headers: { "content-type": "application/xml" }, body: "<DeleteResult></DeleteResult>" };
    }
    const cur = objects.get(id);
    if (req.method === "GET" || req.method === "HEAD") {
      if (!cur) return error(404, "NoSuchKey", `The specified key does not exist: ${key}`);
      return { status: 200, headers: objectHeaders(cur), body: cur.body };
    }
    if (req.method === "PUT") {
      const failed = precondition(cur, h["if-match"] as string | undefined, h["if-none-match"] as string | undefined);
      if (failed) return failed;
      const etag = `"${createHash("md5").update(`${body}#${++version}`).digest("hex")}"`;
      const metadata: Record<string, string> = {};
      for (const [k, v] of Object.entries(h)) if (k.startsWith("x-amz-meta-")) metadata[k.slice(11)] = String(v);
      objects.set(id, { body, etag, metadata, modified: now() });
      return { status: 200, headers: { etag } };
    }
    if (req.method === "DELETE") {
      const failed = precondition(cur, h["if-match"] as string | undefined, undefined);
      if (failed) return failed;
      objects.delete(id);
      return { status: 204 };
    }
    return error(400, "InvalidRequest", `${req.method} is not supported by the fake`);
  }

  function precondition(cur: Stored | undefined, ifMatch: string | undefined, ifNoneMatch: string | undefined) {
    if (ifNoneMatch === "*" && cur) return error(412, "PreconditionFailed", "At least one of the pre-conditions you specified did not hold");
    if (ifMatch !== undefined && !cur) return error(404, "NoSuchKey", "The specified key does not exist");
    if (ifMatch !== undefined && cur && ifMatch !== "*" && cur.etag !== ifMatch) return error(412, "PreconditionFailed", "At least one of the pre-conditions you specified did not hold");
    return undefined;
  }

  function objectHeaders(o: Stored): Record<string, string> {
    const meta = Object.fromEntries(Object.entries(o.metadata).map(([k, v]) => [`x-amz-meta-${k}`, v]));
    return { etag: o.etag, "last-modified": new Date(o.modified).toUTCString(), "content-length": String(Buffer.byteLength(o.body)), "content-type": "application/octet-stream", ...meta };
  }

  function list(bucket: string, q: URLSearchParams) {
    const prefix = q.get("prefix") ?? "";
    const delimiter = q.get("delimiter");
    const keys = [...objects.keys()].filter((k) => k.startsWith(`${bucket}/${prefix}`)).map((k) => k.slice(bucket.length + 1)).sort();
    if (delimiter) {
      const folders = [...new Set(keys.map((k) => k.slice(prefix.length)).filter((r) => r.includes(delimiter)).map((r) => prefix + r.slice(0, r.indexOf(delimiter) + 1)))];
      const prefixes = folders.map((f) => `<CommonPrefixes><Prefix>${xml(f)}</Prefix></CommonPrefixes>`).join("");
      return { status: 200, headers: { "content-type": "application/xml" }, body: `<ListBucketResult><Name>${bucket}</Name><IsTruncated>false</IsTruncated>${prefixes}</ListBucketResult>` };
    }
    const start = Number(q.get("continuation-token") ?? "0");
    const size = opts.pageSize ?? 1000;
    const page = keys.slice(start, start + size);
    const truncated = start + size < keys.length;
    const contents = page
      .map((k) => {
        const o = objects.get(`${bucket}/${k}`)!;
        return `<Contents><Key>${xml(k)}</Key><Size>${Buffer.byteLength(o.body)}</Size><LastModified>${new Date(o.modified).toISOString()}</LastModified><ETag>${xml(o.etag)}</ETag></Contents>`;
      })
      .join("");
    const next = truncated ? `<NextContinuationToken>${start + size}</NextContinuationToken>` : "";
    return { status: 200, headers: { "content-type": "application/xml" }, body: `<ListBucketResult><Name>${bucket}</Name><IsTruncated>${truncated}</IsTruncated>${contents}${next}</ListBucketResult>` };
  }

  return {
    endpoint: `http://127.0.0.1:${port}`,
    /** Objects by `bucket/key`. */
    objects,
    stats,
    /** Sets the faults injected from now on, decided by `rng` (default Math.random). */
    faults(f: Partial<S3Faults>, rng: () => number = Math.random) {
      faults = { dropBefore: 0, dropAfter: 0, ...f };
      random = rng;
    },
    /** Drops every open connection and every request for `ms`: the network is down. */
    down(ms: number) {
      downUntil = Date.now() + ms;
      for (const s of sockets) s.destroy();
    },
    /** Runs the server's clock `ms` off this host's. */
    shiftClock(ms: number) {
      clockShiftMs = ms;
    },
    /** The server's time now. */
    now,
    /** Puts an object directly, as written `ageMs` ago by the server's clock. */
    seed(bucketKey: string, body: string, ageMs = 0) {
      objects.set(bucketKey, { body, etag: `"seed${++version}"`, metadata: {}, modified: now() - ageMs });
    },
    async stop() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

function unxml(s: string): string {
  return s.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

function error(status: number, code: string, message: string) {
  return { status, headers: { "content-type": "application/xml" }, body: `<Error><Code>${code}</Code><Message>${xml(message)}</Message></Error>` };
}

/** The request body as text; an `aws-chunked` body (a streamed checksum) is decoded. */
async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const raw = Buffer.concat(chunks);
  if (!String(req.headers["content-encoding"] ?? "").includes("aws-chunked")) return raw.toString("utf8");
  const out: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = raw.indexOf("\r\n", at);
    const size = parseInt(raw.toString("latin1", at, eol).split(";")[0]!, 16);
    if (!size) break;
    out.push(raw.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(out).toString("utf8");
}

/**
 * Starts the fake for a test file (and stops it after), with credentials the SDK signs with: the fake on
 * 127.0.0.1 checks none, and nothing reaches AWS. Returns the fake (read it inside tests) and the URL of a
 * backend in it.
 *
 * @example const s3 = useS3Fake(); … s3.fake().down(3000); s3.url("&retry=1")
 */
export function useS3Fake() {
  let fake: Awaited<ReturnType<typeof startS3Fake>> | undefined;
  const saved = { ...process.env };
  beforeAll(async () => {
    fake = await startS3Fake();
    Object.assign(process.env, { AWS_ACCESS_KEY_ID: "test", AWS_SECRET_ACCESS_KEY: "test", AWS_REGION: "us-east-1" });
    delete process.env.AWS_PROFILE;
  });
  afterAll(async () => {
    await fake?.stop();
    process.env = saved;
  });
  return {
    fake: () => fake!,
    url: (extra = "") => `s3://state/cairn?region=us-east-1&endpoint=${encodeURIComponent(fake!.endpoint)}&forcePathStyle=true${extra}`,
  };
}
