import { describe, expect, it } from "vitest";
import { Diagnostics, DiagnosticsError, diagnosticsOf, isUserError, rewriteError, UserError } from "../../src/core/diagnostic.js";

describe("Diagnostics", () => {
  it("keeps one diagnostic per key (severity, summary, URN, attribute), whatever its detail or site", () => {
    const d = new Diagnostics();
    d.add({ severity: "error", summary: "bad", urn: "u", attribute: "a", detail: "first" });
    d.add({ severity: "error", summary: "bad", urn: "u", attribute: "a", detail: "second", site: { toString: () => "x.ts:1:1" } });
    d.add({ severity: "warning", summary: "bad", urn: "u", attribute: "a" });
    d.add({ severity: "error", summary: "bad", urn: "v", attribute: "a" });
    d.add({ severity: "error", summary: "bad at u", urn: "u" });
    expect([...d].map((x) => [x.severity, x.summary, x.urn, x.detail])).toEqual([
      ["error", "bad", "u", "first"],
      ["warning", "bad", "u", undefined],
      ["error", "bad", "v", undefined],
      ["error", "bad at u", "u", undefined],
    ]);
    expect(d.errors()).toHaveLength(3);
    expect(d.hasErrors()).toBe(true);
  });

  it("a summary that contains another is a different problem (no substring matching)", () => {
    const d = new Diagnostics().add({ severity: "error", summary: "create of a failed: boom" }, { severity: "error", summary: "boom" });
    expect(d.size).toBe(2);
  });
});

describe("UserError", () => {
  it("its message is the summary and detail, never the site; a string is its summary", () => {
    const e = new UserError({ summary: "no region", detail: "Set AWS_REGION.", site: { toString: () => "infra.ts:1:1" } });
    expect(e.message).toBe("no region\nSet AWS_REGION.");
    expect(new UserError("plain words").diagnostic).toEqual({ severity: "error", summary: "plain words" });
  });

  it("is recognised across copies of Cairn by its diagnostic, and a DiagnosticsError gives every diagnostic", () => {
    const foreign = Object.assign(new Error("x"), { diagnostic: { severity: "error", summary: "x" } });
    expect(isUserError(foreign)).toBe(true);
    expect(isUserError(new Error("x"))).toBe(false);
    const many = new DiagnosticsError([{ severity: "error", summary: "a" }, { severity: "error", summary: "b" }], "two problems");
    expect(diagnosticsOf(many)?.map((d) => d.summary)).toEqual(["a", "b"]);
    expect(many.message).toBe("two problems\n  - a\n  - b");
    expect(diagnosticsOf(new Error("x"))).toBeUndefined();
  });

  it("rewriting an error's words (masking a secret) rewrites its diagnostics too, so the printer cannot show the secret", () => {
    const one = new UserError({ summary: "token s3cr3t refused", detail: "s3cr3t is wrong" });
    const many = new DiagnosticsError([{ severity: "error", summary: "a s3cr3t" }], "heading s3cr3t");
    for (const e of [one, many]) rewriteError(e, (t) => t.replaceAll("s3cr3t", "[secret]"));
    expect(JSON.stringify([one.message, diagnosticsOf(one), many.message, many.heading, diagnosticsOf(many)])).not.toContain("s3cr3t");
  });

  it("a message added to after the error was made is what its diagnostic says", () => {
    const e = new UserError({ summary: "cannot read the file", urn: "u" });
    e.message += " (tried 3 times)";
    expect(diagnosticsOf(e)).toEqual([{ severity: "error", summary: "cannot read the file (tried 3 times)", urn: "u" }]);
  });
});
