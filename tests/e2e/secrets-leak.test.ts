import { describe, expect, it } from "vitest";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { cli, tempProject, type Run } from "./cli-harness.js";

// A provider that does everything a careless provider could: quotes the secret in a check warning, logs it
// raw and base64-encoded, builds an output from it (which it does not call secret), and fails an update
// with the secret JSON-escaped in its message.
const LEAKY = `
import { program, defineResource } from "cairn-iac";
const Db = defineResource<{ name: string; password: string; size?: number }, { name: string; password: string; connectionString: string; size?: number }>("leak:Db", {
  provider: {
    check({ inputs }) { return inputs.size === 13 ? [{ severity: "warning", message: "size 13 is unlucky for " + inputs.password }] : []; },
    async create({ inputs, ctx }) {
      ctx.log.info("connecting with " + inputs.password);
      ctx.log.warn("token " + Buffer.from(inputs.password).toString("base64"));
      return { id: inputs.name, outputs: { ...inputs, connectionString: "db://admin:" + inputs.password + "@localhost/" + inputs.name } };
    },
    async read({ outputs }) { return outputs; },
    async update({ news }) { throw new Error("cannot update: bad password " + JSON.stringify({ p: news.password })); },
    async delete() {},
  },
  schema: { inputs: { name: {}, password: {}, size: {} }, outputs: { name: {}, password: {}, connectionString: {}, size: {} } },
});
export default program("leak", ({ config }) => {
  const pw = config.requireSecret("pw");
  const db = new Db("db", { name: "main", password: pw, size: Number(config.get("size") ?? 1) });
  return { url: db.connectionString, derived: pw.apply((p) => p + "-suffix"), name: db.name };
});
`;

const SECRET = 'p@ss"w0rd\\\\with-quotes';
const forms = [SECRET, JSON.stringify(SECRET).slice(1, -1), Buffer.from(SECRET).toString("base64").replace(/=+$/, "")];

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

describe("secrets stay secret, end to end", () => {
  it("no byte the CLI writes — stdout, stderr, --json, state, journal, history, a saved plan — holds a secret in any form", { timeout: 120_000 }, async () => {
    const dir = await tempProject({ "infra.ts": LEAKY });
    const runs: Run[] = [];
    const run = async (args: string[], code = 0) => {
      const r = await cli(dir, args);
      expect(r.code, `${args.join(" ")}\n${r.stdout}\n${r.stderr}`).toBe(code);
      runs.push(r);
      return r;
    };
    await run(["config", "set", "pw", SECRET, "--secret"]);
    await run(["preview"]);
    await run(["preview", "--json", "--diff"]);
    const up = await run(["up", "--yes"]);
    expect(up.stderr + up.stdout).toContain("connecting with [secret]");
    await run(["up", "--yes", "--json"]);
    await run(["outputs"]);
    await run(["outputs", "--json"]);
    await run(["state", "list", "--json"]);
    await run(["preview", "--out", "plan.json"]);
    await run(["config", "list"]);
    // A change that makes the provider quote the secret in a warning, then fail quoting it JSON-escaped.
    await run(["config", "set", "size", "13"]);
    const warned = await run(["preview", "--diff"]);
    expect(warned.stdout + warned.stderr).toContain("size 13 is unlucky for [secret]");
    const failed = await run(["up", "--yes"], 1);
    expect(failed.stdout + failed.stderr).toMatch(/cannot update: bad password \{"p":"\[secret\]"\}/);
    await run(["up", "--yes", "--json"], 1);

    const written = [...runs.flatMap((r) => [r.stdout, r.stderr]), ...(await Promise.all((await filesUnder(dir)).filter((f) => !f.includes("node_modules") && !f.endsWith("infra.ts")).map((f) => readFile(f, "utf8"))))];
    for (const text of written) for (const f of forms) expect(text.includes(f), `found ${JSON.stringify(f)} at ${text.indexOf(f)} in:\n${text.slice(Math.max(0, text.indexOf(f) - 300), text.indexOf(f) + 100)}`).toBe(false);
    // The output built from the password is secret too (tainted), so it is masked where it is shown.
    expect(up.stdout).toMatch(/url: \[secret\]/);
  });
});
