/**
 * What a read returns, as Cloud Control returns it: the stored model with the service's defaults filled in
 * (the registry schema's `default`s at any depth, array elements included, and the curated server defaults),
 * the registry's `propertyTransform` normalisations applied, write-only properties removed (nested ones too),
 * tag lists in the service's order (by key), policy documents with their keys re-ordered, and arrays whose
 * order does not matter (`insertionOrder: false`) in an order of the service's choosing.
 */
import jsonata from "jsonata";
import { FLAG, objectOf, type Shape, type TypeInfo } from "../../providers/aws/cloudcontrol/type-spec.js";
import { canonical, removeAt, slotsAt, sortedKeys } from "./fake-paths.js";
import { SERVER_DEFAULTS } from "./server-defaults.js";

type Model = Record<string, unknown>;
type Schema = Record<string, unknown>;

const isObject = (v: unknown): v is Model => v !== null && typeof v === "object" && !Array.isArray(v);

/** The write-only paths of a type: the registry's when it lists any, else the top-level properties flagged write-only. */
export function writeOnlyPaths(info: TypeInfo): (readonly string[])[] {
  if (info.registry.writeOnly.length) return [...info.registry.writeOnly];
  return info.props.filter((p) => p.flags & FLAG.writeOnly).map((p) => [p.cfn]);
}

/** A schema node with its `$ref` (to `#/definitions/…`) followed. */
function resolve(root: Schema, node: unknown): Schema | undefined {
  let n = node as Schema | undefined;
  for (let i = 0; n && typeof n.$ref === "string" && i < 10; i++) n = (root.definitions as Record<string, Schema> | undefined)?.[n.$ref.split("/").pop()!];
  return n;
}

/**
 * Fills the schema's `default` values into `value` where absent, at every depth it holds objects (array
 * elements included); never makes up an object the model does not have.
 */
export function fillSchemaDefaults(root: Schema, node: unknown, value: unknown, depth = 0): void {
  const s = resolve(root, node);
  if (!s || depth > 30) return;
  if (Array.isArray(value)) {
    if (s.items) for (const el of value) fillSchemaDefaults(root, s.items, el, depth + 1);
    return;
  }
  if (!isObject(value) || !isObject(s.properties)) return;
  for (const [k, sub] of Object.entries(s.properties)) {
    const r = resolve(root, sub);
    // A `default` beside a `$ref` is the property's own; else the referenced definition's.
    const d = isObject(sub) && sub.default !== undefined ? sub.default : r?.default;
    if (value[k] === undefined && d !== undefined && d !== null) value[k] = structuredClone(d); // `default: null` means none
    else if (value[k] !== undefined) fillSchemaDefaults(root, sub, value[k], depth + 1);
  }
}

/** Fills the curated server defaults of the type (top-level or inside objects the model holds). */
export function fillServerDefaults(typeName: string, model: Model): void {
  for (const d of SERVER_DEFAULTS[typeName] ?? []) {
    if (d.unless?.some((p) => model[p] !== undefined)) continue;
    const segs = d.path.split("/");
    const parents = segs.length === 1 ? [{ value: model as unknown }] : slotsAt(model, segs.slice(0, -1));
    for (const p of parents) if (isObject(p.value) && p.value[segs.at(-1)!] === undefined) p.value[segs.at(-1)!] = structuredClone(d.value);
  }
}

/** True for a value that is a pattern to match rather than a value (some transforms describe a regular expression). */
const looksLikePattern = (v: unknown): boolean => typeof v === "string" && (/^\^|\$$|\(aws\)|\[[^\]]*\]\{|\[[-\w\\]*-[\w\\]*\][*+{]/.test(v));

/**
 * Applies the registry's `propertyTransform` expressions (JSONata) to the values they name, as the service
 * normalises them. Alternatives joined with `$OR` are tried in order: the first that yields a value (not a
 * pattern) is what the service stores. An expression names its property relative to the object holding it,
 * or from the model's top; both are tried.
 */
export async function applyTransforms(info: TypeInfo, model: Model): Promise<void> {
  for (const [path, expr] of info.registry.transforms) {
    const segs = path.split("/");
    const parents = segs.length === 1 ? [{ value: model as unknown }] : slotsAt(model, segs.slice(0, -1));
    for (const p of parents) {
      const holder = p.value;
      const key = segs.at(-1)!;
      if (!isObject(holder) || holder[key] === undefined) continue;
      const out = await transformed(expr, holder, model);
      if (out !== undefined) holder[key] = out;
    }
  }
}

async function transformed(expr: string, holder: Model, model: Model): Promise<unknown> {
  for (const alt of expr.split(/\s+\$OR\s+/)) {
    for (const input of [holder, model]) {
      let v: unknown;
      try {
        v = await jsonata(alt).evaluate(input);
      } catch {
        v = undefined; // an expression JSONata cannot run is no normalisation the fake can make
      }
      if (v !== undefined && !looksLikePattern(v)) return v;
    }
  }
  return undefined;
}

/** Sorts tag lists by key and maps' keys, and re-orders the keys of policy documents (JSON-typed values), at any depth. */
function reorder(info: TypeInfo, shape: Shape, v: unknown): unknown {
  if (v === undefined || v === null) return v;
  if (shape === "json") return sortedKeys(v);
  if (!Array.isArray(shape)) return v;
  if (shape[0] === "array" && Array.isArray(v)) return v.map((x) => reorder(info, shape[1], x));
  if (shape[0] === "map" && isObject(v)) return Object.fromEntries(Object.keys(v).sort().map((k) => [k, reorder(info, shape[1], v[k])]));
  const obj = objectOf(info, shape);
  if (obj && isObject(v)) {
    const out: Model = {};
    for (const [k, x] of Object.entries(v)) out[k] = obj.byCfn.get(k) ? reorder(info, obj.byCfn.get(k)!.shape, x) : x;
    return out;
  }
  return v;
}

function reorderModel(info: TypeInfo, model: Model): Model {
  const out: Model = {};
  for (const [k, v] of Object.entries(model)) out[k] = info.byCfn.get(k) ? reorder(info, info.byCfn.get(k)!.shape, v) : v;
  const tags = info.tags;
  if (tags?.variant === "standard" && Array.isArray(out[tags.prop.cfn])) out[tags.prop.cfn] = [...(out[tags.prop.cfn] as Model[])].sort((a, b) => String(a.Key).localeCompare(String(b.Key)));
  for (const path of info.registry.unordered) {
    for (const s of slotsAt(out, path)) if (Array.isArray(s.value)) (s.parent as Model)[s.key as string] = [...s.value].sort((a, b) => (canonical(a) < canonical(b) ? -1 : canonical(a) > canonical(b) ? 1 : 0));
  }
  return out;
}

/**
 * The model as a read returns it (see the module's summary). `schema` is the type's registry schema, when
 * the fake has it.
 *
 * @example const props = await readView(fnInfo, stored, schema); // no Code, MemorySize 128 filled in
 */
export async function readView(info: TypeInfo, stored: Model, schema: Schema | undefined): Promise<Model> {
  const model = structuredClone(stored);
  if (schema) fillSchemaDefaults(schema, schema, model);
  fillServerDefaults(info.cfnType, model);
  await applyTransforms(info, model);
  for (const path of writeOnlyPaths(info)) removeAt(model, path);
  return reorderModel(info, model);
}
