/**
 * Node's warning for a program whose package.json has no `"type"` (MODULE_TYPELESS_PACKAGE_JSON, four lines
 * on Node 22.7+ when it reparses the file as an ES module), said by the bin as one line.
 *
 * @module
 */

/**
 * Runs `load` with Node's typeless-package warning replaced by one line through `write` (once); other
 * warnings pass through. Node's own `process.emitWarning` is back when `load` settles.
 *
 * @example const mod = await withOneLineTypelessWarning(() => import(url), (l) => process.stderr.write(l), "infra.ts");
 * // note: /app/package.json has no "type": "module", so Node parses infra.ts twice: add "type": "module" to it to start faster.
 */
export async function withOneLineTypelessWarning<T>(load: () => Promise<T>, write: (line: string) => void, shown: string): Promise<T> {
  const original = process.emitWarning;
  let said = false;
  process.emitWarning = function emitWarning(this: unknown, warning: string | Error, ...rest: unknown[]) {
    const options = rest[0] as { code?: unknown } | undefined;
    if (options?.code !== "MODULE_TYPELESS_PACKAGE_JSON") return (original as (...a: unknown[]) => void).call(process, warning, ...rest);
    if (said) return;
    said = true;
    const pkg = /add "type": "module" to (.+?)\.?$/m.exec(String(warning))?.[1] ?? "its package.json";
    write(`note: ${pkg} has no "type": "module", so Node parses ${shown} twice: add "type": "module" to it to start faster.\n`);
  } as typeof process.emitWarning;
  try {
    return await load();
  } finally {
    process.emitWarning = original;
  }
}
