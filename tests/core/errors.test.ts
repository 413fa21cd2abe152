import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { isTransientError, registerErrorKinds, TransientError } from "../../src/core/errors.js";
import { AWS_ERROR_KINDS } from "../../src/providers/aws/error-kinds.js";

const named = (name: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(name), { name, ...extra });

describe("the one retry classification", () => {
  it("without any family registered, knows Cairn's TransientError, Node's network codes and HTTP 429/5xx", () => {
    expect(isTransientError(new TransientError("busy"))).toBe(true);
    expect(isTransientError(Object.assign(new Error("reset"), { code: "ECONNRESET" }))).toBe(true);
    expect(isTransientError(named("Whatever", { $metadata: { httpStatusCode: 503 } }))).toBe(true);
    expect(isTransientError(named("Whatever", { $metadata: { httpStatusCode: 400 } }))).toBe(false);
    expect(isTransientError(new Error("plain"))).toBe(false);
  });

  it("a registered family's transient names retry and its permanent names and messages never do, even on a 5xx", () => {
    registerErrorKinds({ transient: ["TestBusyNow"], permanent: ["TestRefused"], permanentMessage: /test token reused/ });
    expect(isTransientError(named("TestBusyNow"))).toBe(true);
    expect(isTransientError(named("TestRefused", { $metadata: { httpStatusCode: 500 } }))).toBe(false);
    expect(isTransientError(Object.assign(new Error("the test token reused"), { $metadata: { httpStatusCode: 500 } }))).toBe(false);
  });

  it("the AWS layer's names classify once it is loaded: throttling retries, an idempotency conflict answered 5xx does not", () => {
    expect(isTransientError(named("ThrottlingException"))).toBe(true);
    expect(isTransientError(named("SlowDown"))).toBe(true);
    expect(isTransientError(named("IdempotentParameterMismatch", { $metadata: { httpStatusCode: 500 } }))).toBe(false);
    expect(isTransientError(named("AccessDeniedException", { $retryable: {} }))).toBe(false);
    expect(AWS_ERROR_KINDS.transient).toContain("ThrottlingException");
  });

  it("core names no AWS exception: that knowledge lives in the AWS provider's layer", () => {
    const core = readFileSync(new URL("../../src/core/errors.ts", import.meta.url), "utf8");
    for (const name of [...(AWS_ERROR_KINDS.transient ?? []), ...(AWS_ERROR_KINDS.permanent ?? [])]) expect(core).not.toMatch(new RegExp(`"${name}"`));
  });
});
