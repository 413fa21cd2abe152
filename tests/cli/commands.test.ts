import { describe, expect, it } from "vitest";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { local } from "../../src/providers/local/index.js";
import { programIn, run } from "./harness.js";

const ESC = "\x1b[";
const long = "a".repeat(300);

async function fileProgram() {
  return programIn("app", () => {
    const f = new local.File("note", { path: "out/note.txt", content: long });
    return { content: f.content, path: f.path, nested: { list: [1, 2, 3], text: long } };
  });
}

describe("usage errors", () => {
  it("up without --yes where nobody can answer is a usage error: the message, the command's help, exit 2", async () => {
    const { prog } = await fileProgram();
    const r = await run(prog, ["up"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("error: up needs confirmation, and this is not an interactive terminal: pass --yes to go ahead.");
    expect(r.stderr).toContain("Usage: npx tsx infra.ts up [options]");
    expect(r.stderr).toContain("--target <urn>");
  });

  it("an unknown option, a bad --parallel, a missing argument and no command at all exit 2 with help", async () => {
    const { prog } = await fileProgram();
    for (const argv of [["preview", "--frobnicate"], ["up", "--parallel", "zero", "--yes"], ["config", "set", "onlykey"], [], ["frobnicate"]]) {
      const r = await run(prog, argv);
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.stderr, argv.join(" ")).toMatch(/Usage: npx tsx infra\.ts/);
    }
  });

  it("--help and --version exit 0", async () => {
    const { prog } = await fileProgram();
    expect((await run(prog, ["--help"])).code).toBe(0);
    expect((await run(prog, ["up", "--help"])).stdout).toContain("--diff");
    expect((await run(prog, ["--version"])).stdout).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("with --json, an error is also an event on stdout", async () => {
    const { prog } = await fileProgram();
    const r = await run(prog, ["up", "--json"]);
    expect(r.code).toBe(2);
    const events = r.stdout.split("\n").map((l) => JSON.parse(l) as { type: string });
    expect(events.map((e) => e.type)).toEqual(["plan", "error"]); // the plan, then why it was not applied
    expect(events[1]).toMatchObject({ v: 1, type: "error", exit_code: 2, message: expect.stringContaining("--json output cannot ask") });
  });
});

describe("stacks", () => {
  it("an unknown --stack is an error naming the stacks that exist, for everything but up (and preview, which says it is new)", async () => {
    const { prog } = await fileProgram();
    expect((await run(prog, ["up", "--yes"])).code).toBe(0);
    for (const argv of [["outputs"], ["state", "list"], ["destroy", "--yes"], ["refresh", "--yes"], ["unlock"], ["config", "list"], ["config", "get", "x"]]) {
      const r = await run(prog, [...argv, "--stack", "prdo"]);
      expect(r.code, argv.join(" ")).toBe(1);
      expect(r.stderr, argv.join(" ")).toMatch(/Stack "prdo" does not exist \(in .*\)\. Existing stacks: dev\. Check --stack, or create it with `npx tsx infra\.ts up --stack prdo`\./);
    }
    const preview = await run(prog, ["preview", "--stack", "prod"]);
    expect(preview.code).toBe(0);
    expect(preview.stdout).toContain('Stack "prod" is new (existing: dev): up creates it.');
    expect((await run(prog, ["config", "set", "k", "v", "--stack", "prod"])).code).toBe(0);
    expect((await run(prog, ["config", "list", "--stack", "prod"])).stdout).toBe("k = v");
  });
});

describe("outputs are never cut", () => {
  it("up prints long and nested outputs whole; outputs --json is exact; outputs <name> is raw", async () => {
    const { prog, dir } = await fileProgram();
    const up = await run(prog, ["up", "--yes"]);
    expect(up.code, up.stderr).toBe(0);
    expect(up.stdout).toContain(`  content: "${long}"`);
    expect(up.stdout).toContain(`"text": "${long}"`); // long objects are indented JSON
    expect(await readFile(join(dir, "out/note.txt"), "utf8")).toBe(long);
    expect(JSON.parse((await run(prog, ["outputs", "--json"])).stdout)).toEqual({ content: long, path: "out/note.txt", nested: { list: [1, 2, 3], text: long } });
    expect((await run(prog, ["outputs", "content"])).stdout).toBe(long);
    expect(JSON.parse((await run(prog, ["outputs", "nested"])).stdout)).toEqual({ list: [1, 2, 3], text: long });
    const missing = await run(prog, ["outputs", "nope"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('The stack has no output "nope" (outputs: content, path, nested).');
  });
});

describe("colour", () => {
  it("is on with FORCE_COLOR and off with NO_COLOR or --no-color", async () => {
    const { prog } = await fileProgram();
    const env = (e: Record<string, string>) => ({ env: { PATH: process.env.PATH, CAIRN_PASSPHRASE: "x", ...e } });
    expect((await run(prog, ["preview"], env({ FORCE_COLOR: "1" }))).stdout).toContain(ESC);
    expect((await run(prog, ["preview", "--no-color"], env({ FORCE_COLOR: "1" }))).stdout).not.toContain(ESC);
    expect((await run(prog, ["preview"], env({ FORCE_COLOR: "1", NO_COLOR: "1" }))).stdout).not.toContain(ESC);
    expect((await run(prog, ["preview"], env({}))).stdout).not.toContain(ESC); // a pipe, not CI
    expect((await run(prog, ["preview"], env({ CI: "true" }))).stdout).toContain(ESC); // CI logs show colour
  });
});
