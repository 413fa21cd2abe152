// The package as a user gets it: `npm pack` of the built package, installed into an empty folder with npm
// (--prefer-offline: dependencies from npm's cache, which `npm ci` filled with their tarballs; the registry
// only for what the cache lacks, such as the package documents `npm ci` never reads), then `npx cairn new`
// and the new project's preview through the installed `cairn` bin. `npm test` builds dist/ before vitest runs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { promisify } from "node:util";

const REPO = resolve(import.meta.dirname, "../..");
const exec = promisify(execFile);

let tmp = "";
let tarball = "";
/** The warnings and notices npm printed while installing the tarball (stderr). */
let installLog = "";

/** A command in `cwd` with npm's noise off and no loader flags from the test runner. */
function run(cwd: string, file: string, args: string[], timeout = 60_000) {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", npm_config_audit: "false", npm_config_fund: "false", npm_config_update_notifier: "false", CAIRN_PASSPHRASE: "install-test" };
  delete env.NODE_OPTIONS;
  return exec(file, args, { cwd, env, timeout, encoding: "utf8" });
}

beforeAll(async () => {
  if (!existsSync(join(REPO, "dist", "cli", "bin.js"))) throw new Error("dist/ is missing: run `npm run build` first (npm test does)");
  tmp = await mkdtemp(join(tmpdir(), "cairn-install-"));
  // dist/ is built already: packing again would rebuild it (prepack), which the test does not need.
  const packed = await run(REPO, "npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", tmp]);
  tarball = join(tmp, (JSON.parse(packed.stdout) as { filename: string }[])[0]!.filename);
  const user = join(tmp, "user");
  await mkdir(user);
  await writeFile(join(user, "package.json"), JSON.stringify({ name: "user", private: true }));
  // ~45 s on a 2-core machine at load 20 (npm links ~150 packages): a generous limit, still finite.
  installLog = (await run(user, "npm", ["install", tarball, "--prefer-offline", "--no-package-lock"], 150_000)).stderr;
}, 180_000);

afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe("the packed package, installed from its tarball", () => {
  it("ships the built code and declares no install-time script", async () => {
    const pkg = JSON.parse(await readFile(join(tmp, "user", "node_modules", "cairn-iac", "package.json"), "utf8")) as { scripts?: Record<string, string> };
    for (const hook of ["preinstall", "install", "postinstall", "prepare"]) expect(pkg.scripts?.[hook], hook).toBeUndefined();
    expect(existsSync(join(tmp, "user", "node_modules", "cairn-iac", "dist", "cli", "bin.js"))).toBe(true);
    // npm may warn about a dependency's own scripts (esbuild's postinstall), never about Cairn's.
    expect(installLog).not.toMatch(/prepare|cairn-iac@/);
  });

  it(
    "npx cairn new writes a project whose cairn-iac dependency is the tarball it was installed from (the registry does not have it), and npx cairn infra.ts preview runs there",
    async () => {
      const user = join(tmp, "user");
      const made = await run(user, "npx", ["--no-install", "cairn", "new", "quickstart", "my-app"]);
      expect(made.stdout).toContain("Created my-app");
      const app = join(user, "my-app");
      const written = JSON.parse(await readFile(join(app, "package.json"), "utf8")) as { dependencies: Record<string, string> };
      expect(written.dependencies["cairn-iac"]).toBe(`file:${relative(app, tarball)}`);

      // The app sits in the folder the tarball was installed into, so its `cairn-iac` import resolves to that
      // install (one npm install per test run: each takes most of a minute on a busy machine).
      const preview = await run(app, join(user, "node_modules", ".bin", "cairn"), ["infra.ts", "preview"]);
      expect(preview.stdout).toContain("+ create urn:cairn:dev::my-app::local:Command::server");
    },
    120_000,
  );
});
