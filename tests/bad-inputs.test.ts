import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { programIn, run } from "./cli/harness.js";
import { Program } from "../src/entry/program.js";
import { FileBackend } from "../src/state/file-backend.js";
import { box, ok } from "./bad-inputs/cloud.js";
import { programCases } from "./bad-inputs/program-cases.js";
import { cliCases } from "./bad-inputs/cli-cases.js";
import { stateCases } from "./bad-inputs/state-cases.js";
import { providerCases, rogue } from "./bad-inputs/provider-cases.js";
import { noBucketCases } from "./bad-inputs/no-bucket.js";
import type { Case } from "./bad-inputs/case.js";

// The table of bad inputs users have tried, and the one answer each gets: what is wrong, where it came from,
// what to do. Usage mistakes exit 2; everything else exits 1. Every case also checks that the answer came
// without a stack trace, and that neither the state nor the (fake) cloud changed. Grow it when a new one is found.

const all: Case[] = [...cliCases, ...programCases, ...stateCases, ...providerCases, ...noBucketCases];

const before = process.env.CAIRN_PASSPHRASE;
beforeAll(() => void (process.env.CAIRN_PASSPHRASE = "cli-test"));
afterAll(() => void (before === undefined ? delete process.env.CAIRN_PASSPHRASE : (process.env.CAIRN_PASSPHRASE = before)));

/** The state as a user would see it (resources and outputs), or, when it cannot be read, every stored byte. */
async function stateOf(dir: string): Promise<string> {
  try {
    const { state } = await new FileBackend({ stateDir: join(dir, ".cairn"), stack: "dev", project: "bad", passphrase: "cli-test" }).load();
    const resources = Object.values(state.resources).map((r) => [r.urn, r.id, r.inputs, r.outputs, r.deps]);
    return JSON.stringify({ resources, outputs: state.outputs });
  } catch (e) {
    const files: string[] = [];
    const entries = await readdir(join(dir, ".cairn"), { recursive: true, withFileTypes: true }).catch(() => []);
    for (const f of entries) {
      if (!f.isFile() || /^lock|\.tmp$|^disk-reserve$/.test(f.name)) continue;
      files.push(`${join(f.parentPath, f.name)}=${await readFile(join(f.parentPath, f.name), "utf8").catch((x: Error) => x.message)}`);
    }
    return `unreadable (${(e as Error).name}): ${files.sort().join("\n")}`;
  }
}

/** What the fake cloud holds. */
const cloudOf = () => JSON.stringify([[...box.objects.entries()], [...rogue.objects.entries()]]);

describe("bad inputs: one clear answer each; exit 2 for usage, 1 otherwise; state and cloud unchanged", () => {
  it("the table holds at least 200 cases, each named once", () => {
    expect(all.length).toBeGreaterThanOrEqual(200);
    expect(new Set(all.map((c) => c.what)).size).toBe(all.length);
  });

  it.each(all.map((c) => [c.what, c] as const))("%s", async (_what, c) => {
    const { prog, dir } = await programIn("bad", c.program ?? ok);
    if (c.setup) {
      const first = await run(new Program("bad", c.setup === true ? ok : c.setup, { dir, command: "npx tsx infra.ts" }), ["up", "--yes"]);
      expect(first.code, first.stderr).toBe(0);
    }
    await c.before?.(dir);
    const state = await stateOf(dir);
    const cloud = cloudOf();
    try {
      const r = await run(prog, c.argv(dir), { env: { PATH: process.env.PATH, CAIRN_PASSPHRASE: "cli-test", ...c.env } });
      expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(c.code);
      // Plan errors print with the plan (stdout); everything else on stderr.
      expect(`${r.stderr}\n${r.stdout}`).toMatch(c.message);
      expect(r.stderr).not.toMatch(/\n\s+at .*\(.*:\d+:\d+\)/); // no stack trace
      expect(await stateOf(dir), "state unchanged").toBe(state);
      expect(cloudOf(), "cloud unchanged").toBe(cloud);
    } finally {
      await c.after?.(dir);
    }
  });

  it("a program name with a space is refused where it is declared", () => {
    expect(() => new Program("has space", () => {})).toThrow(/Invalid program name "has space": use letters, digits, ".", "_" or "-"/);
  });
});
