/**
 * The fake Cloud Control over HTTP, speaking the API's JSON 1.0 protocol on 127.0.0.1, so the real AWS SDK
 * (and the whole of Cairn's Cloud Control provider) talks to it as to AWS.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { FakeCloudControl, type FakeCloudControlOptions } from "./fake-cloud.js";
import { FakeApiError } from "./fake-errors.js";
import { FakeS3, s3Body } from "./fake-s3.js";
import { Provider } from "../../providers/aws/provider.js";

/** A running fake: where it listens, the cloud behind it, and how to stop it. */
export interface ServedFakeCloudControl {
  /** `http://127.0.0.1:<port>`: give it as `endpoint` to an `aws.Provider`, or as `AWS_ENDPOINT_URL_CLOUDCONTROL`. */
  endpoint: string;
  cloud: FakeCloudControl;
  /** The S3 objects Lambda code assets were uploaded as, into the fake cloud's buckets. */
  s3: FakeS3;
  /** Environment variables that point a child process (`npx tsx infra.ts up`) at the fake. */
  env: Record<string, string>;
  /**
   * An `aws.Provider` pointed at the fake (with dummy credentials): give it to a stack as the default,
   * `program.stack({ defaultProviders: { aws: fake.provider } })`, or to resources with `opts.provider`.
   */
  provider: Provider;
  /** Stops listening and closes open connections. */
  stop(): Promise<void>;
}

const PREFIX = "CloudApiService.";

async function body(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

/**
 * Serves a fake Cloud Control on 127.0.0.1 (a free port unless `port` is given). Stop it when done.
 *
 * @example
 * const fake = await serveFakeCloudControl({ pollsToFinish: 2 });
 * await app.stack({ backend: "memory://", defaultProviders: { aws: fake.provider } }).up();
 * expect(fake.cloud.objects("AWS::SQS::Queue")).toHaveLength(1);
 * await fake.stop();
 */
export async function serveFakeCloudControl(options: FakeCloudControlOptions & { port?: number; cloud?: FakeCloudControl } = {}): Promise<ServedFakeCloudControl> {
  const cloud = options.cloud ?? new FakeCloudControl(options);
  const s3 = new FakeS3(() => cloud.objects("AWS::S3::Bucket").map((b) => b.identifier));
  const server: Server = createServer((req, res) => {
    if (s3.serves(req)) return void s3Body(req).then((b) => s3.answer(req, res, b));
    const target = String(req.headers["x-amz-target"] ?? "");
    const reply = (status: number, payload: unknown) => {
      res.writeHead(status, { "content-type": "application/x-amz-json-1.0" });
      res.end(JSON.stringify(payload));
    };
    body(req)
      .then((input) => (target.startsWith(PREFIX) ? cloud.handle(target.slice(PREFIX.length), input) : Promise.reject(new FakeApiError("UnknownOperationException", `unknown target ${target}`))))
      .then((out) => reply(200, out ?? {}))
      .catch((e: unknown) => {
        const err = e instanceof FakeApiError ? e : new FakeApiError("ServiceInternalErrorException", (e as Error).message, 500);
        res.setHeader("x-amzn-errortype", err.name);
        reply(err.status, { __type: `com.amazonaws.cloudcontrol#${err.name}`, Message: err.message });
      });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const port = (server.address() as AddressInfo).port;
  return {
    endpoint,
    cloud,
    s3,
    provider: new Provider(`fake-cloudcontrol-${port}`, { region: "us-east-1", endpoint, credentials: { accessKeyId: "fake", secretAccessKey: "fake" } }),
    env: { AWS_ENDPOINT_URL_CLOUDCONTROL: endpoint, AWS_ENDPOINT_URL_S3: endpoint, AWS_REGION: "us-east-1", AWS_ACCESS_KEY_ID: "fake", AWS_SECRET_ACCESS_KEY: "fake" },
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((e) => (e ? reject(e) : resolve()));
      }),
  };
}
