/**
 * Which Node.js versions Cairn runs on. Kept free of imports, so that it can run (and say what is wrong)
 * before anything that an older Node cannot load.
 *
 * @module
 */

/** The oldest Node.js Cairn runs on: package.json `engines` says the same (a test keeps them equal). */
export const MINIMUM_NODE = "20.12.0";

function parts(version: string): number[] {
  return version.replace(/^v/, "").split(".").map((n) => Number.parseInt(n, 10) || 0);
}

/**
 * Why Cairn cannot run on Node.js `version` (as `process.versions.node` gives it), or undefined when it can.
 *
 * @example unsupportedNodeMessage("18.20.8", "/usr/bin/node") // "Cairn needs Node.js 20.12.0 or newer, and /usr/bin/node is 18.20.8. …"
 * @example unsupportedNodeMessage("22.23.3", "/usr/bin/node") // undefined
 */
export function unsupportedNodeMessage(version: string, execPath: string): string | undefined {
  const [major = 0, minor = 0, patch = 0] = parts(version);
  const [minMajor = 0, minMinor = 0, minPatch = 0] = parts(MINIMUM_NODE);
  const old = major !== minMajor ? major < minMajor : minor !== minMinor ? minor < minMinor : patch < minPatch;
  if (!old) return undefined;
  return `Cairn needs Node.js ${MINIMUM_NODE} or newer, and ${execPath} is ${version}. Install Node.js 22 or 24 (LTS) — for example \`nvm install 24\`, or from https://nodejs.org — and run again with it first on PATH.`;
}
