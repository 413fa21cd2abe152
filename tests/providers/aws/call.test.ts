import { describe, expect, it } from "vitest";
import { ACMClient } from "@aws-sdk/client-acm";
import { Route53Client } from "@aws-sdk/client-route-53";
import { AwsError, awsCall } from "../../../src/providers/aws/call.js";
import { acmClient, route53Client } from "../../../src/providers/aws/clients.js";
import { Provider, resolveProvider } from "../../../src/providers/aws/provider.js";
import { FakeClock } from "../../../src/testing/fake-clock.js";
import { isTransientError } from "../../../src/core/errors.js";

const sdkError = (name: string, message = name, extra: Record<string, unknown> = {}) => Object.assign(new Error(message), { name, $metadata: {}, ...extra });
const ctx = (clock = new FakeClock({ auto: true })) => ({ clock, signal: new AbortController().signal });

describe("awsCall", () => {
  it("retries throttling with growing, jittered pauses on the op's clock, then returns", async () => {
    const clock = new FakeClock({ auto: true });
    const start = clock.now();
    let n = 0;
    const out = await awsCall(ctx(clock), "Route 53", "ChangeResourceRecordSets", async () => {
      if (++n <= 3) throw sdkError("Throttling", "Rate exceeded", { $retryable: { throttling: true } });
      return "ok";
    });
    expect(out).toBe("ok");
    expect(n).toBe(4);
    // Full jitter under ceilings 300, 600, 1200 ms: at most 2.1 s of (fake) time.
    expect(clock.now() - start).toBeLessThanOrEqual(2100);
  });

  it("fails at once on access denied, with the code, the operation and what to do", async () => {
    let n = 0;
    const err = await awsCall(ctx(), "ACM", "RequestCertificate", async () => {
      n++;
      throw sdkError("AccessDeniedException", "User: arn:aws:iam::1:user/x is not authorized to perform: acm:RequestCertificate");
    }).catch((e: unknown) => e);
    expect(n).toBe(1);
    expect(err).toBeInstanceOf(AwsError);
    expect((err as AwsError).code).toBe("AccessDeniedException");
    expect((err as Error).message).toMatch(/^ACM RequestCertificate failed: AccessDeniedException: User: .* is not authorized .*\. The credentials in use were refused or lack permission for acm:RequestCertificate/);
  });

  it("explains missing credentials and a missing region", async () => {
    const noCreds = await awsCall(ctx(), "Route 53", "ListHostedZonesByName", async () => {
      throw sdkError("CredentialsProviderError", "Could not load credentials from any providers");
    }).catch((e: Error) => e);
    expect(noCreds.message).toMatch(/No AWS credentials were found: set AWS_PROFILE .* or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or pass credentials to new aws.Provider/);
    const noRegion = await awsCall(ctx(), "ACM", "DescribeCertificate", async () => {
      throw new Error("Region is missing");
    }).catch((e: Error) => e);
    expect(noRegion.message).toMatch(/No AWS region is set: set AWS_REGION, or pass \{ region \} to new aws.Provider/);
  });

  it("gives up on a transient error after maxAttempts, still recognisable as transient for waits", async () => {
    let n = 0;
    const err = await awsCall(ctx(), "ACM", "ListCertificates", async () => {
      n++;
      throw sdkError("ServiceUnavailable", "try later", { $fault: "server" });
    }, { maxAttempts: 3 }).catch((e: unknown) => e);
    expect(n).toBe(3);
    expect((err as Error).message).toMatch(/gave up after 3 attempts/);
    expect(isTransientError(err)).toBe(true);
  });

  it("retries chosen permanent errors too (retryAlso), and stops when cancelled", async () => {
    const abort = new AbortController();
    let n = 0;
    const err = await awsCall({ clock: new FakeClock({ auto: true }), signal: abort.signal }, "ACM", "DeleteCertificate", async () => {
      if (++n === 2) abort.abort();
      throw sdkError("ResourceInUseException");
    }, { retryAlso: (e) => (e as Error).name === "ResourceInUseException" }).catch((e: unknown) => e);
    expect(n).toBe(2);
    expect((err as AwsError).code).toBe("ResourceInUseException");
  });
});

describe("awsCall cancellation", () => {
  // What the SDK's HTTP handler does with { abortSignal }: the request is dropped and the call rejects.
  const hangUntilAborted = (signal: AbortSignal) =>
    new Promise<never>((_, reject) => {
      signal.addEventListener("abort", () => reject(Object.assign(new Error("Request aborted"), { name: "AbortError", cause: signal.reason })), { once: true });
    });

  it("hands the operation's signal to send, so a request in flight stops when the operation is cancelled (as an AwsError saying why)", async () => {
    const abort = new AbortController();
    const seen: AbortSignal[] = [];
    const call = awsCall({ clock: new FakeClock({ auto: true }), signal: abort.signal }, "ACM", "RequestCertificate", (abortSignal) => {
      seen.push(abortSignal);
      return hangUntilAborted(abortSignal);
    }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 5));
    abort.abort(new Error("cancelled by the user"));
    const err = await call;
    expect(seen).toEqual([abort.signal]);
    expect(err).toBeInstanceOf(AwsError);
    expect((err as AwsError).code).toBe("AbortError");
    expect((err as Error).message).toMatch(/^ACM RequestCertificate failed: AbortError: Request aborted\. Stopped: the operation was cancelled \(cancelled by the user\); AWS may still have applied the request/);
  });

  it("stops at a custom timeout too, without retrying (the timeout's reason looks transient)", async () => {
    let n = 0;
    const err = await awsCall({ clock: new FakeClock({ auto: true }), signal: AbortSignal.timeout(10) }, "Route 53", "ChangeResourceRecordSets", (abortSignal) => {
      n++;
      return hangUntilAborted(abortSignal);
    }).catch((e: unknown) => e);
    expect(n).toBe(1);
    expect(err).toBeInstanceOf(AwsError);
    expect((err as Error).message).toMatch(/Route 53 ChangeResourceRecordSets failed: AbortError: .*cancelled \(The operation was aborted due to timeout\)/);
  });

  it("fails as an AwsError, not with the bare abort reason, when cancelled while pausing before a retry", async () => {
    const abort = new AbortController();
    const clock = new FakeClock();
    let n = 0;
    const call = awsCall({ clock, signal: abort.signal }, "ACM", "ListCertificates", async () => {
      n++;
      throw sdkError("ThrottlingException", "Rate exceeded", { $retryable: { throttling: true } });
    }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 5));
    abort.abort(new Error("cancelled by the user"));
    const err = await call;
    expect(n).toBe(1);
    expect(err).toBeInstanceOf(AwsError);
    expect((err as AwsError).code).toBe("ThrottlingException");
    expect((err as Error).message).toMatch(/cancelled \(cancelled by the user\)/);
  });
});

describe("clients and aws.Provider", () => {
  it("build one client per configuration, with the instance's region and endpoint", async () => {
    const p = new Provider("call-test-use1", { region: "us-east-1", endpoint: "http://127.0.0.1:4566" });
    const a = acmClient({ provider: p });
    expect(a).toBeInstanceOf(ACMClient);
    expect(acmClient({ provider: p })).toBe(a);
    expect(await a.config.region()).toBe("us-east-1");
    const ep = await a.config.endpoint!();
    expect(`${ep.protocol}//${ep.hostname}:${ep.port}`).toBe("http://127.0.0.1:4566");
    expect(acmClient({ provider: new Provider("call-test-euw1", { region: "eu-west-1" }) })).not.toBe(a);
    expect(route53Client({ provider: p })).toBeInstanceOf(Route53Client);
  });

  it("record only where objects live (region, endpoint), never the profile or credentials", () => {
    const p = new Provider("call-test-rec", { region: "eu-west-1", profile: "prod", credentials: { accessKeyId: "AKIA", secretAccessKey: "s3cret" } });
    expect(p.settings).toEqual({ region: "eu-west-1" });
    // A reference read back from state finds the live instance of that name for its credentials.
    expect(resolveProvider({ package: "aws", name: "call-test-rec", settings: { region: "eu-west-1" } })).toMatchObject({ profile: "prod", region: "eu-west-1" });
    expect(() => new Provider("bad name")).toThrow(/Invalid aws.Provider name "bad name"/);
  });
});
