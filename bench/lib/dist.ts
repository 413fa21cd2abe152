// The CLI and import rows run the built package, so dist/ must come from the current src/: rebuild when
// any source file is newer than the last build (tsc rewrites every output file on each build).
import { spawnSync } from "node:child_process";
import { readdir, stat } from "node:fs/promises";
import { join, relative } from "node:path";
import { REPO } from "./config.js";

/**
 * Rebuilds dist/ with `npm run build` unless it is newer than every file in src/; says which on stderr.
 * @example await ensureFreshDist();
 */
export async function ensureFreshDist(): Promise<void> {
  const built = await stat(join(REPO, "dist", "index.js")).then((s) => s.mtimeMs, () => 0);
  const newest = await newestFile(join(REPO, "src"));
  if (built > newest.mtimeMs) {
    process.stderr.write(`dist/ is fresh: built ${new Date(built).toISOString()}, after the newest change in src/ (${relative(REPO, newest.path)}).\n`);
    return;
  }
  process.stderr.write(built ? `dist/ is older than ${relative(REPO, newest.path)}: running npm run build…\n` : "dist/ is missing: running npm run build…\n");
  const r = spawnSync("npm", ["run", "build"], { cwd: REPO, stdio: ["ignore", 2, 2] });
  if (r.status !== 0) throw new Error("npm run build failed: the bench measures the built package, so fix the build first.");
}

async function newestFile(dir: string): Promise<{ path: string; mtimeMs: number }> {
  let best = { path: dir, mtimeMs: 0 };
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const { mtimeMs } = await stat(path);
    if (mtimeMs > best.mtimeMs) best = { path, mtimeMs };
  }
  return best;
}
