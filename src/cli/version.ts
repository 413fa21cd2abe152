import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_ROOT } from "../core/package-root.js";

/**
 * Cairn's version, from its package.json.
 * @example cairnVersion() // "0.1.0"
 */
export function cairnVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as { version: string }).version;
  } catch {
    return "unknown";
  }
}
