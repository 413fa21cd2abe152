/**
 * Minimal valid models for the sweep: the required properties of a type, each with a value its registry
 * schema accepts (enums, patterns, bounds, `oneOf` branches checked with the same validator the fake uses),
 * or, for a type whose schema is not at hand, from Cairn's own specification (required properties and
 * shapes). Also: one change to a mutable property of such a model.
 */
import { schemaProblems } from "../../src/testing/cloudcontrol/fake-validate.js";
import { FLAG, objectOf, type Shape, type TypeInfo } from "../../src/providers/aws/cloudcontrol/type-spec.js";
import { matching } from "./pattern.js";

type Schema = Record<string, unknown>;
type Model = Record<string, unknown>;

function resolve(root: Schema, node: unknown): Schema {
  let n = (node ?? {}) as Schema;
  for (let i = 0; typeof n.$ref === "string" && i < 10; i++) n = ((root.definitions as Record<string, Schema> | undefined)?.[n.$ref.split("/").pop()!] ?? {}) as Schema;
  return n;
}

const typesOf = (s: Schema): string[] => (Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === "string" ? [s.type] : s.properties || s.required ? ["object"] : s.items ? ["array"] : ["string"]);

/** A value the schema node accepts (`variant` picks other enum members / lengths, for a changed value). */
export function valueFor(root: Schema, node: unknown, variant = 0, depth = 0): unknown {
  const s = resolve(root, node);
  if (depth > 12) return undefined;
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[variant % s.enum.length];
  for (const key of ["oneOf", "anyOf"] as const) {
    const options = s[key];
    if (!Array.isArray(options)) continue;
    const base = { ...s, [key]: undefined };
    for (const o of options) {
      const merged = { ...base, ...resolve(root, o), definitions: root.definitions };
      const v = valueFor(root, merged, variant, depth + 1);
      if (v !== undefined && schemaProblems({ ...s, definitions: root.definitions } as Schema, v) === undefined) return v;
    }
  }
  if (Array.isArray(s.allOf)) return valueFor(root, Object.assign({}, s, ...s.allOf.map((x) => resolve(root, x)), { allOf: undefined }), variant, depth + 1);
  const type = typesOf(s).find((t) => t !== "null") ?? "string";
  switch (type) {
    case "object":
      return objectFor(root, s, variant, depth);
    case "array": {
      const n = Math.max(Number(s.minItems ?? 0), 0);
      return Array.from({ length: n }, (_, i) => valueFor(root, s.items, variant + i, depth + 1));
    }
    case "integer":
    case "number":
      return numberFor(s, variant);
    case "boolean":
      return variant % 2 === 1;
    default:
      return stringFor(s, variant);
  }
}

function objectFor(root: Schema, s: Schema, variant: number, depth: number): Model {
  const out: Model = {};
  const props = (s.properties ?? {}) as Record<string, unknown>;
  for (const k of (s.required as string[] | undefined) ?? []) out[k] = valueFor(root, props[k] ?? {}, variant, depth + 1);
  const minProps = Number(s.minProperties ?? 0);
  for (const k of Object.keys(props)) {
    if (Object.keys(out).length >= minProps) break;
    if (out[k] === undefined) out[k] = valueFor(root, props[k], variant, depth + 1);
  }
  const patterns = Object.entries((s.patternProperties ?? {}) as Record<string, unknown>);
  if (Object.keys(out).length < minProps && patterns.length) {
    const [pattern, sub] = patterns[0]!;
    out[matching(pattern, 1) ?? "key"] = valueFor(root, sub, variant, depth + 1);
  }
  return withBranch(root, s, out, props, variant, depth);
}

/** An object whose schema requires one of several sets of keys (`oneOf`/`anyOf` of `required` lists): the first set that validates. */
function withBranch(root: Schema, s: Schema, out: Model, props: Record<string, unknown>, variant: number, depth: number): Model {
  const branches = (Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : []).map((b) => resolve(root, b));
  if (branches.length === 0 || !branches.some((b) => Array.isArray(b.required) || b.properties)) return out;
  const whole = { ...s, definitions: root.definitions } as Schema;
  let first: Model | undefined;
  for (const b of branches) {
    const candidate = { ...out };
    for (const k of (b.required as string[] | undefined) ?? []) if (candidate[k] === undefined) candidate[k] = valueFor(root, (b.properties as Record<string, unknown> | undefined)?.[k] ?? props[k] ?? {}, variant, depth + 1);
    first ??= candidate;
    if (schemaProblems(whole, candidate) === undefined) return candidate;
  }
  return first ?? out;
}

function numberFor(s: Schema, variant: number): number {
  const min = typeof s.minimum === "number" ? s.minimum : typeof s.exclusiveMinimum === "number" ? s.exclusiveMinimum + 1 : undefined;
  const max = typeof s.maximum === "number" ? s.maximum : typeof s.exclusiveMaximum === "number" ? s.exclusiveMaximum - 1 : undefined;
  let v = (min ?? (max !== undefined && max < 1 ? max : 1)) + variant;
  if (max !== undefined && v > max) v = max;
  return v;
}

function stringFor(s: Schema, variant: number): string {
  const minLength = Number(s.minLength ?? 0);
  const maxLength = typeof s.maxLength === "number" ? s.maxLength : Infinity;
  if (typeof s.pattern === "string" && s.pattern !== "") {
    // A non-empty value first: an empty name is schema-valid where a pattern allows it, but no service takes one.
    const m = matching(s.pattern, Math.max(minLength, 1 + variant), maxLength) ?? matching(s.pattern, minLength, maxLength);
    if (m !== undefined) return m;
  }
  let v = variant ? `cairn-sweep-${variant}` : "cairn-sweep";
  while (v.length < minLength) v += "x";
  return v.slice(0, Math.max(minLength, Math.min(v.length, maxLength)));
}

/**
 * The minimal model of a type from its registry schema: required properties only (read-only ones left out:
 * the schema's own list, or the type's registry facts for a trimmed schema).
 *
 * @example minimalFromSchema(queueSchema, queueInfo) // {}
 */
export function minimalFromSchema(schema: Schema, info: TypeInfo): Model {
  const model = objectFor(schema, schema, 0, 0);
  const listed = ((schema.readOnlyProperties as string[] | undefined) ?? []).map((p) => p.replace(/^\/properties\//, "").split("/"));
  for (const segs of [...listed, ...info.registry.readOnly]) if (segs.length === 1) delete model[segs[0]!];
  return withWriteOnly(schema, info, model);
}

/**
 * Adds a value for each write-only property (top-level, or inside an object the model holds) that the model
 * lacks, where the model stays valid: the change stage then shows whether Cairn keeps them (a Lambda
 * function's `Code.ZipFile`).
 */
function withWriteOnly(schema: Schema, info: TypeInfo, model: Model): Model {
  let out = model;
  for (const path of info.registry.writeOnly) {
    if (path.includes("*") || path.length > 2) continue;
    const parentSchema = path.length === 1 ? schema : resolve(schema, (schema.properties as Record<string, unknown> | undefined)?.[path[0]!]);
    const parent = path.length === 1 ? out : out[path[0]!];
    if (!parent || typeof parent !== "object" || Array.isArray(parent) || (parent as Model)[path.at(-1)!] !== undefined) continue;
    const node = (parentSchema.properties as Record<string, unknown> | undefined)?.[path.at(-1)!];
    if (!node) continue;
    const candidate = structuredClone(out);
    const holder = path.length === 1 ? candidate : (candidate[path[0]!] as Model);
    holder[path.at(-1)!] = valueFor(schema, node, 0, 1);
    if (schemaProblems(schema, candidate) === undefined) out = candidate;
  }
  return out;
}

/** A value of a specification shape (no schema at hand): the required fields of objects, one element of lists. */
function valueOfShape(info: TypeInfo, shape: Shape, variant: number, depth: number): unknown {
  if (depth > 8) return undefined;
  if (shape === "string" || shape === "date-time" || shape === "any") return variant ? `cairn-sweep-${variant}` : "cairn-sweep";
  if (shape === "integer" || shape === "number") return 1 + variant;
  if (shape === "boolean") return variant % 2 === 1;
  if (shape === "json") return {};
  if (shape[0] === "enum") return shape[1 + (variant % (shape.length - 1))];
  if (shape[0] === "array") return [valueOfShape(info, shape[1], variant, depth + 1)];
  if (shape[0] === "map") return {};
  if (shape[0] === "union") return valueOfShape(info, shape[1]!, variant, depth + 1);
  const obj = objectOf(info, shape);
  const out: Model = {};
  for (const p of obj?.props ?? []) if (p.flags & FLAG.required) out[p.cfn] = valueOfShape(info, p.shape, variant, depth + 1);
  return out;
}

/** The minimal model of a type from Cairn's specification: its required properties. @example minimalFromSpec(queueInfo) // {} */
export function minimalFromSpec(info: TypeInfo): Model {
  const out: Model = {};
  for (const p of info.props) if (p.flags & FLAG.required && !(p.flags & FLAG.readOnly)) out[p.cfn] = valueOfShape(info, p.shape, 0, 0);
  return out;
}

/** A change of one mutable top-level property: its name and the changed model, or undefined when the type has none the sweep can change. */
export function changedModel(info: TypeInfo, schema: Schema | undefined, model: Model): { property: string; model: Model } | undefined {
  const createOnly = new Set(info.registry.createOnly.map((p) => p[0]));
  const candidates = info.props.filter((p) => !(p.flags & (FLAG.readOnly | FLAG.writeOnly | FLAG.replaces)) && !createOnly.has(p.cfn) && !info.registry.writeOnly.some((w) => w[0] === p.cfn) && !info.identifier.includes(p.cfn));
  const tagProp = info.tags?.variant === "standard" && candidates.includes(info.tags.prop) ? info.tags.prop : undefined;
  const ordered = [...(tagProp ? [tagProp] : []), ...candidates.filter((p) => p !== tagProp && model[p.cfn] !== undefined), ...candidates.filter((p) => p !== tagProp && model[p.cfn] === undefined && isScalar(p.shape))];
  for (const p of ordered) {
    let value: unknown;
    if (p === tagProp) value = [...((model[p.cfn] as unknown[] | undefined) ?? []), { Key: "cairn-sweep", Value: "changed" }];
    else if (schema) value = valueFor(schema, (schema.properties as Record<string, unknown>)[p.cfn], 1);
    else value = valueOfShape(info, p.shape, 1, 0);
    if (value === undefined || JSON.stringify(value) === JSON.stringify(model[p.cfn])) continue;
    const next = { ...model, [p.cfn]: value };
    if (schema && schemaProblems(schema, next) !== undefined) continue;
    return { property: p.cfn, model: next };
  }
  return undefined;
}

const isScalar = (s: Shape): boolean => s === "string" || s === "integer" || s === "number" || s === "boolean" || (Array.isArray(s) && s[0] === "enum");
