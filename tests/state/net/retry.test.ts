import { describe, expect, it } from "vitest";
import { createServer } from "node:net";
import { BackendNotAnsweringError, BackendUnreachableError, FIRST_CONTACT_MS, withRetry, type Contact, type RetryPolicy } from "../../../src/state/net/retry.js";
import { isPgTransient } from "../../../src/state/pg/pg-connection.js";
import { openBackend } from "../../../src/state/open-backend.js";

const refused = () => Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5433"), { code: "ECONNREFUSED" });
const reset = () => Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" });
const policy = (contact: Contact, budgetMs: number): RetryPolicy => ({ where: "PostgreSQL at 127.0.0.1:5433", budgetMs, isTransient: isPgTransient, contact });

describe("retrying a backend's requests", () => {
  it("gives up on a backend that never answered, where nothing answers, after a short first-contact budget, saying what to check", async () => {
    const t0 = Date.now();
    const e = await withRetry(policy({ reached: false }, 60_000), "taking the stack lock", async () => { throw refused(); }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(BackendNotAnsweringError);
    expect((e as Error).message).toMatch(/^Nothing answers at PostgreSQL at 127\.0\.0\.1:5433 \(connect ECONNREFUSED 127\.0\.0\.1:5433; tried for .* while taking the stack lock\): check the host and port in the backend URL/);
    expect(Date.now() - t0).toBeLessThan(FIRST_CONTACT_MS + 2_500);
  });

  it("keeps retrying for the whole budget once the backend has answered (a server restarting mid-run), then names the network", async () => {
    const contact = { reached: false };
    let calls = 0;
    expect(await withRetry(policy(contact, 1_000), "reading the state", async () => ++calls)).toBe(1);
    expect(contact.reached).toBe(true);
    const e = await withRetry(policy(contact, 1_000), "writing the journal", async () => { calls++; throw refused(); }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(BackendUnreachableError);
    expect((e as Error).message).toContain("the network or the server is down");
  });

  it("retries a reset connection for the whole budget even before the first answer (the address answered)", async () => {
    const e = await withRetry(policy({ reached: false }, 300), "reading the state", async () => { throw reset(); }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(BackendUnreachableError);
  });

  it("a PostgreSQL URL whose port nothing listens on fails in seconds, not after the 60-second budget", async () => {
    // A port that was free a moment ago: nothing listens there now.
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, "127.0.0.1", () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const backend = openBackend({ backend: `postgres://cairn@127.0.0.1:${port}/cairn`, stack: "dev", project: "proj", passphrase: undefined });
    const t0 = Date.now();
    const e = await backend.summary().catch((x: unknown) => x);
    await backend.close();
    expect((e as Error).message).toContain(`Nothing answers at PostgreSQL at 127.0.0.1:${port}`);
    expect(Date.now() - t0).toBeLessThan(FIRST_CONTACT_MS + 5_000);
  });
});
