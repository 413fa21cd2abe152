/**
 * `npm run codegen`: regenerates `src/providers/aws/generated/` from `schemas/`, writing only files whose
 * text changed and deleting generated files no schema produces any more.
 */
import { mkdirSync, readFileSync, readdirSync, rmSync, rmdirSync, existsSync, writeFileSync } from "node:fs";
import { dirname, join, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { GENERATED_DIR, generate } from "./generate.js";

/** What {@link syncGenerated} did, as repository-relative paths. */
export interface SyncResult {
  written: string[];
  deleted: string[];
  unchanged: string[];
}

/**
 * Makes `root/dir` (default {@link GENERATED_DIR}) hold exactly `files` (repository-relative path → text):
 * writes new and changed files, deletes other files ending in `ext` (default `.ts`) there and the
 * directories that leaves empty.
 *
 * @example
 * const { written, deleted } = syncGenerated(process.cwd(), generate("schemas"));
 */
export function syncGenerated(root: string, files: ReadonlyMap<string, string>, generatedDir: string = GENERATED_DIR, ext = ".ts"): SyncResult {
  const result: SyncResult = { written: [], deleted: [], unchanged: [] };
  for (const [rel, text] of files) {
    const path = join(root, ...rel.split("/"));
    // Unchanged files keep their mtime, so watchers and incremental builds see only real changes.
    if (existsSync(path) && readFileSync(path, "utf8") === text) {
      result.unchanged.push(rel);
      continue;
    }
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    result.written.push(rel);
  }
  const dir = join(root, ...generatedDir.split("/"));
  if (!existsSync(dir)) return result;
  const onDisk = readdirSync(dir, { recursive: true, encoding: "utf8" }).map((p) => p.split(sep).join("/"));
  for (const p of onDisk.filter((p) => p.endsWith(ext)).sort()) {
    const rel = `${generatedDir}/${p}`;
    if (files.has(rel)) continue;
    rmSync(join(dir, p));
    result.deleted.push(rel);
  }
  // Deepest first, so a directory emptied by removing its subdirectories goes too.
  const dirs = onDisk.filter((p) => !p.endsWith(ext)).sort((a, b) => b.split("/").length - a.split("/").length);
  for (const p of dirs) {
    const path = join(dir, p);
    if (existsSync(path) && isEmptyDir(path)) rmdirSync(path);
  }
  return result;
}

function isEmptyDir(path: string): boolean {
  try {
    return readdirSync(path).length === 0;
  } catch {
    return false; // not a directory
  }
}

function main(): void {
  const root = fileURLToPath(new URL("..", import.meta.url));
  let files: Map<string, string>;
  try {
    files = generate(join(root, "schemas"));
  } catch (e) {
    console.error(`codegen failed: ${(e as Error).message}`);
    process.exit(1);
  }
  const { written, deleted, unchanged } = syncGenerated(root, files);
  for (const p of written) console.log(`wrote    ${p}`);
  for (const p of deleted) console.log(`deleted  ${p}`);
  console.log(`codegen: ${written.length} written, ${deleted.length} deleted, ${unchanged.length} unchanged.`);
}

// Run only as a script, so tests can import syncGenerated.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main();
