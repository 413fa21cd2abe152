import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Program, type ProgramFn } from "../../../src/entry/program.js";
import type { EngineEvent } from "../../../src/apply/events.js";
import { local } from "../../../src/providers/local/index.js";
import { generatePassword } from "../../../src/providers/local/random.js";
import { renderPlan } from "../../../src/cli/render/plan.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cairn-random-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function stackOf(fn: ProgramFn, passphrase = "test-pass") {
  const stack = new Program("rnd", fn, { dir }).stack({ stateDir: join(dir, ".cairn"), ...(passphrase ? { passphrase } : {}) });
  const events: EngineEvent[] = [];
  stack.events.subscribe((e) => events.push(e));
  return { stack, events };
}

describe("local.RandomId", () => {
  it("is generated once and kept; a change of keepers makes a new one", async () => {
    let keeper = "a";
    const { stack } = stackOf(() => {
      const id = new local.RandomId("suffix", { byteLength: 4, keepers: { k: keeper } });
      return { hex: id.hex, b64: id.base64url };
    });
    const first = (await stack.up()).outputs!;
    expect(first.hex).toMatch(/^[0-9a-f]{8}$/);
    expect(Buffer.from(first.b64 as string, "base64url").toString("hex")).toBe(first.hex);
    expect((await stack.preview()).steps.map((s) => s.kind)).toEqual(["same"]);
    keeper = "b";
    const second = (await stack.up()).outputs!;
    expect(second.hex).not.toBe(first.hex);
  });

  it("refuses a byte length outside 1..1024", async () => {
    const { stack } = stackOf(() => {
      new local.RandomId("bad", { byteLength: 0 });
    });
    expect((await stack.preview()).diagnostics[0]?.summary).toMatch(/byteLength.*must be a whole number from 1 to 1024 \(got 0\)/);
  });
});

describe("local.RandomPassword", () => {
  it("has the asked length and every enabled class at least once", () => {
    for (let i = 0; i < 50; i++) {
      const pw = generatePassword({ length: 4, overrideSpecial: "!" });
      expect(pw).toHaveLength(4);
      for (const re of [/[A-Z]/, /[a-z]/, /[0-9]/, /!/]) expect(pw).toMatch(re);
    }
    expect(generatePassword({ length: 30, special: false, upper: false })).toMatch(/^[a-z0-9]{30}$/);
  });

  it("is secret: never in plans, events or outputs in clear, and encrypted in state", async () => {
    const { stack, events } = stackOf(() => {
      const pw = new local.RandomPassword("db", { length: 24 });
      return { password: pw.result };
    });
    const r = await stack.up();
    const password = ((await stack.resources())[0]!.outputs.result as string) ?? "";
    expect(password).toHaveLength(24);
    expect(r.plan.secretOutputs).toEqual(["password"]);
    expect(renderPlan(await stack.preview())).not.toContain(password);
    expect(JSON.stringify(events)).not.toContain(password);
    // Every file of the stack, history included.
    for (const f of await readdir(join(dir, ".cairn/stacks/dev"), { recursive: true, withFileTypes: true })) {
      if (f.isFile()) expect(await readFile(join(f.parentPath, f.name), "utf8"), f.name).not.toContain(password);
    }
  });

  it("without a passphrase, is refused before anything is made", async () => {
    const before = process.env.CAIRN_PASSPHRASE;
    delete process.env.CAIRN_PASSPHRASE;
    try {
      const { stack } = stackOf(() => {
        new local.RandomPassword("db", {});
      }, "");
      await expect(stack.up()).rejects.toThrow(/CAIRN_PASSPHRASE/);
      expect(await stack.resources()).toEqual([]);
    } finally {
      if (before !== undefined) process.env.CAIRN_PASSPHRASE = before;
    }
  });

  it("refuses a length shorter than the classes it must include, and turning every class off", async () => {
    const { stack } = stackOf(() => {
      new local.RandomPassword("short", { length: 2 });
      new local.RandomPassword("none", { upper: false, lower: false, numeric: false, special: false });
    });
    const messages = (await stack.preview()).diagnostics.map((d) => d.summary).join("\n");
    expect(messages).toMatch(/length.*must be a whole number from 4 \(one per character class\) to 4096 \(got 2\)/);
    expect(messages).toMatch(/every character class is turned off/);
  });
});
