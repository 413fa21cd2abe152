import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { programIn, run } from "../cli/harness.js";
import { memoryType } from "../helpers.js";

const schema = {
  inputs: { size: { type: "number" as const }, tier: { type: "string" as const, enum: ["small", "large"] }, tags: { type: "object" as const }, ports: { type: "array" as const }, on: { type: "boolean" as const }, token: { type: "string" as const, secret: true } },
  outputs: {},
};
const db = memoryType<Record<string, unknown>>("schema:check:Db", schema);

const before = process.env.CAIRN_PASSPHRASE;
beforeAll(() => void (process.env.CAIRN_PASSPHRASE = "cli-test"));
afterAll(() => void (before === undefined ? delete process.env.CAIRN_PASSPHRASE : (process.env.CAIRN_PASSPHRASE = before)));

describe("inputs are checked against the type's schema at preview", () => {
  it("reports every wrong input once, naming resource, property and expected type; up creates nothing", async () => {
    const { prog } = await programIn("schemas", () => {
      new db.Type("main", { size: "10", tier: "medium", tags: ["a"], ports: { http: 80 }, on: "yes", token: 12345 });
      new db.Type("fine", { size: 10, tier: "small", tags: { a: "b" }, ports: [80], on: true, token: "t" });
    });
    const preview = await run(prog, ["preview"]);
    expect(preview.code).toBe(1);
    const text = `${preview.stdout}\n${preview.stderr}`;
    for (const line of [
      `"main" (schema:check:Db), input "size": expected a number, got a string ("10")`,
      `"main" (schema:check:Db), input "tier": must be one of "small", "large" (got "medium")`,
      `"main" (schema:check:Db), input "tags": expected an object, got an array (["a"])`,
      `"main" (schema:check:Db), input "ports": expected an array, got an object ({"http":80})`,
      `"main" (schema:check:Db), input "on": expected a boolean, got a string ("yes")`,
      `"main" (schema:check:Db), input "token": expected a string, got a number ([secret])`,
    ]) expect(text.split(line).length - 1, line).toBe(1);
    expect(text).not.toContain("12345");
    expect(text).not.toMatch(/"fine"/);

    const up = await run(prog, ["up", "--yes"]);
    expect(up.code).toBe(1);
    expect(db.calls.filter((c) => c.op === "create")).toEqual([]);
  });

  it("checks a value known only at apply before the provider is called", async () => {
    const { prog } = await programIn("schemas", () => {
      const first = new db.Type("first", { size: 1 });
      new db.Type("second", { size: first.id.apply(() => "not a number") });
    });
    db.calls.length = 0;
    const up = await run(prog, ["up", "--yes"]);
    expect(up.code).toBe(1);
    expect(up.stderr + up.stdout).toContain(`input "size": expected a number, got a string ("not a number")`);
    expect(db.calls.filter((c) => c.op === "create").map((c) => c.urn)).toEqual([expect.stringContaining("::first")]);
  });
});
