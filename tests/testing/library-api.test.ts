import { describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { promisify } from "node:util";

const REPO = resolve(import.meta.dirname, "../..");
const SRC = join(REPO, "src");

async function sources(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await sources(p)));
    else if (p.endsWith(".ts")) out.push(p);
  }
  return out;
}

/** Relative imports of a file (static, side-effect and dynamic), resolved to paths inside src/. */
function importsOf(file: string, text: string): string[] {
  const patterns = [/^\s*(?:import|export)\s[^;]*?from\s+"(\.[^"]+)"/gm, /^\s*import\s+"(\.[^"]+)"/gm, /\bimport\(\s*"(\.[^"]+)"\s*\)/g];
  const specs = patterns.flatMap((re) => [...text.matchAll(re)].map((m) => m[1]!));
  return specs.map((s) => relative(SRC, resolve(dirname(file), s)));
}

describe("the library API is the way in; the CLI is a layer on top", () => {
  it("nothing outside src/cli imports the CLI, but program() loading it on demand for a program file run directly", async () => {
    const offenders: string[] = [];
    for (const file of await sources(SRC)) {
      const rel = relative(SRC, file);
      if (rel.startsWith("cli/")) continue;
      for (const target of importsOf(file, await readFile(file, "utf8"))) if (target.startsWith("cli/")) offenders.push(`${rel} → ${target}`);
    }
    expect(offenders).toEqual(["entry/program.ts → cli/run.js"]);
  });

  it("importing cairn, cairn-iac/local and cairn-iac/testing loads no CLI code (commander stays unloaded)", async () => {
    const script = `
      for (const m of ["index.js", "providers/local/index.js", "testing/index.js"]) await import(${JSON.stringify(join(REPO, "dist"))} + "/" + m);
      const { createRequire } = await import("node:module");
      const cache = Object.keys(createRequire(import.meta.url).cache);
      console.log(JSON.stringify(cache.filter((k) => k.includes("commander") || k.includes("log-update"))));`;
    const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], { cwd: REPO });

    expect(JSON.parse(stdout)).toEqual([]);
  });
});
