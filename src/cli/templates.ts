import { existsSync, readFileSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { PACKAGE_ROOT } from "../core/package-root.js";
import { UsageError } from "./errors.js";
import { cairnVersion } from "./version.js";

/** The package's `templates/` folder. */
export const TEMPLATES_DIR = join(PACKAGE_ROOT, "templates");

/** What `templates/<name>/template.json` says about a template (the file itself is not copied). */
export interface TemplateInfo {
  name: string;
  description: string;
  /** Commands to run after `npm install`, printed by `cairn new`. */
  next: string[];
}

/** Files a template folder may hold that are never copied (a template's own install, state, outputs). */
const SKIP = new Set(["template.json", "node_modules", ".cairn", "out"]);

/** npm strips `.gitignore` from published packages, so templates carry it as `gitignore`. */
const RENAMED: Record<string, string> = { gitignore: ".gitignore" };

/**
 * The templates this Cairn ships, sorted by name.
 *
 * @example (await listTemplates()).map((t) => t.name) // ["acm-certificate", "quickstart"]
 */
export async function listTemplates(): Promise<TemplateInfo[]> {
  const out: TemplateInfo[] = [];
  for (const e of await readdir(TEMPLATES_DIR, { withFileTypes: true })) {
    const manifest = join(TEMPLATES_DIR, e.name, "template.json");
    if (!e.isDirectory() || !existsSync(manifest)) continue;
    const info = JSON.parse(await readFile(manifest, "utf8")) as Omit<TemplateInfo, "name">;
    out.push({ name: e.name, description: info.description, next: info.next ?? [] });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** A project name that is a valid program name and npm package name. */
const VALID_NAME = /^[a-z0-9][a-z0-9._-]*$/;

async function filesOf(dir: string, base = dir): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    if (SKIP.has(e.name)) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await filesOf(p, base)));
    else out.push(relative(base, p));
  }
  return out.sort();
}

/** The `cairn-iac` dependency declared in the package.json of `root`, if any. */
function declaredSpec(root: string): string | undefined {
  try {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as Record<string, Record<string, string> | undefined>;
    return pkg.dependencies?.["cairn-iac"] ?? pkg.devDependencies?.["cairn-iac"];
  } catch {
    return undefined;
  }
}

/**
 * The `cairn-iac` dependency a new project in `dir` declares: this Cairn's version from the registry, or, when
 * this Cairn was installed from a file (`npm i ./cairn-iac-0.1.0.tgz`, `npx --package ./cairn-iac-0.1.0.tgz
 * cairn new …`), that same file, so `npm install` in the project resolves it without the registry (npm records
 * the file in the package.json of the folder it installed into, relative to that folder); run from a git
 * checkout of Cairn, that checkout's folder (build it first: the project imports its `dist/`).
 *
 * @example cairnDependency("/home/me/my-app") // "^0.1.0", or "file:../cairn-iac-0.1.0.tgz"
 */
export function cairnDependency(dir: string, packageRoot = PACKAGE_ROOT): string {
  const modules = dirname(packageRoot);
  const installed = basename(modules) === "node_modules";
  // A checkout (a git work tree, not an install): the project links to it, as `npm i <folder>` does.
  if (!installed && existsSync(join(packageRoot, ".git"))) return fileSpec(dir, packageRoot);
  const spec = installed ? declaredSpec(dirname(modules)) : undefined;
  if (!spec?.startsWith("file:")) return `^${cairnVersion()}`;
  return fileSpec(dir, resolve(dirname(modules), spec.slice("file:".length)));
}

/** `file:` and the path of `target` relative to `dir`, with forward slashes (npm's form on every system). */
function fileSpec(dir: string, target: string): string {
  return `file:${relative(dir, target).split(sep).join("/")}`;
}

/** What {@link scaffold} made. */
export interface Scaffolded {
  dir: string;
  name: string;
  template: TemplateInfo;
  /** The files written, relative to `dir`. */
  files: string[];
}

/**
 * Copies template `template` into `dir` (which must be empty or absent), filling in the project name
 * (`{{name}}`) and the `cairn-iac` dependency (`{{cairnDependency}}`: see {@link cairnDependency}).
 *
 * @example await scaffold({ template: "quickstart", dir: "/home/me/my-app" }) // { name: "my-app", files: ["README.md", …] }
 */
export async function scaffold(opts: { template: string; dir: string; name?: string }): Promise<Scaffolded> {
  const templates = await listTemplates();
  const template = templates.find((t) => t.name === opts.template);
  if (!template) throw new UsageError(`There is no template "${opts.template}". Templates: ${templates.map((t) => `${t.name} (${t.description})`).join(", ")}.`);
  const dir = resolve(opts.dir);
  const name = opts.name ?? basename(dir).toLowerCase();
  if (!VALID_NAME.test(name)) {
    throw new UsageError(`"${name}" cannot name a project: use lower-case letters, digits, ".", "_" or "-", starting with a letter or digit. Pass --name <name>, or choose another folder.`);
  }
  if (existsSync(dir) && (await readdir(dir)).length > 0) throw new UsageError(`${opts.dir} is not empty: choose a new folder, or empty this one.`);
  const source = join(TEMPLATES_DIR, template.name);
  const files: string[] = [];
  const dependency = cairnDependency(dir);
  for (const file of await filesOf(source)) {
    const target = join(dirname(file), RENAMED[basename(file)] ?? basename(file));
    const text = (await readFile(join(source, file), "utf8")).replaceAll("{{name}}", name).replaceAll("{{cairnDependency}}", dependency);
    await mkdir(join(dir, dirname(target)), { recursive: true });
    await writeFile(join(dir, target), text);
    files.push(target);
  }
  return { dir, name, template, files };
}
