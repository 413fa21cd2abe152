import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { ZipEntry } from "./zip.js";
import { UserError } from "../../../core/diagnostic.js";

/** The part of esbuild's API a bundle needs (esbuild is an optional peer dependency: its types may be absent). */
export interface Esbuild {
  buildSync(options: Record<string, unknown>): { outputFiles?: { path: string; contents: Uint8Array }[] };
}

/**
 * esbuild, found from the first of `bases` (files or `file:` URLs) that can require it: the user's project
 * first, then Cairn's own folder. Missing everywhere: one message saying to install it.
 *
 * @example const esbuild = loadEsbuild([join(userDir, "noop.js"), import.meta.url]);
 */
export function loadEsbuild(bases: readonly string[]): Esbuild {
  for (const base of bases) {
    try {
      return createRequire(base)("esbuild") as Esbuild;
    } catch (e) {
      if ((e as { code?: string }).code !== "MODULE_NOT_FOUND") throw e;
    }
  }
  throw new UserError(`Bundling a Lambda entry needs esbuild, an optional peer dependency of cairn-iac that is not installed: run \`npm install --save-dev esbuild\`, or give the code as a folder (assets.folder).`);
}

/**
 * One TypeScript or JavaScript entry bundled for Node.js Lambda runtimes, as the single file `index.js`
 * (CommonJS, so the handler is `index.<export>`). `@aws-sdk/*` stays out of the bundle: the Node.js
 * runtimes 18 and later provide it (as CDK's NodejsFunction does). Paths in the output are relative to the
 * entry's folder, so the bytes do not depend on where the project is checked out.
 *
 * @example bundleEntry("/app/src/handler.ts", { cwd: "/app" }) // [{ path: "index.js", bytes, executable: false }]
 */
export function bundleEntry(entry: string, opts: { cwd: string; target?: string; external?: readonly string[] }): ZipEntry[] {
  const esbuild = loadEsbuild([join(opts.cwd, "noop.js"), import.meta.url]);
  const result = esbuild.buildSync({
    entryPoints: [entry],
    absWorkingDir: dirname(entry),
    bundle: true,
    platform: "node",
    format: "cjs",
    target: opts.target ?? "node20",
    external: ["@aws-sdk/*", ...(opts.external ?? [])],
    outfile: "index.js",
    write: false,
    logLevel: "silent",
  });
  const out = result.outputFiles?.[0];
  if (!out) throw new Error(`esbuild wrote nothing for ${entry}.`);
  return [{ path: "index.js", bytes: out.contents, executable: false }];
}
