import { readFileSync } from "node:fs";

/**
 * Cairn's version, from its package.json (two folders up from `src/cli` and `dist/cli` alike).
 * @example cairnVersion() // "0.1.0"
 */
export function cairnVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version;
  } catch {
    return "unknown";
  }
}
