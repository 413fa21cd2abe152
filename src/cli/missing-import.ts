import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, isAbsolute, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { UserError, type SiteText } from "../core/diagnostic.js";
import { closestName } from "../core/did-you-mean.js";

/** Cairn's package name: what its subpaths start with. */
const PACKAGE = "cairn-iac";

/** What Node's resolver said could not be found, and from which file. */
interface Missing {
  /** The import as the user wrote it, as far as the error tells (`cairn-iac/aws/S3`, `lodash`). */
  specifier: string;
  /** The importing file's path. */
  importer: string;
  /** Cairn's package folder, when the import is one of its subpaths. */
  cairnRoot?: string;
}

/**
 * One clear error for a program import Node could not resolve (ERR_MODULE_NOT_FOUND,
 * ERR_PACKAGE_PATH_NOT_EXPORTED) when it names a package, such as a misspelt Cairn module
 * (`cairn-iac/aws/S3`): what is wrong, the closest module Cairn has, at the line of the import. Undefined
 * for other failures (a relative file that is missing keeps Node's own message, which names both files).
 *
 * @example missingImportError(err, "/app") // UserError: 'infra.ts imports "cairn-iac/aws/S3", which Cairn does not have' / Did you mean "cairn-iac/aws/s3"?
 */
export function missingImportError(error: unknown, cwd: string): UserError | undefined {
  const missing = parse(error);
  if (!missing) return undefined;
  const shown = relative(cwd, missing.importer) || basename(missing.importer);
  const { site, specifier } = importSite(missing, cwd);
  if (missing.cairnRoot) {
    const meant = closestModule(specifier, cairnModules(missing.cairnRoot));
    const lowerCase = meant?.toLowerCase() === specifier.toLowerCase() ? " (Cairn's module names are lower case, as AWS::S3 is cairn-iac/aws/s3)" : "";
    return new UserError({
      summary: `${shown} imports "${specifier}", which Cairn does not have.`,
      detail: meant ? `Did you mean "${meant}"?${lowerCase}` : `Cairn's modules are ${PACKAGE}, ${PACKAGE}/local, ${PACKAGE}/testing and ${PACKAGE}/aws/<service> (lower case, e.g. ${PACKAGE}/aws/s3).`,
      site,
    }, { cause: error });
  }
  const pkg = packageOf(specifier);
  const detail = pkg === "cairn" ? `Cairn's package is ${PACKAGE}: import "${specifier.replace(/^cairn/, PACKAGE)}".` : `Install it (\`npm install ${pkg}\`), or correct the name.`;
  return new UserError({ summary: `${shown} imports "${specifier}", which is not installed.`, detail, site }, { cause: error });
}

/** The Cairn module closest to a misspelt one, compared by the part after `cairn-iac/aws/` (or `cairn-iac/`), so a long prefix does not make any name look close. */
function closestModule(specifier: string, modules: readonly string[]): string | undefined {
  const prefix = specifier.startsWith(`${PACKAGE}/aws/`) ? `${PACKAGE}/aws/` : `${PACKAGE}/`;
  const tail = (m: string) => (m.startsWith(prefix) ? m.slice(prefix.length) : m);
  const meant = closestName(tail(specifier), modules.filter((m) => m.startsWith(prefix)).map(tail));
  return meant === undefined ? undefined : `${prefix}${meant}`;
}

function parse(error: unknown): Missing | undefined {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (!e || typeof e.message !== "string") return undefined;
  const message = e.message;
  if (e.code === "ERR_PACKAGE_PATH_NOT_EXPORTED") {
    // "Package subpath './lokal' is not defined by "exports" in /app/node_modules/cairn-iac/package.json imported from /app/infra.ts"
    const m = /subpath '\.\/([^']+)' is not defined by "exports" in (.+?)package\.json(?: imported from (.+))?$/s.exec(message);
    if (!m?.[3]) return undefined;
    const root = m[2]!.replace(/[\\/]$/, "");
    const name = packageName(root);
    return { specifier: `${name}/${m[1]}`, importer: pathOf(m[3]), ...(name === PACKAGE ? { cairnRoot: root } : {}) };
  }
  if (e.code !== "ERR_MODULE_NOT_FOUND") return undefined;
  // "Cannot find package 'lodash' imported from /app/infra.ts"
  const pkg = /^Cannot find package '([^']+)' imported from (.+)$/s.exec(message);
  if (pkg) return { specifier: pkg[1]!, importer: pathOf(pkg[2]!) };
  // A subpath of Cairn's "./aws/*" pattern with no file: "Cannot find module '/app/node_modules/cairn-iac/dist/providers/aws/services/S3.js' imported from /app/infra.ts"
  const mod = /^Cannot find module '(.+)[\\/]dist[\\/]providers[\\/]aws[\\/]services[\\/]([^\\/']+)\.js' imported from (.+)$/s.exec(message);
  if (mod && packageName(mod[1]!) === PACKAGE) return { specifier: `${PACKAGE}/aws/${mod[2]}`, importer: pathOf(mod[3]!), cairnRoot: mod[1]! };
  return undefined;
}

/** The importer's path, from a path or a `file:` URL, without the query a reload adds (`infra.ts?tsx`). */
function pathOf(fileOrUrl: string): string {
  const text = fileOrUrl.trim();
  return text.startsWith("file://") ? fileURLToPath(text.replace(/\?.*$/, "")) : text.replace(/\?[^/\\]*$/, "");
}

function packageName(root: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { name?: string }).name;
  } catch {
    return undefined;
  }
}

/** `@scope/name` or `name` of a bare specifier. */
function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

/** Every module a program can import from Cairn: its exports, with `./aws/*` as one per generated service. */
function cairnModules(root: string): string[] {
  let exports: Record<string, unknown> = {};
  try {
    exports = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { exports?: Record<string, unknown> }).exports ?? {};
  } catch {
    // no list: no suggestion
  }
  const names = Object.keys(exports).filter((k) => !k.includes("*")).map((k) => (k === "." ? PACKAGE : `${PACKAGE}/${k.slice(2)}`));
  const services = join(root, "dist", "providers", "aws", "services");
  if (existsSync(services)) for (const f of readdirSync(services)) if (f.endsWith(".js")) names.push(`${PACKAGE}/aws/${f.slice(0, -3)}`);
  return names;
}

/**
 * The line of the import in the importing file, found by its text, and the specifier as written there (Node
 * names only the package of a package it cannot find: `cairn` for `cairn/aws/s3`); else the file alone.
 */
function importSite(missing: Missing, cwd: string): { site: SiteText; specifier: string } {
  const rel = relative(cwd, missing.importer);
  const file = rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : missing.importer;
  let text = "";
  try {
    text = readFileSync(missing.importer, "utf8");
  } catch {
    // the file alone
  }
  const quoted = new RegExp(`(["'])(${missing.specifier.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?:/[^"']*)?)\\1`);
  for (const [i, line] of text.split("\n").entries()) {
    const m = quoted.exec(line);
    if (m) return { site: { toString: () => `${file}:${i + 1}:${m.index + 1}` }, specifier: m[2]! };
  }
  return { site: { toString: () => file }, specifier: missing.specifier };
}
