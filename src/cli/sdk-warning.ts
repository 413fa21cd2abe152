/**
 * The AWS SDK's Node-version warning, shown once as one line: on Node 20 every SDK client's first use
 * prints a 6–8 line `NodeVersionSupportWarning` (plus Node's "--trace-warnings" line) into every command's
 * output.
 *
 * @module
 */

const PREFIX = "NodeVersionSupportWarning";
let installed = false;

/**
 * Replaces the SDK's Node-version warning with one line through `write` (at most once per process); every
 * other warning goes to Node's own `process.emitWarning` as before. Installing twice changes nothing.
 *
 * @example oneLineSdkNodeWarning((line) => process.stderr.write(line));
 * // warning: The AWS SDK for JavaScript (v3) versions published after the first week of January 2027 will require node >=22. You are running node v20.20.2.
 */
export function oneLineSdkNodeWarning(write: (line: string) => void): void {
  if (installed) return;
  installed = true;
  const original = process.emitWarning;
  let shown = false;
  process.emitWarning = function emitWarning(this: unknown, warning: string | Error, ...rest: unknown[]) {
    const text = typeof warning === "string" ? warning : warning?.message;
    if (typeof text !== "string" || !text.startsWith(PREFIX)) return (original as (...a: unknown[]) => void).call(process, warning, ...rest);
    if (shown) return;
    shown = true;
    // The SDK's first paragraph says it all; the rest is advice to upgrade and a link.
    const first = text.slice(PREFIX.length).replace(/^:\s*/, "").split(/\n\s*\n/)[0]!.replace(/\s+/g, " ").trim();
    write(`warning: ${first}\n`);
  } as typeof process.emitWarning;
}
