// Moves every dynamic `import()` of a built file into a one-line helper beside it.
//
// Why: under tsx (how users run Cairn), every ES module that contains a dynamic import is rewritten by
// tsx's loader, which appends an interop `.then(...)` to each one and builds a full-resolution source
// map of the whole file with magic-string; Node then parses that map too. For Cairn's two large chunks
// that cost ~0.1 s of start-up and ~10 MB of RSS on every run. With the imports in a tiny helper, only
// the helper is rewritten; it sits in the same directory, so relative and bare specifiers resolve
// exactly as before, and tsx's interop still applies (to the helper's one `import()`).
import { init, parse } from "es-module-lexer";
import { readFileSync, writeFileSync, existsSync } from "node:fs";
import { dirname, join } from "node:path";

const HELPER = "dynamic-import.js";
const NAME = "dynamicImport$";
// A program in a project without "type": "module" that `npx tsx` runs is CommonJS: tsx turns Cairn's modules
// into CommonJS when it requires them, and there `require` exists. Cairn's own modules (relative chunks,
// `cairn-iac/...`) are then required too, so the program and the command line share one copy of Cairn (an
// import() would load a second, ES copy, which knows nothing of the first one's resources).
const HELPER_SOURCE = `// Written by scripts/dynamic-imports.mjs: the one dynamic import of the files in this directory.
export const ${NAME} = (specifier) => typeof require === "function" && /^(?:\\.|cairn-iac(?:\\/|$))/.test(specifier) ? Promise.resolve().then(() => require(specifier)) : import(specifier);
`;

/**
 * Rewrites `import(x)` to `dynamicImport$(x)` in each file that has one, importing the helper from
 * `./dynamic-import.js`. Returns how many imports moved.
 * @example await moveDynamicImports(["dist/chunks/chunk-ABC.js"]);
 */
export async function moveDynamicImports(files) {
  await init;
  let moved = 0;
  for (const file of files) moved += rewrite(file);
  return moved;
}

function rewrite(file) {
  const code = readFileSync(file, "utf8");
  const [imports] = parse(code, file);
  // d > -1: a dynamic import whose `import` keyword starts at ss (-2 is import.meta, -1 a static import).
  const dynamic = imports.filter((i) => i.d > -1);
  if (dynamic.length === 0) return 0;
  let out = "";
  let at = 0;
  for (const i of dynamic) {
    if (code.slice(i.ss, i.ss + 6) !== "import") throw new Error(`${file}: no 'import' keyword at ${i.ss}`);
    out += code.slice(at, i.ss) + NAME;
    at = i.ss + 6;
  }
  out += code.slice(at);
  // After a hashbang line, if any: it must stay the first line of the file.
  const head = out.startsWith("#!") ? out.indexOf("\n") + 1 : 0;
  out = out.slice(0, head) + `import{${NAME}}from"./${HELPER}";` + out.slice(head);
  writeFileSync(file, out);
  const helper = join(dirname(file), HELPER);
  if (!existsSync(helper)) writeFileSync(helper, HELPER_SOURCE);
  return dynamic.length;
}
