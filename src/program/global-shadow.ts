import { isAbsolute, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { UserError, type SiteText } from "../core/diagnostic.js";
import { PACKAGE_ROOT } from "../core/package-root.js";

/**
 * Cairn's classes whose names are also JavaScript's own globals, with the modules that export them: a program
 * that forgets the import calls the global instead (`new Function("fn", {...})` builds a JavaScript function
 * from source text, and fails with "Unexpected identifier 'Object'"). Found by comparing the generated
 * services' exports with `globalThis` on Node 20, 22 and 24.
 */
const SHADOWED: Readonly<Record<string, { modules: readonly string[]; fails: RegExp }>> = {
  // The global parses its last argument as a function body: an object becomes "[object Object]".
  Function: { modules: ["cairn-iac/aws/lambda", "cairn-iac/aws/cloudfront", "cairn-iac/aws/mediatailor"], fails: /^Unexpected (identifier|token)/ },
  // The global reads its first argument as entries: a name's characters, one at a time, are not [key, value] pairs.
  Map: { modules: ["cairn-iac/aws/location"], fails: /^Iterator value \S is not an entry object/ },
};

/** The first two lines of a V8 trace: the global's frame (`at new Function (<anonymous>)`), then its caller's. */
const GLOBAL_FRAME = /^\s+at (?:new )?(\w+) \(<anonymous>\)$/;
/** `file:line:column` at the end of a trace line, e.g. `    at main (/p/infra.ts:12:3)` or `    at file:///p/infra.ts:12:3`. */
const POSITION = /\(?((?:file:\/\/)?[^\s()]+):(\d+):(\d+)\)?\s*$/;

const OWN = [join(PACKAGE_ROOT, "dist") + sep, join(PACKAGE_ROOT, "src") + sep];

/**
 * A clear error for `e` when it was thrown by one of JavaScript's globals that share a name with a Cairn class,
 * called from the user's code (a missing import): it says so at the user's line. Undefined for anything else.
 *
 * @example
 * try { fn() } catch (e) { throw globalShadowError(e) ?? e; }
 * // "Function here is JavaScript's global Function: import it from cairn-iac/aws/lambda" at infra.ts:6:14
 */
export function globalShadowError(e: unknown): UserError | undefined {
  if (!(e instanceof Error) || typeof e.stack !== "string") return undefined;
  const lines = e.stack.split("\n");
  const first = lines.findIndex((l) => /^\s+at /.test(l));
  const global = first < 0 ? undefined : GLOBAL_FRAME.exec(lines[first]!)?.[1];
  const shadowed = global ? SHADOWED[global] : undefined;
  if (!global || !shadowed || !shadowed.fails.test(e.message)) return undefined;
  const site = userSite(lines[first + 1]);
  if (!site) return undefined;
  const [main, ...others] = shadowed.modules;
  return new UserError(
    {
      summary: `${global} here is JavaScript's global ${global}: import it from ${main}${others.length ? ` (or ${others.join(", ")})` : ""}.`,
      detail:
        `Without the import, \`new ${global}(...)\` makes JavaScript's own ${global}, which failed: ${e.message}. ` +
        `Add \`import * as ${main!.split("/").pop()} from "${main}"\` and write \`new ${main!.split("/").pop()}.${global}(...)\` (a namespace import never clashes with a global).`,
      site,
    },
    { cause: e },
  );
}

/** The position of a trace line when it is in the user's code on disk (not Cairn's, not Node's). */
function userSite(line: string | undefined): SiteText | undefined {
  const m = line ? POSITION.exec(line) : null;
  if (!m) return undefined;
  const file = m[1]!.startsWith("file://") ? fileURLToPath(m[1]!) : m[1]!;
  if (!isAbsolute(file) || OWN.some((root) => file.startsWith(root))) return undefined;
  const rel = relative(process.cwd(), file);
  const text = `${rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : file}:${m[2]}:${m[3]}`;
  return { toString: () => text };
}
