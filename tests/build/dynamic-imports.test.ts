import { describe, expect, it } from "vitest";
import { init, parse } from "es-module-lexer";
import { readFile, readdir } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

// `npm test` builds dist before vitest runs; these tests read what a user installs.
const DIST = fileURLToPath(new URL("../../dist", import.meta.url));

async function builtFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(entries.map((e) => (e.isDirectory() ? builtFiles(join(dir, e.name)) : Promise.resolve(e.name.endsWith(".js") ? [join(dir, e.name)] : []))));
  return nested.flat();
}

async function dynamicImportsOf(file: string): Promise<number> {
  await init;
  const [imports] = parse(await readFile(file, "utf8"), file);
  return imports.filter((i) => i.d > -1).length;
}

describe("the built package's dynamic imports", () => {
  // Under tsx, each module with a dynamic import is rewritten with a full source map (~0.1 s at start-up
  // for Cairn's large chunks), so they all go through one-line helpers (scripts/dynamic-imports.mjs).
  it("live only in the one-line dynamic-import.js helpers", async () => {
    const files = await builtFiles(DIST);
    const withDynamic: string[] = [];
    for (const f of files) if ((await dynamicImportsOf(f)) > 0) withDynamic.push(relative(DIST, f));
    expect(withDynamic.length).toBeGreaterThan(0);
    expect(withDynamic.filter((f) => !f.endsWith("dynamic-import.js"))).toEqual([]);
  });

  it("are still made: each helper is imported by a file in its directory", async () => {
    const files = await builtFiles(DIST);
    const helpers = files.filter((f) => f.endsWith("dynamic-import.js"));
    for (const helper of helpers) {
      const source = await readFile(helper, "utf8");
      // In a CommonJS copy of Cairn (tsx running a program without "type": "module") its own modules are required.
      expect(source.split("\n").filter((l) => l && !l.startsWith("//"))).toEqual([
        'export const dynamicImport$ = (specifier) => typeof require === "function" && /^(?:\\.|cairn-iac(?:\\/|$))/.test(specifier) ? Promise.resolve().then(() => require(specifier)) : import(specifier);',
      ]);
      const dir = join(helper, "..");
      const users = [];
      for (const f of files) if (join(f, "..") === dir && (await readFile(f, "utf8")).includes('from"./dynamic-import.js"')) users.push(f);
      expect(users.length, relative(DIST, helper)).toBeGreaterThan(0);
    }
  });

  it("keep the bin's hashbang on its first line", async () => {
    const bin = await readFile(join(DIST, "cli/bin.js"), "utf8");
    expect(bin.startsWith("#!/usr/bin/env node\n")).toBe(true);
  });
});
