import { describe, expect, it } from "vitest";
import { SecretRegistry, redactorOf, taintedKeys } from "../../src/apply/secret-registry.js";

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
