import { findSourceMap } from "node:module";
import { isAbsolute, join, relative, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { PACKAGE_ROOT } from "./package-root.js";

/**
 * Cairn's own folders, `dist/` and `src/`: frames from there are not the user's program. Both, because with
 * source maps on (as tsx turns them) a frame of `dist/x.js` is reported as `src/x.ts`.
 */
const OWN_ROOTS = [join(PACKAGE_ROOT, "dist") + sep, join(PACKAGE_ROOT, "src") + sep];
/** {@link OWN_ROOTS} as the `file:` URLs V8 names ES modules by, to test a frame without converting its URL. */
const OWN_URLS = OWN_ROOTS.map((root) => pathToFileURL(root).href);

/** Hands V8's call sites over as they are, instead of a formatted trace. */
const asCallSites = (_e: Error, callSites: NodeJS.CallSite[]): NodeJS.CallSite[] => callSites;

/** The raw V8 call sites of the caller's stack: no formatting and no source maps (those cost per frame). */
function rawCallSites(trace: { stack?: unknown } = new Error()): NodeJS.CallSite[] {
  const prepare = Error.prepareStackTrace;
  try {
    // V8 turns a captured trace into call sites when `stack` is first read, with the hook in place then.
    Error.prepareStackTrace = asCallSites;
    const sites = trace.stack;
    return Array.isArray(sites) ? (sites as NodeJS.CallSite[]) : [];
  } finally {
    Error.prepareStackTrace = prepare;
  }
}

/** The path of a frame's file when it is a file on disk (not `node:internal`, not `eval`). */
function diskPath(site: NodeJS.CallSite): string | undefined {
  const name = site.getFileName();
  if (!name) return undefined;
  if (name.startsWith("file://")) return fileURLToPath(name);
  return isAbsolute(name) ? name : undefined;
}

/** The first frame (with its path) outside Cairn's own code: where the user's program called in. */
function userFrame(sites: readonly NodeJS.CallSite[]): { site: NodeJS.CallSite; path: string } | undefined {
  for (const site of sites) {
    const path = diskPath(site);
    if (path && !OWN_ROOTS.some((root) => path.startsWith(root))) return { site, path };
  }
  return undefined;
}

/** {@link userFrame}'s site, found without turning a `file:` URL into a path (that costs more than the capture). */
function userSite(sites: readonly NodeJS.CallSite[]): NodeJS.CallSite | undefined {
  for (const site of sites) {
    const name = site.getFileName();
    if (!name) continue;
    if (name.startsWith("file://") ? !startsWithAny(name, OWN_URLS) : isAbsolute(name) && !startsWithAny(name, OWN_ROOTS)) return site;
  }
  return undefined;
}

/** True when `text` starts with one of `prefixes` (a loop, not `some`: no closure per resource declared). */
function startsWithAny(text: string, prefixes: readonly string[]): boolean {
  for (const p of prefixes) if (text.startsWith(p)) return true;
  return false;
}

/** `file:line:column` at the end of one formatted stack line, e.g. `    at main (/p/infra.ts:12:3)`. */
const POSITION = /\(?((?:file:\/\/)?[^\s()]+):(\d+):(\d+)\)?\s*$/;

/**
 * Where a raw call site is in the source the user wrote. Runners that compile TypeScript (tsx, vitest)
 * install an `Error.prepareStackTrace` that maps frames: it is given this one frame only. Without one, a
 * source map Node knows of is asked; else the position is the file's own.
 */
function sourcePosition(site: NodeJS.CallSite, path: string): { file: string; line: number; column: number } {
  const raw = { file: path, line: site.getLineNumber() ?? 0, column: site.getColumnNumber() ?? 0 };
  const prepare = Error.prepareStackTrace;
  if (prepare) {
    const text = String(prepare(new Error(), [site]));
    const m = POSITION.exec(text.split("\n").at(-1) ?? "");
    if (m) return { file: m[1]!.startsWith("file://") ? fileURLToPath(m[1]!) : m[1]!, line: Number(m[2]), column: Number(m[3]) };
    return raw;
  }
  const entry = findSourceMap(path)?.findEntry(raw.line - 1, raw.column - 1) as { originalSource?: string; originalLine?: number; originalColumn?: number } | undefined;
  if (!entry?.originalSource || entry.originalLine === undefined) return raw;
  const file = entry.originalSource.startsWith("file://") ? fileURLToPath(entry.originalSource) : entry.originalSource;
  return { file, line: entry.originalLine + 1, column: (entry.originalColumn ?? 0) + 1 };
}

/**
 * Frames looked at per declaration, counted from the caller of the function the user called (`new Bucket`,
 * `wait`): its caller, and one more for when that is Cairn's own (`Type.get` constructs the lookup). The
 * caller alone is captured first: see {@link userCallSite}.
 */
const SITE_FRAMES = 2;

/**
 * Where the user's program declared a resource, wait, lookup or component. Capturing keeps V8's call sites
 * of two frames; they are source-mapped and printed (`infra.ts:12:3`) only when a message names it: nearly
 * every site is never shown, and mapping costs far more than capturing. Only the user's call site is kept,
 * picked at once: the captured trace (the object it is captured on, its `stack` in a dictionary of
 * properties, and both frames) is about twice the size of the one call site, for the same CPU: keeping
 * one frame, not the whole trace, keeps a declaration small.
 * Never serialised: `toJSON` leaves it out of saved plans and JSON output, so where code sits never changes
 * what Cairn stores or fingerprints.
 *
 * @example
 * const site = sites.siteOf(userCallSite(wait));
 * `${site}` // "infra.ts:12:3" (relative to the current directory)
 */
export class DeclarationSite {
  private text: string | undefined;

  /** @internal */
  constructor(private readonly site: NodeJS.CallSite | undefined) {}

  /** `file:line:column`, the file relative to the current directory when it is inside it; "" if no frame is the user's. */
  toString(): string {
    if (this.text === undefined) {
      const path = this.site && diskPath(this.site);
      this.text = this.site && path ? shown(sourcePosition(this.site, path)) : "";
    }
    return this.text;
  }

  /** Left out of JSON: a site is for messages, not for state, saved plans or fingerprints. */
  toJSON(): undefined {
    return undefined;
  }
}

function shown(p: { file: string; line: number; column: number }): string {
  const rel = relative(process.cwd(), p.file);
  return `${rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : p.file}:${p.line}:${p.column}`;
}

/** The object traces are captured on: one for every capture, each read at once (a fresh object per capture was ~200 bytes of garbage). */
const TRACE: { stack?: unknown } = {};

/** V8's call sites of a call to `entry`: `frames` frames from its caller (V8 skips the ones up to it). */
function callSitesOf(entry: Function, frames: number): NodeJS.CallSite[] {
  const limit = Error.stackTraceLimit;
  try {
    Error.stackTraceLimit = frames;
    Error.captureStackTrace(TRACE, entry);
  } finally {
    Error.stackTraceLimit = limit;
  }
  return rawCallSites(TRACE);
}

/**
 * V8's call site of the user's call to `entry` (a resource class, `wait`), if the user's code on disk made
 * it: V8 skips the frames up to `entry` and keeps the caller's (or {@link SITE_FRAMES}), so the user's stack below
 * (components, helpers, the runner) is never walked. `entry` is any function or class (`Function`): V8 finds
 * its frame by identity. Call it as near the user's call as can be (the constructor, not a helper it calls):
 * V8 decodes every optimised frame it walks through, and a large one costs microseconds.
 *
 * @example
 * class Resource { constructor() { this.site = sites.siteOf(userCallSite(new.target)); } } // `new Bucket(...)`
 */
export function userCallSite(entry: Function): NodeJS.CallSite | undefined {
  // Nearly always the caller is the user's code: one frame is captured first (every frame V8 collects is a
  // cost each declaration pays), and more only when it is Cairn's own (`Type.get`).
  const caller = callSitesOf(entry, 1);
  return userSite(caller) ?? (caller.length ? userSite(callSitesOf(entry, SITE_FRAMES)) : undefined);
}

/** The site of a declaration whose caller is not the user's code on disk (it prints as ""). */
const NO_SITE = new DeclarationSite(undefined);

/**
 * The declaration sites of one evaluation, one per place in the program: the 10,000 resources a loop declares
 * on one line share one site, rather than each keeping its own. Capturing costs
 * the same (V8's price); what is kept does not grow with the resources. Scoped to an evaluation, not to the
 * process, because a site keeps V8's call site, and with it that frame's function and receiver (a component).
 *
 * @example
 * const sites = new DeclarationSites();
 * for (const n of names) nodes.push({ site: sites.siteOf(userCallSite(Bucket)) }); // one site for all of them
 */
export class DeclarationSites {
  /** By file, then by position in it (V8's character offset of the call). */
  private readonly byFile = new Map<string, Map<number, DeclarationSite>>();

  /** The site of a user's call site (see {@link userCallSite}): the one already made for its place, if any. */
  siteOf(callSite: NodeJS.CallSite | undefined): DeclarationSite {
    if (!callSite) return NO_SITE;
    const file = callSite.getFileName()!; // a user's call site is in a file on disk
    let byPosition = this.byFile.get(file);
    if (!byPosition) this.byFile.set(file, (byPosition = new Map()));
    const position = callSite.getPosition();
    let site = byPosition.get(position);
    if (!site) byPosition.set(position, (site = new DeclarationSite(callSite)));
    return site;
  }
}

/**
 * The file of the user's code that called into Cairn: `program()` uses it to find the program's folder.
 *
 * @example callerFile() // "/home/me/infra/infra.ts"
 */
export function callerFile(): string | undefined {
  return userFrame(rawCallSites())?.path;
}
