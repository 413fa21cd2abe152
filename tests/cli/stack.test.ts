import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { access, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { secret } from "../../src/index.js";
import { local } from "../../src/providers/local/index.js";
import { openBackend } from "../../src/state/open-backend.js";
import { programIn, run } from "./harness.js";

// The stack reads the passphrase from the process environment (the in-process CLI's env is for display).
beforeEach(() => void vi.stubEnv("CAIRN_PASSPHRASE", "stack-test"));
afterEach(() => void vi.unstubAllEnvs());

const exists = (p: string) => access(p).then(() => true, () => false);

/** A program of two files (one with a secret), applied to stacks `dev` and `prod`. */
async function twoStacks() {
  const { prog, dir } = await programIn("app", ({ stack }) => {
    new local.File("page", { path: `out/${stack}/page.txt`, content: "hi" });
    new local.File("key", { path: `out/${stack}/key.txt`, content: secret("s3cr3t") });
  });
  const cli = (...argv: string[]) => run(prog, argv);
  for (const s of ["dev", "prod"]) expect((await cli("up", "--yes", "--stack", s)).code).toBe(0);
  return { prog, dir, cli };
}

describe("stack ls", () => {
  it("lists each stack with its resources, last update and lock holder, marking the one --stack names", async () => {
    const { cli, dir } = await twoStacks();
    expect((await cli("config", "set", "only", "config", "--stack", "staging")).code).toBe(0);
    const lock = await openBackend({ stateDir: join(dir, ".cairn"), stack: "prod", project: "app" }).lock({ command: "up" });
    try {
      const json = JSON.parse((await cli("stack", "ls", "--json", "--stack", "prod")).stdout) as Record<string, unknown>[];
      expect(json.map((s) => [s.stack, s.resources, s.current])).toEqual([["dev", 2, false], ["prod", 2, true], ["staging", 0, false]]);
      expect(json[1]!.lockHolder).toMatchObject({ pid: process.pid, command: "up" });
      expect(json[0]!.lockHolder).toBeUndefined();
      expect(Date.parse(json[0]!.lastUpdate as string)).toBeGreaterThan(Date.now() - 60_000);
      const text = (await cli("stack", "ls", "--stack", "prod", "--no-color")).stdout.split("\n");
      expect(text[0]).toMatch(/^stack\s+resources\s+last update\s+locked by$/);
      expect(text[1]).toMatch(/^dev\s+2\s+\d{4}-\d\d-\d\dT\S+\s+-$/);
      expect(text[2]).toMatch(new RegExp(`^prod \\*\\s+2\\s+\\S+\\s+up by pid ${process.pid} on \\S+, for \\d+s$`));
      expect(text[3]).toMatch(/^staging\s+0\s+-\s+-$/);
    } finally {
      await lock.release();
    }
  });

  it("says so when the project has no stacks yet", async () => {
    const { prog } = await programIn("empty", () => {});
    expect((await run(prog, ["stack", "ls"])).stdout).toBe("This project has no stacks yet: `up` creates one.");
  });
});

describe("stack rm and stack restore", () => {
  it("refuses to remove a stack that has resources, and changes nothing", async () => {
    const { cli, dir } = await twoStacks();
    const r = await cli("stack", "rm", "prod", "--yes");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Stack "prod" still has 2 resource(s); nothing was removed. Run destroy first to delete them, or pass --force');
    expect(await exists(join(dir, ".cairn/stacks/prod/state.json"))).toBe(true);
  });

  it("removes an empty stack after destroy, and needs --yes where nobody can answer", async () => {
    const { cli, dir } = await twoStacks();
    expect((await cli("destroy", "--yes", "--stack", "prod")).code).toBe(0);
    const piped = await cli("stack", "rm", "prod");
    expect(piped.code).toBe(2);
    expect(piped.stderr).toContain("stack rm changes the state and needs confirmation, and this is not an interactive terminal: pass --yes");
    const r = await cli("stack", "rm", "prod", "--yes");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Removed stack "prod"; nothing in the cloud changed.');
    expect(await exists(join(dir, ".cairn/stacks/prod"))).toBe(false);
    expect(JSON.parse((await cli("stack", "ls", "--json")).stdout).map((s: { stack: string }) => s.stack)).toEqual(["dev"]);
    expect((await cli("state", "list", "--stack", "prod")).stderr).toContain('Stack "prod" does not exist');
  });

  it("with --force removes a stack with resources, keeping a backup (secrets still encrypted) that stack restore brings back", async () => {
    const { cli, dir } = await twoStacks();
    const before = (await cli("state", "list", "--json", "--stack", "prod")).stdout;
    const history = (await cli("state", "history", "--json", "--stack", "prod")).stdout;
    const r = await cli("stack", "rm", "prod", "--force", "--yes");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("its 2 resource(s) stay in the cloud, managed by nothing");
    const file = /A copy of everything removed is in (\S+): `npx tsx infra\.ts stack restore \1` brings it back\./.exec(r.stdout)?.[1];
    expect(file).toBeDefined();
    expect(file!.startsWith(join(dir, ".cairn/removed/app.prod."))).toBe(true);
    const backup = await readFile(file!, "utf8");
    expect(backup).not.toContain("s3cr3t");
    expect(await readFile(join(dir, "out/prod/page.txt"), "utf8")).toBe("hi"); // the cloud was not touched
    expect(await exists(join(dir, ".cairn/stacks/prod"))).toBe(false);

    const restored = await cli("stack", "restore", file!, "--yes");
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toContain('Restored stack "prod" (2 resource(s),');
    expect((await cli("state", "list", "--json", "--stack", "prod")).stdout).toBe(before);
    expect((await cli("state", "history", "--json", "--stack", "prod")).stdout.replace(/"writtenAt": "[^"]+"/g, "")).toBe(history.replace(/"writtenAt": "[^"]+"/g, ""));
    const preview = await cli("preview", "--expect-no-changes", "--stack", "prod");
    expect(preview.code, preview.stdout + preview.stderr).toBe(0); // secrets decrypt with the same passphrase

    const twice = await cli("stack", "restore", file!, "--yes");
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain('Stack "prod" exists in file://');
  });

  it("refuses a stack that does not exist, and a file that is not a backup", async () => {
    const { cli, dir } = await twoStacks();
    const none = await cli("stack", "rm", "qa", "--yes");
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('Stack "qa" does not exist in file://');
    expect(await exists(join(dir, ".cairn/stacks/qa"))).toBe(false);
    await writeFile(join(dir, "not-a-backup.json"), JSON.stringify({ hello: "world" }));
    const bad = await cli("stack", "restore", join(dir, "not-a-backup.json"), "--yes");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("is not a stack backup written by `stack rm` (format cairn-stack-backup/1)");
    const missing = await cli("stack", "restore", join(dir, "nope.json"), "--yes");
    expect(missing.stderr).toContain("nope.json: no such file.");
  });
});
