import { createServer, type Server } from "node:http";
import type { Case } from "./case.js";

// An S3-compatible server on 127.0.0.1 where no bucket exists: every request gets S3's NoSuchBucket answer.

let server: Server | undefined;
let port = 0;
const saved: Record<string, string | undefined> = {};

async function start(): Promise<void> {
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.statusCode = 404;
      res.setHeader("content-type", "application/xml");
      res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchBucket</Code><Message>The specified bucket does not exist</Message><BucketName>gone</BucketName></Error>`);
    });
  });
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
  port = (server.address() as { port: number }).port;
  // The SDK signs with these; the server checks none, and nothing reaches AWS.
  for (const [k, v] of Object.entries({ AWS_ACCESS_KEY_ID: "test", AWS_SECRET_ACCESS_KEY: "test", AWS_PROFILE: undefined })) {
    saved[k] = process.env[k];
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
}

async function stop(): Promise<void> {
  await new Promise((r) => server?.close(r));
  server = undefined;
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
}

const url = () => `s3://gone/cairn?region=us-east-1&forcePathStyle=true&retry=1&endpoint=${encodeURIComponent(`http://127.0.0.1:${port}`)}`;

/** A backend in a bucket that does not exist, seen by commands that read and that write. */
export const noBucketCases: Case[] = [["preview"], ["up", "--yes"], ["state", "list"], ["config", "set", "k", "v"]].map((args) => ({
  what: `an S3 backend whose bucket does not exist, seen by ${args.slice(0, 2).join(" ")}`,
  argv: () => [...args, "--backend", url()],
  code: 1,
  before: start,
  after: stop,
  message: /the bucket "gone" of the S3 backend s3:\/\/gone\/cairn\?.* does not exist \(NoSuchBucket at http:\/\/127\.0\.0\.1:\d+\): create it first \(Cairn does not create buckets\), or fix the bucket in --backend \/ CAIRN_BACKEND/,
}));
