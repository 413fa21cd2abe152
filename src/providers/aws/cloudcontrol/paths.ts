/**
 * The registry's property paths of a type, in the form every comparison asks about: CloudFormation names
 * joined with `/`, `*` for any array element (as the schema's own pointers). A type the generator gave no
 * registry facts keeps the specification's flags (write-only, create-only and read-only top-level
 * properties; nothing unordered).
 */
import { FLAG, type TypeInfo } from "./type-spec.js";

/** A type's paths, looked up by their joined form. */
export interface TypePaths {
  /** True when the generator wrote the registry's facts for the type. */
  known: boolean;
  writeOnly: ReadonlySet<string>;
  createOnly: readonly (readonly string[])[];
  readOnly: ReadonlySet<string>;
  unordered: ReadonlySet<string>;
  /** The top-level property holding a standard tag list or tag map, if any. */
  tags?: { cfn: string; variant: "standard" | "map" };
}

const cache = new WeakMap<TypeInfo, TypePaths>();
const join = (p: readonly string[]) => p.join("/");

/**
 * The paths of `info` (computed once per type).
 *
 * @example pathsOf(lambdaInfo).writeOnly.has("Code/ZipFile") // true
 */
export function pathsOf(info: TypeInfo): TypePaths {
  let p = cache.get(info);
  if (p) return p;
  const r = info.registry;
  const known = r.writeOnly.length + r.createOnly.length + r.readOnly.length + r.unordered.length + r.transforms.size > 0 || r.tagging !== undefined;
  const writeOnly = new Set(r.writeOnly.map(join));
  const readOnly = new Set(r.readOnly.map(join));
  const createOnly = [...r.createOnly];
  if (!known) {
    for (const prop of info.props) {
      if (prop.flags & FLAG.writeOnly) writeOnly.add(prop.cfn);
      if (prop.flags & FLAG.readOnly) readOnly.add(prop.cfn);
      if (prop.flags & FLAG.replaces) createOnly.push([prop.cfn]);
    }
  }
  p = { known, writeOnly, createOnly, readOnly, unordered: new Set(r.unordered.map(join)) };
  if (info.tags) p.tags = { cfn: info.tags.prop.cfn, variant: info.tags.variant };
  cache.set(info, p);
  return p;
}

/** The schema path of a concrete one: array indices become `*`. @example schemaPath(["Rules", 0, "Name"]) // "Rules/*\/Name" */
export function schemaPath(path: readonly (string | number)[]): string {
  return path.map((s) => (typeof s === "number" ? "*" : s)).join("/");
}

/** True when schema path `path` is `base` or lies under it. @example isAtOrUnder("Code/ZipFile", "Code") // true */
export function isAtOrUnder(path: string, base: string): boolean {
  return path === base || path.startsWith(`${base}/`);
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * The write-only part of `value`, which sits at schema path `at`: all of it where `at` is write-only, else
 * the write-only values under it (objects keep only those; an array only when each element has some);
 * undefined when it holds none. What a read can never show of a declared value.
 *
 * @example writeOnlyPart(lambdaPaths, "Code", { ZipFile: "x" }) // { ZipFile: "x" } (Code/ZipFile is write-only)
 */
export function writeOnlyPart(paths: TypePaths, at: string, value: unknown): unknown {
  if (value === undefined || paths.writeOnly.has(at)) return value;
  if (![...paths.writeOnly].some((w) => w.startsWith(`${at}/`))) return undefined;
  if (Array.isArray(value)) {
    const parts = value.map((v) => writeOnlyPart(paths, `${at}/*`, v));
    return parts.every((p) => p !== undefined) ? parts : undefined;
  }
  if (!isObject(value)) return undefined;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const part = writeOnlyPart(paths, `${at}/${k}`, v);
    if (part !== undefined) out[k] = part;
  }
  return Object.keys(out).length ? out : undefined;
}

/**
 * A model as a read returns it, as far as the model itself tells: every write-only value removed, and every
 * object that this leaves empty (a Lambda `Code` holding only write-only fields is not returned at all).
 *
 * @example readablePart(lambdaPaths, { Code: { ZipFile: "x" }, MemorySize: 128 }) // { MemorySize: 128 }
 */
export function readablePart(paths: TypePaths, model: Record<string, unknown>): Record<string, unknown> {
  const strip = (v: unknown, at: string): unknown => {
    if (paths.writeOnly.has(at)) return undefined;
    if (Array.isArray(v)) return v.map((x) => strip(x, `${at}/*`) ?? null);
    if (!isObject(v)) return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const kept = strip(x, at ? `${at}/${k}` : k);
      if (kept !== undefined) out[k] = kept;
    }
    return at && Object.keys(out).length === 0 && Object.keys(v).length > 0 ? undefined : out;
  };
  return strip(model, "") as Record<string, unknown>;
}
