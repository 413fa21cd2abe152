/**
 * `npm run gen`: regenerates every generated file — the hand-written-schema AWS types (`codegen/generate.ts`)
 * and the Cloud Control service modules (`codegen/cloudcontrol/`). `npm run gen -- --check` writes nothing
 * and fails when a committed file differs from what generation makes (CI runs it).
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { GENERATED_DIR, generate } from "./generate.js";
import { syncGenerated } from "./main.js";
import { generateServices } from "./cloudcontrol/generate.js";
import { SERVICES_DIR } from "./cloudcontrol/write.js";
import { REGISTRY_DIR } from "./registry/runtime.js";

/** Files that differ between `files` and what `root/dir` holds: missing, changed or stale (files ending in `ext`). */
export function differences(root: string, files: ReadonlyMap<string, string>, dir: string, ext = ".ts"): string[] {
  const out: string[] = [];
  for (const [rel, text] of files) {
    const path = join(root, ...rel.split("/"));
    if (!existsSync(path)) out.push(`missing  ${rel}`);
    else if (readFileSync(path, "utf8") !== text) out.push(`changed  ${rel}`);
  }
  const abs = join(root, ...dir.split("/"));
  const onDisk = existsSync(abs) ? readdirSync(abs, { recursive: true, encoding: "utf8" }).filter((p) => p.endsWith(ext)) : [];
  for (const p of onDisk) if (!files.has(`${dir}/${p.split("\\").join("/")}`)) out.push(`stale    ${dir}/${p}`);
  return out;
}

async function main(): Promise<void> {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const check = process.argv.includes("--check");
  const started = performance.now();
  const sets: [Map<string, string>, string, string][] = [[generate(join(root, "schemas")), GENERATED_DIR, ".ts"]];
  const cc = await generateServices();
  sets.push([cc.files, SERVICES_DIR, ".ts"], [cc.runtime, REGISTRY_DIR, ".json"]);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (check) {
    const diffs = sets.flatMap(([files, dir, ext]) => differences(root, files, dir, ext));
    if (diffs.length) {
      console.error(`gen --check: ${diffs.length} generated file(s) differ from ${cc.source} and schemas/ — run \`npm run gen\` and commit:\n  ${diffs.slice(0, 20).join("\n  ")}`);
      process.exit(1);
    }
    console.log(`gen --check: every generated file is up to date (${cc.types} types in ${cc.services} services from ${cc.source}; ${seconds} s).`);
    return;
  }
  let written = 0;
  let deleted = 0;
  for (const [files, dir, ext] of sets) {
    const r = syncGenerated(root, files, dir, ext);
    written += r.written.length;
    deleted += r.deleted.length;
  }
  console.log(`gen: ${cc.types} types in ${cc.services} services from ${cc.source}: ${written} file(s) written, ${deleted} deleted (${seconds} s).`);
}

await main();
