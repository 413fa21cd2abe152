import { describe, expect, it } from "vitest";
import { planPage } from "../../src/cli/render/html/page.js";
import { planOf, step } from "./plan-fixtures.js";

const same = (t: string) => t;

describe("the plan page's text", () => {
  it("lists each deferred part with what it waits for and why", () => {
    const plan = planOf([step.create("cert", { domain: "example.dev" })], { deferred: [{ kind: "declared", type: "aws:route53:RecordSet", pattern: "validation-…", waitsFor: "cert.domainValidationOptions" }] });
    const page = planPage(plan, { note: "no graph" }, same);
    expect(page).toContain("Deferred to a later round (1)");
    expect(page).toContain("<td>validation-…</td><td>aws:route53:RecordSet</td><td>cert.domainValidationOptions</td><td>declared in apply() on cert.domainValidationOptions</td>");
  });

  it("says which steps lose data, and shows the plan's problems", () => {
    const plan = planOf([step.delete("db", { engine: "postgres" }, { dataLoss: { allowed: false } })], { diagnostics: [{ severity: "warning", summary: "something to know" }] });
    const page = planPage(plan, { note: "no graph" }, same);
    expect(page).toContain('<span class="badge look-data-loss">data loss</span>');
    expect(page).toMatch(/class="error">! 1 step deletes a stateful object with its data/);
    expect(page).toContain('<li class="warning">warning: something to know</li>');
  });

  it("escapes every value, so a value cannot add markup or script to the page", () => {
    const evil = '</script><script>alert("x")</script><img src=x>';
    const page = planPage(planOf([step.create("cfg", { content: evil })]), { note: "no graph" }, same);
    expect(page).not.toContain(evil);
    expect(page).not.toContain("<img");
    expect(page.match(/<script>/g)).toHaveLength(1);
    expect(page).toContain("&lt;/script&gt;&lt;script&gt;alert(");
  });

  it("passes every text through the redaction before escaping it", () => {
    const page = planPage(planOf([step.create("cfg", { content: "token <abc&def>" })]), { note: "no graph" }, (t) => t.replaceAll("<abc&def>", "[secret]"));
    expect(page).toContain("token [secret]");
    expect(page).not.toContain("abc&amp;def");
  });
});
