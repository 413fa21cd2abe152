import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { programIn, run } from "../cli/harness.js";
import { defineResource } from "../../src/program/define.js";

const SECRET = "s3cr3t-Pa55/word+";
// Every way a provider (or a log line) might carry the secret without saying it is secret.
const encode = {
  hex: (s: string) => Buffer.from(s).toString("hex"),
  HEX: (s: string) => Buffer.from(s).toString("hex").toUpperCase(),
  base64: (s: string) => Buffer.from(s).toString("base64"),
  basicAuth: (s: string) => Buffer.from(`admin:${s}`).toString("base64"), // a concatenation, then base64 (off the 3-byte grid)
  prefixed2: (s: string) => Buffer.from(`ab${s}`).toString("base64url"),
  json: (s: string) => JSON.stringify({ password: s }),
  url: (s: string) => `https://u:${encodeURIComponent(s)}@db.example/x`,
  concat: (s: string) => `pre-${s}-post`,
};
const derivedForms = Object.values(encode).map((f) => f(SECRET));

const Db = defineResource<{ password: string }, Record<string, string>>("secret:derive:Db", {
  provider: {
    async create({ inputs, ctx }) {
      ctx.log.info(`hex is ${encode.hex(inputs.password)}; basic auth is ${encode.basicAuth(inputs.password)}`);
      return { id: "db-1", outputs: Object.fromEntries(Object.entries(encode).map(([k, f]) => [k, f(inputs.password)])) };
    },
    async read({ outputs }) {
      return outputs;
    },
    async delete() {},
  },
  schema: { inputs: { password: {} }, outputs: Object.fromEntries(Object.keys(encode).map((k) => [k, {}])) },
});

const before = process.env.CAIRN_PASSPHRASE;
beforeAll(() => void (process.env.CAIRN_PASSPHRASE = "cli-test"));
afterAll(() => void (before === undefined ? delete process.env.CAIRN_PASSPHRASE : (process.env.CAIRN_PASSPHRASE = before)));

async function everyFile(dir: string): Promise<string> {
  let all = "";
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) if (e.isFile()) all += await readFile(join(e.parentPath, e.name), "utf8");
  return all;
}

describe("a secret stays secret through every encoding", () => {
  it("config get masks a secret unless --show-secrets", async () => {
    const { prog } = await programIn("derive", () => {});
    expect((await run(prog, ["config", "set", "pw", SECRET, "--secret"])).code).toBe(0);
    const masked = await run(prog, ["config", "get", "pw"]);
    expect(masked.code).toBe(0);
    expect(masked.stdout).toBe("[secret]");
    expect(masked.stdout + masked.stderr).not.toContain(SECRET);
    expect(masked.stderr).toContain("--show-secrets");
    expect((await run(prog, ["config", "get", "pw", "--show-secrets"])).stdout).toBe(SECRET);
  });

  it("outputs a provider derives from a secret input (hex, base64, JSON, URL, concatenation) are secret in state, output and logs", async () => {
    const { prog, dir } = await programIn("derive", ({ config }) => {
      const db = new Db("db", { password: config.requireSecret("pw") });
      return { basicAuth: db.basicAuth, hex: db.hex };
    });
    expect((await run(prog, ["config", "set", "pw", SECRET, "--secret"])).code).toBe(0);
    const up = await run(prog, ["up", "--yes"]);
    expect(up.code, up.stderr).toBe(0);
    const shown = [up, await run(prog, ["outputs", "--json"]), await run(prog, ["state", "show", "db"]), await run(prog, ["preview", "--json", "--diff"])]
      .map((r) => r.stdout + r.stderr)
      .join("\n");
    expect(shown).toMatch(/hex is \[secret\]; basic auth is \S*\[secret\]/); // "admin:" may show; the password may not
    const stored = await everyFile(join(dir, ".cairn"));
    for (const form of [SECRET, ...derivedForms]) {
      expect(shown, form).not.toContain(form);
      expect(stored, form).not.toContain(form);
    }
  });
});
