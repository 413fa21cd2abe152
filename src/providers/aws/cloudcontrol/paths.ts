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
