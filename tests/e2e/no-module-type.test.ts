// A hand-made project whose package.json has no "type": "module" (or that has no package.json): its infra.ts
// runs under each runner a user may pick — Node itself (22.18+), `npx tsx`, and the `cairn` bin (Node's
// type stripping, or tsx's loader on Node 20) — on the minimum Node and the ones that strip types.
// `npm test` builds dist/ before vitest runs.
import { afterAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO, finish, type Run } from "./cli-harness.js";
import { PINS, pinnedNode, strippingNode } from "../../scripts/node-runtimes.js";

const BIN = join(REPO, "dist/cli/bin.js");
const TSX = join(REPO, "node_modules/tsx/dist/cli.mjs");

const PROGRAM = `import { program } from "cairn-iac";
import { local } from "cairn-iac/local";
import { greeting } from "./lib.ts";

export default program("plain", () => {
  const f = new local.File("f", { path: "out/f.txt", content: greeting });
  return { size: f.size };
});
`;

const made: string[] = [];
afterAll(async () => {
  for (const d of made.splice(0)) await rm(d, { recursive: true, force: true });
});

/** A project whose `cairn-iac` resolves to this repo's build, with a package.json without "type" or none. */
async function project(packageJson: boolean, files: Record<string, string> = { "infra.ts": PROGRAM, "lib.ts": 'export const greeting: string = "hi";\n' }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "cairn-notype-"));
  made.push(dir);
  await mkdir(join(dir, "node_modules"));
  await symlink(REPO, join(dir, "node_modules", "cairn-iac"), "dir");
  if (packageJson) await writeFile(join(dir, "package.json"), JSON.stringify({ name: "plain", version: "1.0.0", private: true }));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

function run(node: string, dir: string, args: string[]): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", CAIRN_PASSPHRASE: "notype" };
  delete env.NODE_OPTIONS;
  return finish(spawn(node, args, { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] }));
}

/**
 * A Node 20: this process's own when the suite runs on it (npm test, on the machine's Node 20), else the
 * pinned minimum, 20.12 (the suite's runs on Node 22 and 24 have no other Node 20).
 */
const node20 = (): string => (process.versions.node.startsWith("20.") ? process.execPath : pinnedNode(PINS.minimum));

const runners: [string, () => string, string[]][] = [
  ["node infra.ts (a Node that strips types)", strippingNode, ["infra.ts"]],
  ["npx tsx infra.ts on Node 20", node20, [TSX, "infra.ts"]],
  [`npx tsx infra.ts on Node ${PINS.minimum}`, () => pinnedNode(PINS.minimum), [TSX, "infra.ts"]],
  ["npx cairn infra.ts on Node 20 (tsx's loader)", node20, [BIN, "infra.ts"]],
  [`npx cairn infra.ts on Node ${PINS.minimum}`, () => pinnedNode(PINS.minimum), [BIN, "infra.ts"]],
  ["npx cairn infra.ts on a Node that strips types", strippingNode, [BIN, "infra.ts"]],
];

describe('a program in a folder without "type": "module"', () => {
  for (const [name, node, args] of runners) {
    it(`runs through ${name}`, async () => {
      const dir = await project(true);
      const r = await run(node(), dir, [...args, "preview"]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain("+ create urn:cairn:dev::plain::local:File::f");
      expect(r.stderr).not.toMatch(/ERR_|Cannot require/);
    }, 60_000);
  }

  it("npx cairn on a Node that strips types says in one line what to add to start faster (Node's warning is four)", async () => {
    const dir = await project(true);
    const r = await run(strippingNode(), dir, [BIN, "infra.ts", "preview"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain("MODULE_TYPELESS_PACKAGE_JSON");
    expect(r.stderr.trim().split("\n")).toEqual([`note: ${join(dir, "package.json")} has no "type": "module", so Node parses infra.ts twice: add "type": "module" to it to start faster.`]);
  }, 60_000);

  it("runs with no package.json at all (npx tsx, and npx cairn on Node 20)", async () => {
    const dir = await project(false);
    for (const args of [[TSX, "infra.ts"], [BIN, "infra.ts"]]) {
      const r = await run(node20(), dir, [...args, "preview"]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain("+ create urn:cairn:dev::plain::local:File::f");
    }
  }, 60_000);

  it(`says what to add when Node ${PINS.minimum} loads an infra.js with import/export as CommonJS`, async () => {
    const dir = await project(true, { "infra.js": PROGRAM.replace('import { greeting } from "./lib.ts";\n', 'const greeting = "hi";\n') });
    const r = await run(pinnedNode(PINS.minimum), dir, [BIN, "infra.js", "preview"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`error: infra.js uses import/export, but Node ${PINS.versions[PINS.minimum]} loads it as CommonJS: add "type": "module" to the package.json of its folder, or name it infra.mjs.`);
  }, 60_000);
});
