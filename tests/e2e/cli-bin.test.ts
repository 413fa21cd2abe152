import { describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { chmod, mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { REPO, finish, tempProject, type Run } from "./cli-harness.js";

const BIN = join(REPO, "dist/cli/bin.js");

/** Installs the `cairn` bin in a temp project as npm would: a link in node_modules/.bin to an executable file. */
async function withBin(dir: string): Promise<string> {
  await chmod(BIN, 0o755);
  await mkdir(join(dir, "node_modules/.bin"), { recursive: true });
  await symlink("../cairn-iac/dist/cli/bin.js", join(dir, "node_modules/.bin/cairn"));
  return dir;
}

/** `npx cairn <args>` in `dir`, with node's own flags untouched (no --import tsx anywhere). */
function npx(dir: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  const clean = { ...process.env };
  delete clean.NODE_OPTIONS;
  return finish(spawn("npx", ["--no-install", "cairn", ...args], { cwd: dir, env: { ...clean, NO_COLOR: "1", CAIRN_PASSPHRASE: "bin", ...env }, stdio: ["ignore", "pipe", "pipe"] }));
}

const program = `
import { program } from "cairn-iac";
import { local } from "cairn-iac/local";
export default program("bin", () => {
  const f = new local.File("f", { path: "out/f.txt", content: "from the bin" });
  return { size: f.size };
});
`;

describe(`npx cairn (the built bin) on Node ${process.versions.node}`, () => {
  it("runs a TypeScript program file given first, with no loader flags", async () => {
    const dir = await withBin(await tempProject({ "infra.ts": program }));
    const r = await npx(dir, ["infra.ts", "up", "--yes"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("+ create urn:cairn:dev::bin::local:File::f");
    expect(r.stdout).toContain("Done: 1 created in");
    expect(r.stderr).not.toMatch(/ERR_UNKNOWN_FILE_EXTENSION/);
  });

  it("without a file, uses infra.ts in the current folder", async () => {
    const dir = await withBin(await tempProject({ "infra.ts": program }));
    const r = await npx(dir, ["preview", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout.trim().split("\n")[0]!)).toMatchObject({ v: 1, type: "plan", project: "bin" });
    const help = await npx(dir, ["--help"]);
    expect(help.stdout).toContain("Usage: npx cairn infra.ts [options] [command]");
  });

  it("runs a program elsewhere (an .mts file in a subfolder), with hints naming how it was run", async () => {
    const dir = await withBin(await tempProject({}));
    await mkdir(join(dir, "deploy"));
    await writeFile(join(dir, "deploy/main.mts"), program);
    const r = await npx(dir, ["deploy/main.mts", "up"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("up needs confirmation");
    expect(r.stderr).toContain("Usage: npx cairn deploy/main.mts up [options]");
  });

  it("outside a project, explains what is missing (exit 2), and still shows help", async () => {
    const dir = await withBin(await tempProject({}));
    const up = await npx(dir, ["up"]);
    expect(up.code).toBe(2);
    expect(up.stderr).toContain("error: no program file: pass one (`npx cairn path/to/infra.ts <command>`), or run from a folder that has infra.ts.");
    const help = await npx(dir, ["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: npx cairn [program file] [options] [command]");
    const missing = await npx(dir, ["nothere.ts", "preview"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("nothere.ts does not exist.");
  });

  it("a file without a program as its default export is a usage error that says what to add", async () => {
    const dir = await withBin(await tempProject({ "infra.ts": "export const x = 1;\n" }));
    const r = await npx(dir, ["preview"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("infra.ts has no default export made by program(name, fn).");
  });

  it("a program that throws while loading fails with its message (exit 1)", async () => {
    const dir = await withBin(await tempProject({ "infra.ts": 'throw new Error("cannot read settings.json");\n' }));
    const r = await npx(dir, ["preview"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("cannot read settings.json");
  });
});
