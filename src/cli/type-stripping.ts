/**
 * Node's own TypeScript support (type stripping: on by default from Node 22.18 and 23.6), and the one-line
 * reason `npx cairn` gives when a program needs tsx's loader instead.
 *
 * @module
 */
import { existsSync } from "node:fs";
import { basename, relative } from "node:path";
import { fileURLToPath } from "node:url";

/** Files Node strips itself; `.tsx` (JSX) it does not load at all. */
const STRIPPABLE = /\.(?:[cm]?ts)$/;

/**
 * True when this Node runs `.ts`, `.mts` and `.cts` files itself (`process.features.typescript` is `"strip"`,
 * or `"transform"` under `--experimental-transform-types`), and `file` is one of them.
 *
 * @example nodeCanLoad("/app/infra.ts") // true on Node 22.18+ and 24, false on Node 20
 */
export function nodeCanLoad(file: string): boolean {
  // Read through a narrow type: Cairn compiles against the oldest supported Node's types, which lack it.
  const features = process.features as { typescript?: string | false };
  return Boolean(features.typescript) && STRIPPABLE.test(file);
}

/**
 * How to run a TypeScript program on this Node, for the commands Cairn suggests: `node` where Node strips
 * types itself, else `npx tsx`.
 *
 * @example `${typeScriptRunner()} infra.ts preview` // "node infra.ts preview" on Node 22.18+ and 24
 */
export function typeScriptRunner(): "node" | "npx tsx" {
  return nodeCanLoad("infra.ts") ? "node" : "npx tsx";
}

interface NodeError {
  code?: unknown;
  message?: unknown;
  stack?: unknown;
}

/**
 * Why Node could not load a program that tsx can (as one line for the user, naming the file and what to
 * change), or undefined when `error` is the program's own failure and loading it another way would not help:
 * - syntax that type stripping cannot erase (enums, namespaces, parameter properties: ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX);
 * - a relative import that names the compiled file (`./lib.js` for lib.ts): Node loads only the file named;
 * - any other import Node cannot resolve from a TypeScript file (extensionless paths, folders, tsconfig `paths`),
 *   which tsx resolves as TypeScript does.
 *
 * @example strippingFailure(err, "infra.ts", "/app") // "lib.ts uses TypeScript syntax Node cannot strip (enum at line 3); loading infra.ts with tsx instead — …"
 */
export function strippingFailure(error: unknown, shown: string, cwd: string): string | undefined {
  const e = (error ?? {}) as NodeError;
  const message = typeof e.message === "string" ? e.message : "";
  const rel = (p: string) => relative(cwd, p) || basename(p);
  const loading = (file: string) => (file === shown ? "loading it with tsx instead" : `loading ${shown} with tsx instead`);
  if (e.code === "ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX") {
    // Node puts the file and line first in the stack: "file:///app/lib.ts:3\n<source>\n^^^\n\nSyntaxError …".
    const where = /^(file:\/\/\S+?):(\d+)\n/.exec(typeof e.stack === "string" ? e.stack : "");
    const file = where ? rel(fileURLToPath(where[1]!)) : shown;
    const what = /TypeScript (.+?) is not supported/.exec(message)?.[1] ?? "syntax that is not only types";
    return `${file} uses TypeScript syntax Node cannot strip (${what}${where ? ` at line ${where[2]}` : ""}); ${loading(file)} — use only erasable syntax (tsconfig "erasableSyntaxOnly": true) to start faster.`;
  }
  if (e.code === "ERR_MODULE_NOT_FOUND" || e.code === "ERR_UNSUPPORTED_DIR_IMPORT") {
    // "Cannot find module '/app/lib.js' imported from /app/infra.ts", "Directory import '/app/lib' is not supported … imported from /app/infra.ts"
    const parsed = /(?:module|package|import) '([^']+)'.* imported from (.+)$/s.exec(message);
    if (!parsed) return undefined;
    const [, missing, importer] = parsed as unknown as [string, string, string];
    if (!STRIPPABLE.test(importer)) return undefined;
    const asTs = missing.replace(/\.([cm]?)js$/, ".$1ts");
    if (asTs !== missing && existsSync(asTs)) {
      return `${rel(importer)} imports ${basename(missing)}, which is ${basename(asTs)}: Node loads only the file an import names; ${loading(rel(importer))} — import "./${basename(asTs)}" (tsconfig "rewriteRelativeImportExtensions": true) to start faster.`;
    }
    const name = missing.startsWith("/") ? rel(missing) : missing;
    return `${rel(importer)} imports ${name}, which Node cannot resolve by itself (tsx also resolves extensionless paths, folders and tsconfig "paths"); ${loading(rel(importer))}.`;
  }
  return undefined;
}
