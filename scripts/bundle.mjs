// Builds dist/*.js: one ES module per package entry point plus shared chunks, with rxjs and zod inlined
// (tree-shaken ES builds). Importing Cairn then loads ~15 files instead of ~550 (its own 140 modules,
// rxjs's CommonJS build of ~300 files, zod's 95), which is most of the start-up under tsx. Declarations
// come from tsc (`tsc --emitDeclarationOnly`); see package.json "build".
import { build } from "esbuild";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { cpSync, readdirSync } from "node:fs";
import { moveDynamicImports } from "./dynamic-imports.mjs";

const require = createRequire(import.meta.url);
const rxjsEsm = join(dirname(require.resolve("rxjs/package.json")), "dist/esm/index.js");
const pkg = require("../package.json");
// Inlined: everything else a user may share with Cairn (the AWS SDK, pg, tsx) stays a real dependency.
const inlined = new Set(["rxjs", "zod"]);
const external = Object.keys(pkg.dependencies).filter((d) => !inlined.has(d));

/** rxjs's package.json sends Node to its CommonJS build; the ES build tree-shakes to what Cairn uses. */
const rxjsAsEsm = {
  name: "rxjs-esm",
  setup(b) {
    b.onResolve({ filter: /^rxjs$/ }, () => ({ path: rxjsEsm }));
  },
};

// One entry per AWS service module (`cairn-iac/aws/s3`, …): importing one loads only its own file and the shared
// Cloud Control runtime chunk.
const services = readdirSync("src/providers/aws/services").filter((f) => f.endsWith(".ts")).map((f) => `src/providers/aws/services/${f}`);

const result = await build({
  entryPoints: ["src/index.ts", "src/providers/local/index.ts", "src/providers/aws/index.ts", "src/testing/index.ts", "src/testing/vitest.ts", "src/cli/bin.ts", ...services],
  outdir: "dist",
  outbase: "src",
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external: [...external, ...external.map((d) => `${d}/*`), "vitest", "vitest/*"],
  plugins: [rxjsAsEsm],
  // No source maps: they would point into src/, which the package does not ship, and tsx (which turns source
  // maps on) parses every map it finds at start-up.
  sourcemap: false,
  // Whitespace only (names stay, so stack traces still say which function): under tsx, which turns source
  // maps on, Node keeps per-line data for every module it loads; one line per statement cost ~35 MB of RSS
  // and ~0.1 s of start-up for Cairn's bundle.
  minifyWhitespace: true,
  logLevel: "warning",
  // The metafile lists each output's dynamic imports, for moveDynamicImports below.
  metafile: true,
});
// The metafile lists dynamic imports it resolved; one of a computed specifier (`cairn-iac/aws/${module}`) it does
// not, so every chunk is looked at (files without one are left as they are).
const withDynamicImports = Object.keys(result.metafile.outputs).filter((file) => file.endsWith(".js") && !file.includes("/services/"));
await moveDynamicImports(withDynamicImports);
// The registry data read lazily at run time (validation schemas, handler permissions): plain JSON files, found
// by src/providers/aws/cloudcontrol/registry-schema.ts at the same place under dist/ as under src/.
cpSync("src/providers/aws/generated/registry", "dist/providers/aws/generated/registry", { recursive: true });
cpSync("src/providers/aws/generated/permissions.json", "dist/providers/aws/generated/permissions.json");
// BUNDLE_META=1 writes dist/meta.json: which inputs (and which packages) each output holds, to check
// what got inlined. Leave it off for a build that is published.
if (process.env.BUNDLE_META === "1") {
  const { writeFileSync } = await import("node:fs");
  writeFileSync("dist/meta.json", JSON.stringify(result.metafile));
}
