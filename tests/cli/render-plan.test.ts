import { describe, expect, it } from "vitest";
import { outputsBlock, planPieces, renderPlan } from "../../src/cli/render/plan.js";
import { planToJson } from "../../src/cli/json/plan.js";
import { maskOutputs } from "../../src/cli/context.js";
import { whyOf } from "../../src/cli/render/why.js";
import type { PlanStep, ReplaceReason } from "../../src/plan/plan.js";
import { UNKNOWN } from "../../src/core/unknown.js";
import { formatValue } from "../../src/core/value-text.js";
import { colors } from "../../src/core/colors.js";
import { planOf, step, urn } from "./plan-fixtures.js";

const record = { name: "www", records: ["1.1.1.1", "2.2.2.2"], tags: { env: "dev", team: "web" } };

describe("plan text", () => {
  it("masks the secret ones among many stack outputs, in the plan text, its --json and the outputs event", () => {
    const outputs = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`out${i}`, `value-${i}`]));
    const secretOutputs = Object.keys(outputs).filter((_, i) => i % 2 === 1);
    const plan = planOf([step.create("a", {})], { outputs, secretOutputs, outputsChanged: true });
    const text = renderPlan(plan);
    expect(text).toContain(`  out0: "value-0"\n  out1: [secret]\n`);
    expect(text).not.toContain("value-1999");
    expect(planToJson(plan).outputs).toMatchObject({ out1998: "value-1998", out1999: "[secret]" });
    expect(maskOutputs(outputs, secretOutputs)).toMatchObject({ out0: "value-0", out1: "[secret]" });
    expect(outputsBlock(outputs, secretOutputs).split("\n").filter((l) => l.endsWith("[secret]"))).toHaveLength(1000);
  });

  it("by default lists each changed attribute on one line, values cut at 80 characters", () => {
    const long = "x".repeat(200);
    const text = renderPlan(planOf([step.update("rec", record, { ...record, tags: { env: "prod", team: "web" }, note: long }, ["tags", "note"])]));
    expect(text).toBe(
      [
        "~ update urn:cairn:dev::app::t:Thing::rec",
        "      tags and note changed in the program",
        '      tags: {"env":"dev","team":"web"} → {"env":"prod","team":"web"}',
        `      note: (none) → "${"x".repeat(78)}…`,
        "",
        "Plan: 1 to update.",
      ].join("\n"),
    );
  });

  it("prints a create's inputs as JSON, strings escaped and cut at 80 characters like any value", () => {
    const inputs = { quoted: 'say "hi"\n\ttab ☃', long: "z".repeat(100), count: 3, list: ["a", 1], none: null };
    const text = renderPlan(planOf([step.create("thing", inputs)]));
    for (const [k, v] of Object.entries(inputs)) expect(text).toContain(`\n      ${k}: ${formatValue(v, { max: 80 })}\n`);
    expect(text).toContain('      quoted: "say \\"hi\\"\\n\\ttab ☃"\n');
    expect(text).toContain(`      long: "${"z".repeat(78)}…\n`);
    const diff = renderPlan(planOf([step.create("thing", inputs)]), { diff: true });
    for (const [k, v] of Object.entries(inputs)) expect(diff).toContain(`\n      ${k}: ${formatValue(v)}\n`);
  });

  it("with --diff shows nested paths and array elements compactly, and never cuts a value", () => {
    const long = "y".repeat(200);
    const text = renderPlan(planOf([step.update("rec", record, { ...record, records: ["1.1.1.1", "3.3.3.3", "4.4.4.4"], tags: { env: "prod", team: "web" }, note: long }, ["records", "tags", "note"])]), { diff: true });
    expect(text).toContain('      records[1]: + "3.3.3.3"');
    expect(text).toContain('      records[2]: + "4.4.4.4"');
    expect(text).toContain('      records[1]: - "2.2.2.2"');
    expect(text).toContain('      tags.env: "dev" → "prod"');
    expect(text).not.toContain("tags.team");
    expect(text).toContain(`      note: + "${long}"`);
  });

  it("marks the attributes that force a replacement, and says so in red on a colour terminal", () => {
    const plan = planOf([step.replace("cert", { domain: "a.dev", tags: { x: "1" } }, { domain: "b.dev", tags: { x: "2" } }, { changed: ["domain", "tags"], replaceKeys: ["domain"] })]);
    const text = renderPlan(plan, { diff: true });
    expect(text).toContain('domain: "a.dev" → "b.dev" (forces replacement)');
    expect(text).toContain('tags.x: "1" → "2"\n');
    expect(text).toContain("      domain changed in the program, and it forces a replacement\n");
    expect(renderPlan(plan, { colors: colors(true) })).toContain("\x1b[31m(forces replacement)\x1b[39m");
  });

  it("prints unknown values as (known after apply) and secrets as [secret], in both modes", () => {
    const plan = planOf([
      step.create("db", { password: "hunter2", host: UNKNOWN, opts: { port: UNKNOWN } }, { secretKeys: ["password"] }),
      step.update("app", { token: "old-token", url: "a" }, { token: "new-token", url: UNKNOWN }, ["token", "url"], { secretKeys: ["token"] }),
    ]);
    for (const diff of [false, true]) {
      const text = renderPlan(plan, { diff });
      expect(text).toContain("password: [secret]");
      expect(text).toContain("host: (known after apply)");
      expect(text).toContain("token: [secret] → [secret]");
      expect(text).toContain('url: "a" → (known after apply)');
      expect(text).not.toMatch(/hunter2|old-token|new-token/);
    }
    expect(renderPlan(plan)).toContain('opts: {"port":"(known after apply)"}');
    expect(renderPlan(plan, { diff: true })).toContain("opts: {\"port\":\"(known after apply)\"}");
  });

  it("with --diff lists what a delete removes; by default only its line and why", () => {
    const plan = planOf([step.delete("old", { path: "out/old.txt" })]);
    expect(renderPlan(plan)).toBe(["- delete urn:cairn:dev::app::t:Thing::old", "      no longer in the program", "", "Plan: 1 to delete."].join("\n"));
    expect(renderPlan(plan, { diff: true })).toContain('      path: "out/old.txt"');
  });

  it("never cuts stack outputs", () => {
    const long = "z".repeat(300);
    expect(renderPlan(planOf([step.create("a", {})], { outputs: { big: long } }))).toContain(`  big: "${long}"`);
  });
});

describe("why a step is in the plan", () => {
  it("an input that comes from a replaced dependency says which one", () => {
    const zone = step.replace("zone", { name: "a" }, { name: "b" }, { changed: ["name"], replaceKeys: ["name"] });
    const rec = step.update("rec", { zoneId: "Z1" }, { zoneId: UNKNOWN }, ["zoneId"], { deps: [zone.urn] });
    expect(whyOf(rec, planOf([zone, rec]))).toBe("zoneId comes from zone, which is replaced");
  });

  it("explaining every step of a plan walks its steps once, not once per changed step", () => {
    // GIVEN 200 replaced zones, each with a record whose zoneId comes from it
    const steps: PlanStep[] = [];
    for (let i = 0; i < 200; i++) {
      const zone = step.replace(`zone-${i}`, { name: "a" }, { name: "b" }, { changed: ["name"], replaceKeys: ["name"] });
      steps.push(zone, step.update(`rec-${i}`, { zoneId: "Z1" }, { zoneId: UNKNOWN }, ["zoneId"], { deps: [zone.urn] }));
    }
    // WHEN every step's why is asked for, counting the reads of the plan's steps
    let reads = 0;
    const counted = new Proxy(steps, { get: (t, k, r) => (typeof k === "string" && /^\d+$/.test(k) && reads++, Reflect.get(t, k, r)) });
    const plan = planOf(counted);
    const whys = steps.map((s) => whyOf(s, plan));
    // THEN each step was read about once (a per-step index would read 400 × 400), and the answers are right
    expect(reads).toBeLessThanOrEqual(2 * steps.length);
    expect(whys[1]).toBe("zoneId comes from zone-0, which is replaced");
    expect(whys[399]).toBe("zoneId comes from zone-199, which is replaced");
  });

  it("drift: an attribute changed outside Cairn is shown from the cloud's value back to the declared one", () => {
    const file = step.update("cfg", { content: "declared" }, { content: "declared" }, ["content"], { outputs: { content: "edited by hand" } });
    const plan = planOf([file]);
    expect(whyOf(file, plan)).toBe("content changed outside Cairn (drift): the declared value is put back");
    expect(renderPlan(plan)).toContain('content: "edited by hand" → "declared"');
  });

  it("every replace reason has its own explanation", () => {
    const cases: Record<ReplaceReason, string> = {
      attributes: "name changed in the program, and it forces a replacement",
      replaceOnChanges: "name changed in the program, and replaceOnChanges lists it",
      tainted: "the object is tainted (its create failed part-way)",
      requested: "replacement requested with --replace",
      provider: "provider settings changed (region=eu-west-1 → region=us-east-1): the object moves",
      dependency: "replaced delete-first because it references zone, which is deleted first: it must not be left using an object that is gone",
      triggered: 'replaceTriggeredBy: "config" changed',
    };
    for (const [reason, text] of Object.entries(cases) as [ReplaceReason, string][]) {
      const s = step.replace("x", { name: "a" }, { name: "b" }, {
        reason, changed: ["name"], replaceKeys: ["name"],
        cause: reason === "dependency" ? "urn:cairn:dev::app::t:Zone::zone" : reason === "triggered" ? '"config" changed' : undefined,
        prior: { deps: [], provider: { name: "p", settings: { region: "eu-west-1" } } },
        meta: { deps: [], protect: false, retainOnDelete: false, provider: { name: "p", settings: { region: "us-east-1" } } },
      });
      expect(whyOf(s, planOf([s])), reason).toBe(text);
    }
  });

  it("deletes say whether the resource left the program, is kept in the cloud, or is an old deposed object", () => {
    expect(whyOf(step.delete("a", {}), planOf([]))).toBe("no longer in the program");
    expect(whyOf(step.delete("a", {}, { retain: true }), planOf([]))).toMatch(/retainOnDelete: the cloud object is kept/);
    expect(whyOf(step.delete("a", {}, { deposed: true }), planOf([]))).toBe("an old object left by an interrupted replace");
    expect(whyOf(step.delete("a", {}), planOf([], { mode: "destroy" }))).toBeUndefined();
    expect(urn("t:Thing", "a")).toBe("urn:cairn:dev::app::t:Thing::a");
  });
});

describe("plan text in pieces", () => {
  it("comes in pieces of whole steps, about 64 KB each, which joined by newlines are the whole text", () => {
    const steps = Array.from({ length: 3000 }, (_, i) => step.update(`rec${i}`, record, { ...record, note: `n${i}` }, ["note"]));
    const plan = planOf(steps, { outputs: { url: "https://x.dev" } });
    const pieces = [...planPieces(plan, { diff: true })];
    expect(pieces.length).toBeGreaterThan(3);
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThan(64 * 1024 + 1024);
    expect(pieces.join("\n")).toBe(renderPlan(plan, { diff: true }));
    // Each piece starts with a step (or what follows the steps), never inside one.
    for (const p of pieces.slice(1)) expect(p).toMatch(/^(~ update |$)/);
  });
});
