import { afterEach, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runInNewContext } from "node:vm";
import { unzipSync } from "fflate";
import { bundleEntry, loadEsbuild } from "../../../../src/providers/aws/assets/bundle.js";
import { zipEntries } from "../../../../src/providers/aws/assets/zip.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A small TypeScript handler importing a helper module, in a new folder (under `parent` when given). */
function project(parent = tmpdir()): string {
  const dir = mkdtempSync(join(parent, "cairn-entry-"));
  dirs.push(dir);
  mkdirSync(join(dir, "src"));
  writeFileSync(join(dir, "src", "greet.ts"), "export const greet = (name: string): string => `hello ${name}`;\n");
  writeFileSync(join(dir, "src", "handler.ts"), 'import { greet } from "./greet";\nimport { S3Client } from "@aws-sdk/client-s3";\nexport const handler = async (e: { name: string }) => ({ body: greet(e.name), sdk: typeof S3Client });\n');
  return dir;
}

describe("a TypeScript entry bundled with esbuild", () => {
  it("becomes one CommonJS index.js exporting the handler, with its imports inlined and @aws-sdk left to the runtime", async () => {
    const dir = project();

    const files = unzipSync(zipEntries(bundleEntry(join(dir, "src", "handler.ts"), { cwd: dir })).bytes);

    expect(Object.keys(files)).toEqual(["index.js"]);
    const code = new TextDecoder().decode(files["index.js"]);
    expect(code).toContain('require("@aws-sdk/client-s3")');
    const module = { exports: {} as { handler?: (e: { name: string }) => Promise<{ body: string }> } };
    runInNewContext(code, { module, exports: module.exports, require: () => ({ S3Client: class {} }) });
    expect((await module.exports.handler!({ name: "cairn" })).body).toBe("hello cairn");
  });

  it("gives the same bytes for the same sources in another folder", () => {
    const a = project();
    const b = project(a);

    const za = zipEntries(bundleEntry(join(a, "src", "handler.ts"), { cwd: a }));
    const zb = zipEntries(bundleEntry(join(b, "src", "handler.ts"), { cwd: b }));

    expect(zb.hash).toBe(za.hash);
  });

  it("says to install esbuild when it cannot be found", () => {
    const empty = mkdtempSync(join(tmpdir(), "cairn-no-esbuild-"));
    dirs.push(empty);

    expect(() => loadEsbuild([join(empty, "noop.js")])).toThrow(/needs esbuild, an optional peer dependency of cairn-iac that is not installed: run `npm install --save-dev esbuild`/);
  });
});
