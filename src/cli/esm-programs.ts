/**
 * Programs are ES modules wherever they live: a hook that makes Node load a TypeScript file as one even in a
 * folder whose package.json has no `"type": "module"` (or with no package.json at all).
 *
 * @module
 */
import { register } from "node:module";

// Runs before tsx's own resolve hook answers: a `.ts`/`.tsx` file of the user's (not a dependency's) that
// Node would load as CommonJS is loaded as an ES module instead; tsx then compiles it as one. Without this,
// Node loads it as CommonJS, whose require() of Cairn (an ES module) fails ("Cannot require() ES Module …
// in a cycle" on Node 20.19+, ERR_REQUIRE_ESM before). `.cts` files stay CommonJS, as they say.
const HOOK = `export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  return r.format === "commonjs" && /\\.tsx?(?:$|\\?)/.test(r.url) && !r.url.includes("/node_modules/") ? { ...r, format: "module" } : r;
}`;

let registered = false;

/**
 * Registers the hook once in this process (call it after tsx's `register()`, so it runs first).
 *
 * @example register(); loadTypeScriptAsEsm(); await import(pathToFileURL("infra.ts").href);
 */
export function loadTypeScriptAsEsm(): void {
  if (registered) return;
  registered = true;
  register(`data:text/javascript,${encodeURIComponent(HOOK)}`);
}
