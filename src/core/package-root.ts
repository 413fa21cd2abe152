import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** True when `dir` holds Cairn's own package.json. */
function isCairnRoot(dir: string): boolean {
  const file = join(dir, "package.json");
  if (!existsSync(file)) return false;
  try {
    return (JSON.parse(readFileSync(file, "utf8")) as { name?: string }).name === "cairn-iac";
  } catch {
    return false;
  }
}

/** The nearest folder at or above `from` that is Cairn's package, or undefined. */
function findRoot(from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    if (isCairnRoot(dir)) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * Cairn's package folder (the one with its package.json, `templates/` and `dist/`), found by walking up from
 * this module: it works from `src/` (tests, tsx) and from the bundled `dist/` chunks alike, whose depth differs.
 *
 * @example readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")
 */
export const PACKAGE_ROOT: string = findRoot(dirname(fileURLToPath(import.meta.url))) ?? dirname(dirname(fileURLToPath(import.meta.url)));
