// The pinned Node runtimes of scripts/node-versions.json, for tests and the bench: the path of each one's
// binary, installed into the cache by scripts/with-node.sh when it is missing there.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** scripts/node-versions.json. */
export interface NodePins {
  /** Runtime name ("22", "20.12") → exact version. */
  versions: Record<string, string>;
  /** The runtimes CI runs the vitest suite on, besides the machine's Node 20. */
  tested: string[];
  /** The oldest supported runtime (package.json engines). */
  minimum: string;
  /** A runtime Cairn must refuse with a clear message. */
  unsupported: string;
}

/**
 * The pins, read once.
 * @example PINS.versions[PINS.minimum] // "20.12.0"
 */
export const PINS: NodePins = JSON.parse(readFileSync(new URL("./node-versions.json", import.meta.url), "utf8")) as NodePins;

const SCRIPT = fileURLToPath(new URL("./with-node.sh", import.meta.url));
const found = new Map<string, string>();

/**
 * The binary of a pinned runtime: from the cache, or installed into it first (from the npm registry). It
 * throws, saying why, when it cannot: tests that need a runtime fail rather than skip.
 *
 * @example execFileSync(pinnedNode("22"), ["infra.ts", "preview"])
 */
export function pinnedNode(runtime: string): string {
  let bin = found.get(runtime);
  if (!bin) {
    bin = execFileSync(SCRIPT, [runtime], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 120_000 }).trim();
    found.set(runtime, bin);
  }
  return bin;
}

/**
 * A Node that strips TypeScript types itself: this one when it does (the suite running on Node 22 or 24),
 * else the oldest pinned tested runtime.
 *
 * @example spawn(strippingNode(), ["infra.ts", "preview"])
 */
export function strippingNode(): string {
  const features = process.features as { typescript?: string | false };
  return features.typescript ? process.execPath : pinnedNode(PINS.tested[0]!);
}

/**
 * The binary of a Node release line or pinned runtime ("20", "22", "20.12"): this process's own Node when it
 * is of that line (how the machine's Node 20 is found), else the pinned one.
 *
 * @example runtimeNode("20") // process.execPath on the machine's Node 20
 */
export function runtimeNode(runtime: string): string {
  return process.versions.node === runtime || process.versions.node.startsWith(`${runtime}.`) ? process.execPath : pinnedNode(runtime);
}
