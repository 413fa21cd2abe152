import { describe, expect, it, vi } from "vitest";
import { SecretRegistry, redactorOf, taintedKeys } from "../../src/apply/secret-registry.js";
import type { EngineEvent } from "../../src/apply/events.js";
import type { Urn } from "../../src/core/urn.js";

describe("the secret registry", () => {
  const s = new SecretRegistry();
  s.add('pa"ss\\word');
  s.add({ user: "admin-user", key: "k3y-value" });

  it("masks a secret as it is, JSON-escaped and base64-encoded", () => {
    expect(s.redact('login with pa"ss\\word failed')).toBe("login with [secret] failed");
    expect(s.redact(JSON.stringify({ p: 'pa"ss\\word' }))).toBe('{"p":"[secret]"}');
    expect(s.redact(`token ${Buffer.from('pa"ss\\word').toString("base64")}`)).toBe("token [secret]");
  });

  it("masks each part of a structured secret", () => {
    expect(s.redact("user admin-user, key k3y-value")).toBe("user [secret], key [secret]");
  });

  it("redacts every string inside an event", () => {
    const e = s.redactEvent({ type: "step-failed", urn: "urn:x" as never, kind: "create", error: 'bad pa"ss\\word' });
    expect(e).toEqual({ type: "step-failed", urn: "urn:x", kind: "create", error: "bad [secret]" });
  });

  it("leaves short values alone (masking two letters would garble every message)", () => {
    const r = new SecretRegistry();
    r.add("ab");
    expect(r.redact("about a tab")).toBe("about a tab");
  });
});

describe("event redaction with a secret per resource", () => {
  /** A registry that knows `n` secrets (about ten forms each), as a run with a password per resource does. */
  function many(n: number): SecretRegistry {
    const r = new SecretRegistry();
    for (let i = 0; i < n; i++) r.add(`pw-${i}-s3cr3t`);
    return r;
  }
  const polled = (value: unknown, note = "reading"): Extract<EngineEvent, { type: "wait-polled" }> => ({ type: "wait-polled", urn: "urn:cairn:dev::app::cairn:wait::w" as Urn, name: "w", reads: 1, elapsedMs: 5, observed: [{ path: "status", value }], note });

  it("masks a secret in any string of an event, in any encoded form, as redact does", () => {
    const r = many(2000);
    const b64 = Buffer.from("pw-1999-s3cr3t").toString("base64");
    const e = r.redactEvent(polled({ nested: ["ok", "token pw-7-s3cr3t"] }, `auth ${b64} refused`)) as Extract<EngineEvent, { type: "wait-polled" }>;
    expect(e.observed).toEqual([{ path: "status", value: { nested: ["ok", "token [secret]"] } }]);
    expect(e.note).toBe("auth [secret] refused");
    for (const text of ["pw-1-s3cr3t", "xpw-12-s3cr3tx", "pw-1", "no secret here", "pw-20000-s3cr3t", encodeURIComponent("pw-3-s3cr3t")]) {
      expect((r.redactEvent({ type: "diagnostic", severity: "info", summary: text }) as { summary: string }).summary, text).toBe(r.redact(text));
    }
  });

  it("tells apart secrets whose first characters hash alike", () => {
    const r = many(100);
    r.add("xai-first-secret");
    r.add("x`é-second-secret"); // (a << 14) ^ (b << 7) ^ c: "xai" and "x`é" share it
    const e = r.redactEvent({ type: "diagnostic", severity: "info", summary: "xai-first-secret and x`é-second-secret, not xai-other" });
    expect(e).toMatchObject({ summary: "[secret] and [secret], not xai-other" });
  });

  it("masks a secret learned after earlier events were redacted", () => {
    const r = many(100);
    r.redactEvent(polled("pw-1-s3cr3t"));
    r.add("learned-late");
    const e = r.redactEvent({ type: "step-failed", urn: "urn:x" as Urn, kind: "create", error: "bad learned-late" });
    expect(e).toMatchObject({ error: "bad [secret]" });
  });

  it("passes on an event that holds no secret as it is, and copies the rest of one that does", () => {
    const r = many(100);
    const clean = polled({ status: "ISSUED", list: [1, 2] });
    expect(r.redactEvent(clean)).toBe(clean);
    const dirty = polled({ status: "ISSUED", pw: "pw-5-s3cr3t" });
    const masked = r.redactEvent(dirty) as Extract<EngineEvent, { type: "wait-polled" }>;
    expect(masked).not.toBe(dirty);
    expect(masked.observed![0]!.value).toEqual({ status: "ISSUED", pw: "[secret]" });
    expect((dirty.observed![0]!.value as { pw: string }).pw).toBe("pw-5-s3cr3t"); // the engine's own event is left alone
  });

  it("passes on a Date as it is whether or not secrets are known, and masks one in its JSON form", () => {
    const at = new Date("2026-11-27T23:00:00.000Z");
    const r = many(100);
    const e = r.redactEvent(polled({ issuedAt: at })) as Extract<EngineEvent, { type: "wait-polled" }>;
    expect((e.observed![0]!.value as { issuedAt: unknown }).issuedAt).toBe(at);
    r.add("2026-11-27T23:00:00.000Z");
    const masked = r.redactEvent(polled({ issuedAt: at })) as Extract<EngineEvent, { type: "wait-polled" }>;
    expect(masked.observed![0]!.value).toEqual({ issuedAt: "[secret]" });
  });

  it("does not scan every known form for strings that hold none of them", () => {
    const r = many(20_000);
    const scan = vi.spyOn(r as unknown as { mask(text: string): string }, "mask");
    r.redactEvent(polled("PENDING_VALIDATION", "no read yet"));
    expect(scan).not.toHaveBeenCalled();
    r.redactEvent(polled("pw-42-s3cr3t"));
    expect(scan).toHaveBeenCalledOnce();
  });

  it("redacts a printed line without trying every known form when it holds none of them", () => {
    const r = many(20_000);
    const tries = vi.spyOn(r as unknown as { mask(text: string): string }, "mask");
    expect(r.redact("✓ created urn:cairn:dev::p::t:T::web (3ms)")).toBe("✓ created urn:cairn:dev::p::t:T::web (3ms)");
    expect(tries).not.toHaveBeenCalled();
    expect(r.redact("auth pw-42-s3cr3t refused")).toBe("auth [secret] refused");
    expect(tries).toHaveBeenCalledOnce();
  });
});

describe("a step's redactor", () => {
  it("masks the step's own secrets from 3 characters, in every encoded form, and leaves text alone when there are none", () => {
    const redact = redactorOf(["pin", "hunter2!"]);
    expect(redact("bad pin for user")).toBe("bad [secret] for user");
    expect(redact(`auth ${Buffer.from("hunter2!").toString("base64")} refused`)).toBe("auth [secret] refused");
    expect(redactorOf([])("pin hunter2!")).toBe("pin hunter2!");
    expect(redactorOf([true])("flag must be false, got true")).toBe("flag must be false, got [secret]");
  });
});

describe("tainted outputs", () => {
  it("are outputs that carry a secret input's value", () => {
    expect(taintedKeys({ url: "db://u:hunter22@h", name: "db", nested: { a: ["hunter22"] } }, ["hunter22"]).sort()).toEqual(["nested", "url"]);
    expect(taintedKeys({ url: "db://u@h" }, [])).toEqual([]);
  });
});
