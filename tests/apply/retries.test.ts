import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { defineResource } from "../../src/program/define.js";
import { milliseconds } from "../../src/core/duration.js";
import { Program } from "../../src/entry/program.js";
import type { Provider } from "../../src/provider/provider.js";
import type { EngineEvent } from "../../src/apply/events.js";
import "../../src/providers/aws/error-kinds.js"; // IdempotentParameterMismatch is classified as the AWS layer says

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

let fail: () => Error = () => new Error("unset");
let creates = 0;
const provider: Provider<{ v: number }, { v: number }> = {
  async create() {
    creates++;
    throw fail();
  },
  async read() {
    return undefined;
  },
  async delete() {},
};
const Thing = defineResource<{ v: number }, { v: number }>("retry:test:Thing", { provider, schema: { inputs: { v: {} }, outputs: { v: {} } } });

async function upOnce(opts: { retryDeadline?: number; timeout?: string }) {
  const dir = await mkdtemp(join(tmpdir(), "cairn-retry-"));
  dirs.push(dir);
  const prog = new Program("retries", () => void new Thing("t", { v: 1 }, opts.timeout ? { customTimeouts: { create: opts.timeout } } : {}), { dir, command: "npx tsx infra.ts" });
  const stack = prog.stack({ ...(opts.retryDeadline ? { retryDeadline: milliseconds(opts.retryDeadline) } : {}) });
  const events: EngineEvent[] = [];
  stack.events.subscribe((e) => events.push(e));
  creates = 0;
  const t0 = Date.now();
  const r = await stack.up();
  return { r, events, elapsed: Date.now() - t0 };
}

const serverError = (name: string, message: string) => Object.assign(new Error(message), { name, $fault: "server", $metadata: { httpStatusCode: 500 } });

describe("retries of provider calls", () => {
  it("never retries a 5xx that is not transient (an idempotency-token conflict): one call, failed at once", async () => {
    fail = () => serverError("IdempotentParameterMismatch", "The client token was already used for a different request");
    const { r, events } = await upOnce({ timeout: "3s" });
    expect(r.summary?.ok).toBe(false);
    expect(creates).toBe(1);
    expect(events.filter((e) => e.type === "step-retrying")).toEqual([]);
  });

  it("stops retrying a transient failure at the retry deadline the user set, saying so", async () => {
    fail = () => serverError("ServiceUnavailable", "try again later");
    const { r, events, elapsed } = await upOnce({ retryDeadline: 2000 });
    expect(r.summary?.ok).toBe(false);
    expect(elapsed).toBeLessThan(5000);
    const failed = events.find((e) => e.type === "step-failed") as Extract<EngineEvent, { type: "step-failed" }>;
    expect(failed.error).toMatch(/try again later \(a transient failure, tried \d+ time\(s\): retries stop 2s after the first failure, or at the call's time limit; --retry-deadline sets it\)/);
  });
});
