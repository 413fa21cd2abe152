import { describe, expect, it } from "vitest";
import { createServer } from "node:net";
import { CloudControlClient, GetResourceCommand } from "@aws-sdk/client-cloudcontrol";
import { AwsError, awsCall, unreachableAddress } from "../../../src/providers/aws/call.js";
import { clientConfig } from "../../../src/providers/aws/client-cache.js";
import { FakeClock } from "../../../src/testing/fake-clock.js";
import { isTransientError } from "../../../src/core/errors.js";

const ctx = (clock: FakeClock) => ({ clock, signal: new AbortController().signal });

/** A port on 127.0.0.1 that nothing listens on (taken, then given back). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((res) => server.listen(0, "127.0.0.1", res));
  const { port } = server.address() as { port: number };
  await new Promise<void>((res) => server.close(() => res()));
  return port;
}

describe("an AWS endpoint where nothing answers", () => {
  it("fails after 3 tries within seconds, naming the endpoint, and is not retried further as transient", async () => {
    const port = await closedPort();
    const client = new CloudControlClient(clientConfig({ region: "us-east-1", endpoint: `http://127.0.0.1:${port}`, credentials: { accessKeyId: "a", secretAccessKey: "b" } }));
    const clock = new FakeClock({ auto: true });
    const start = clock.now();
    let sent = 0;
    const err = await awsCall(ctx(clock), "Cloud Control", "GetResource", (abortSignal) => {
      sent++;
      return client.send(new GetResourceCommand({ TypeName: "AWS::S3::Bucket", Identifier: "b" }), { abortSignal });
    }).catch((e: unknown) => e);

    expect(sent).toBe(3);
    expect(clock.now() - start).toBeLessThanOrEqual(3000);
    expect(err).toBeInstanceOf(AwsError);
    expect((err as AwsError).code).toBe("EndpointUnreachable");
    expect((err as Error).message).toContain(`Nothing answers at the Cloud Control endpoint 127.0.0.1:${port} (connection refused; tried 3 times)`);
    expect((err as Error).message).toMatch(/AWS_ENDPOINT_URL/);
    expect(isTransientError(err)).toBe(false);
  });

  it("names the host whose name does not resolve", async () => {
    const clock = new FakeClock({ auto: true });
    const notFound = Object.assign(new Error("getaddrinfo ENOTFOUND cloudcontrolapi.xx-nowhere-1.amazonaws.com"), { code: "ENOTFOUND", hostname: "cloudcontrolapi.xx-nowhere-1.amazonaws.com" });
    const err = await awsCall(ctx(clock), "Cloud Control", "CreateResource", () => Promise.reject(notFound)).catch((e: Error) => e);
    expect(err.message).toContain("Nothing answers at the Cloud Control endpoint cloudcontrolapi.xx-nowhere-1.amazonaws.com (unknown host; tried 3 times)");
  });

  it("tells refused and unresolved addresses from other network failures, in causes and in Node's AggregateError", () => {
    const refused = (address: string) => Object.assign(new Error("refused"), { code: "ECONNREFUSED", address, port: 4566 });
    expect(unreachableAddress(new AggregateError([refused("::1"), refused("127.0.0.1")]))).toBe("::1:4566");
    expect(unreachableAddress(new Error("wrapped", { cause: refused("127.0.0.1") }))).toBe("127.0.0.1:4566");
    expect(unreachableAddress(Object.assign(new Error("reset"), { code: "ECONNRESET" }))).toBeUndefined();
    expect(unreachableAddress(new AggregateError([refused("::1"), Object.assign(new Error("t"), { code: "ETIMEDOUT" })]))).toBeUndefined();
  });

  it("keeps retrying a connection reset (a dropped connection to an endpoint that answered) as before", async () => {
    const clock = new FakeClock({ auto: true });
    let n = 0;
    const out = await awsCall(ctx(clock), "Cloud Control", "GetResource", async () => {
      if (++n <= 4) throw Object.assign(new Error("socket hang up"), { code: "ECONNRESET" });
      return "ok";
    });
    expect([out, n]).toEqual(["ok", 5]);
  });
});
