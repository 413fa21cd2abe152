/**
 * What a registry schema says about a type, as the generated {@link RegistryData}: handlers, the paths the
 * schema lists (without `/properties/`), arrays whose order does not matter, transforms, identifiers,
 * tagging and the naming property.
 */
import type { RegistryData } from "../../src/providers/aws/cloudcontrol/type-spec.js";
import { HANDLERS, type RegistrySchema, type SchemaNode } from "./load.js";
import { jsPattern } from "./trim.js";

const PROPS = "/properties/";

/**
 * Pointers of properties as paths; other pointers are left out.
 *
 * @example paths(["/properties/Code/ZipFile", "/definitions/X"]) // ["Code/ZipFile"]
 */
export function paths(pointers: readonly string[] | undefined): string[] {
  return [...new Set((pointers ?? []).filter((p) => p.startsWith(PROPS)).map((p) => p.slice(PROPS.length)))];
}

/**
 * A schema node with its `$ref` to the type's definitions followed (once per level).
 *
 * @example resolve(schema, { $ref: "#/definitions/Code" }).properties?.ZipFile
 */
export function resolve(schema: RegistrySchema, node: SchemaNode | undefined): SchemaNode | undefined {
  for (let i = 0; node?.$ref && i < 8; i++) {
    const m = /#\/(definitions|properties)\/([^/]+)$/.exec(node.$ref);
    node = m ? (m[1] === "definitions" ? schema.definitions?.[m[2]!] : schema.properties[m[2]!]) : undefined;
  }
  return node;
}

/** Paths of arrays with `insertionOrder: false`, at any depth (`*` for an array's elements). */
function unorderedPaths(schema: RegistrySchema): string[] {
  const out: string[] = [];
  const walk = (node: SchemaNode | undefined, path: string[], seen: ReadonlySet<string>): void => {
    if (!node || path.length > 12) return;
    const ref = node.$ref;
    if (ref && seen.has(ref)) return; // a recursive definition
    const r = resolve(schema, node);
    if (!r) return;
    const inner = ref ? new Set([...seen, ref]) : seen;
    if (r.type === "array" || r.items) {
      if (r.insertionOrder === false) out.push(path.join("/"));
      walk(r.items, [...path, "*"], inner);
    }
    for (const [k, v] of Object.entries(r.properties ?? {})) walk(v, [...path, k], inner);
  };
  for (const [k, v] of Object.entries(schema.properties)) walk(v, [k], new Set());
  return out;
}

/** The handlers as letters of `crudl`; `""` when there is no create handler (Cloud Control cannot make one). */
function handlerLetters(schema: RegistrySchema | undefined): string {
  if (!schema?.handlers?.create) return "";
  return HANDLERS.filter((h) => schema.handlers?.[h]).map((h) => h[0]).join("");
}

/**
 * The property Cairn names the object by when the program does not: the first of the primary identifier,
 * `<Type>Name` and `Name` that is a writable, optional, create-only string (the way Pulumi aws-native picks
 * its auto-naming property: provider/pkg/schema/gen.go, "autoNaming"), with the schema's bounds (its pattern as JavaScript reads it).
 *
 * @example namingProperty(sqsQueueSchema) // { path: "QueueName" }
 */
export function namingProperty(schema: RegistrySchema): RegistryData["nm"] {
  const typeName = schema.typeName.split("::").at(-1)!;
  const required = new Set(schema.required ?? []);
  const createOnly = new Set(paths(schema.createOnlyProperties));
  const readOnly = new Set(paths(schema.readOnlyProperties));
  const id = paths(schema.primaryIdentifier);
  const candidates = [...(id.length === 1 ? id : []), `${typeName}Name`, "Name"];
  for (const name of candidates) {
    const node = resolve(schema, schema.properties[name]);
    if (!node || node.type !== "string" || node.enum || required.has(name) || readOnly.has(name) || !createOnly.has(name)) continue;
    const nm: NonNullable<RegistryData["nm"]> = { path: name };
    if (node.minLength !== undefined) nm.min = node.minLength;
    if (node.maxLength !== undefined) nm.max = node.maxLength;
    const pattern = node.pattern === undefined ? undefined : jsPattern(node.pattern);
    if (pattern !== undefined) nm.pattern = pattern; // as JavaScript reads it (see jsPattern)
    return nm;
  }
  return undefined;
}

/**
 * The generated registry facts of a type: `{ h: "" }` alone when the registry has no schema for it.
 *
 * @example registryData(loadRegistry().get("AWS::Lambda::Function")).wo // ["SnapStart", "SnapStart/ApplyOn", "Code/ImageUri", …]
 */
export function registryData(schema: RegistrySchema | undefined): RegistryData {
  const reg: RegistryData = { h: handlerLetters(schema) };
  if (!schema) return reg;
  const set = <K extends "wo" | "co" | "ro" | "uo" | "dep">(k: K, v: string[]) => {
    if (v.length) reg[k] = v;
  };
  set("wo", paths(schema.writeOnlyProperties));
  set("co", paths(schema.createOnlyProperties));
  set("ro", paths(schema.readOnlyProperties));
  set("uo", unorderedPaths(schema));
  if (schema.propertyTransform && Object.keys(schema.propertyTransform).length) {
    reg.pt = Object.fromEntries(Object.entries(schema.propertyTransform).filter(([p]) => p.startsWith(PROPS)).map(([p, e]) => [p.slice(PROPS.length), e]));
  }
  const ai = (schema.additionalIdentifiers ?? []).map(paths).filter((x) => x.length);
  if (ai.length) reg.ai = ai;
  set("dep", paths(schema.deprecatedProperties));
  const t = schema.tagging;
  if (t) reg.tg = [t.taggable ?? true, t.tagOnCreate ?? true, t.tagUpdatable ?? true];
  else if (schema.taggable !== undefined) reg.tg = [schema.taggable, schema.taggable, schema.taggable];
  const nm = namingProperty(schema);
  if (nm) reg.nm = nm;
  return reg;
}
