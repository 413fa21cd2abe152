import { describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";

// `npm test` builds dist before vitest runs.
const ENTRY = pathToFileURL(fileURLToPath(new URL("../../dist/index.js", import.meta.url))).href;

describe('import "cairn-iac" (the built package)', () => {
  // Dependencies load when first used: proper-lockfile (and graceful-fs) when a file lock is taken, pg and
  // the AWS SDK with their backends, log-update on a terminal. Loading them at import was ~20 ms of ~70.
  it("loads no CommonJS module", () => {
    const script = `import { createRequire } from "node:module"; await import(${JSON.stringify(ENTRY)}); console.log(JSON.stringify(Object.keys(createRequire(import.meta.url).cache)));`;
    const env = { ...process.env };
    delete env.NODE_OPTIONS;
    const loaded = JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", env })) as string[];
    expect(loaded).toEqual([]);
  });
});
