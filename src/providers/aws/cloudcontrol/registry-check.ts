/**
 * Inputs checked as Cloud Control checks a model: against the type's registry JSON Schema (enums, patterns,
 * bounds, `oneOf`, required properties), with ajv. Values not known until apply are left out, and nothing
 * that depends on them is reported; they are checked once known.
 */
import { createRequire } from "node:module";
import type { Ajv as AjvClass, ErrorObject, ValidateFunction } from "ajv";
import type { Diagnostic } from "../../../provider/provider.js";
import { UNKNOWN } from "../../../core/unknown.js";
import { toCloud } from "./convert.js";
import { registrySchema } from "./registry-schema.js";
import type { ObjectInfo, Shape, TypeInfo } from "./type-spec.js";

type Path = (string | number)[];

let ajv: AjvClass | undefined;
/** Compiled validators by type and part (`""` for the top level, else a property name). */
const compiled = new Map<string, ValidateFunction>();

interface TypeSchema {
  properties?: Record<string, object>;
  definitions?: Record<string, object>;
  required?: string[];
  oneOf?: object[];
  anyOf?: object[];
  allOf?: object[];
}

/** One part of a type's schema compiled, once; ajv itself is loaded only when the first check runs. */
function compiledPart(cfnType: string, part: string, schema: () => object): ValidateFunction {
  const key = `${cfnType}|${part}`;
  let v = compiled.get(key);
  if (!v) {
    if (!ajv) {
      const { Ajv } = createRequire(import.meta.url)("ajv") as typeof import("ajv");
      // Strict about keywords (the generator strips the registry's own); lenient about the registry's style.
      ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false, strictRequired: false, strictTuples: false, allowUnionTypes: true, validateFormats: false, logger: false });
    }
    v = ajv.compile(schema());
    compiled.set(key, v);
  }
  return v;
}

/**
 * Validates a model part by part: the top level (required properties, `oneOf`/`anyOf`/`allOf`) and each
 * property the model has, each compiled on first use. Compiling a whole schema costs up to a second for the
 * largest types (S3 Bucket), almost all of it for properties a program never sets.
 */
function validateModel(cfnType: string, s: TypeSchema, model: Record<string, unknown>): ErrorObject[] {
  const defs = s.definitions ? { definitions: s.definitions } : {};
  const whole = JSON.stringify(s.properties ?? {}).includes('"#/properties/');
  if (whole) {
    const v = compiledPart(cfnType, "*", () => s);
    return v(model) ? [] : [...(v.errors ?? [])];
  }
  const errors: ErrorObject[] = [];
  const top = compiledPart(cfnType, "", () => {
    const { required, oneOf, anyOf, allOf } = s;
    return { type: "object", ...(required ? { required } : {}), ...(oneOf ? { oneOf } : {}), ...(anyOf ? { anyOf } : {}), ...(allOf ? { allOf } : {}), ...defs };
  });
  if (!top(model)) errors.push(...(top.errors ?? []));
  for (const [name, value] of Object.entries(model)) {
    const prop = s.properties?.[name];
    if (!prop) continue;
    const v = compiledPart(cfnType, name, () => ({ ...prop, ...defs }));
    if (!v(value)) for (const e of v.errors ?? []) errors.push({ ...e, instancePath: `/${name.replaceAll("~", "~0").replaceAll("/", "~1")}${e.instancePath}` });
  }
  return errors;
}

/** The model with unknown values left out, and the pointers where they were. */
function withoutUnknowns(v: unknown, at: string, unknown: string[]): unknown {
  if (v === UNKNOWN) {
    unknown.push(at);
    return null;
  }
  if (Array.isArray(v)) return v.map((x, i) => withoutUnknowns(x, `${at}/${i}`, unknown));
  if (v === null || typeof v !== "object") return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if (x === UNKNOWN) unknown.push(`${at}/${k}`);
    else out[k] = withoutUnknowns(x, `${at}/${k}`, unknown);
  }
  return out;
}

/** Keywords whose verdict on an object depends on every value inside it. */
const WHOLE = new Set(["oneOf", "anyOf", "allOf", "not", "if", "dependencies", "minProperties", "maxProperties", "uniqueItems", "minItems", "maxItems"]);

function dependsOnUnknown(e: ErrorObject, unknown: readonly string[]): boolean {
  const at = e.instancePath;
  if (unknown.some((u) => at === u || at.startsWith(`${u}/`))) return true;
  if (e.keyword === "required" && unknown.includes(`${at}/${(e.params as { missingProperty: string }).missingProperty}`)) return true;
  return WHOLE.has(e.keyword) && unknown.some((u) => u.startsWith(`${at}/`));
}

/** A CloudFormation pointer as Cairn's path (camelCase names along the type's shapes; indices and map keys kept), and the shape there. */
function cairnPath(info: TypeInfo, pointer: string): Path {
  return walk(info, pointer).path;
}

/** True when the specification's own enum at that place lists the value (the registry's lags there). */
function specAllows(info: TypeInfo, pointer: string, model: unknown): boolean {
  const { shape } = walk(info, pointer);
  if (!Array.isArray(shape) || shape[0] !== "enum") return false;
  const value = pointer.split("/").slice(1).reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k.replaceAll("~1", "/").replaceAll("~0", "~")], model);
  return shape.slice(1).includes(value as string | number);
}

function walk(info: TypeInfo, pointer: string): { path: Path; shape: Shape | undefined } {
  const out: Path = [];
  let obj: ObjectInfo | undefined = info;
  let shape: Shape | undefined;
  for (const raw of pointer.split("/").slice(1)) {
    const seg = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    const p = obj?.byCfn.get(seg);
    if (p) {
      out.push(p.js);
      shape = p.shape;
    } else {
      out.push(Array.isArray(shape) && shape[0] === "array" && /^\d+$/.test(seg) ? Number(seg) : seg);
      shape = Array.isArray(shape) && (shape[0] === "array" || shape[0] === "map") ? shape[1] : undefined;
    }
    if (Array.isArray(shape) && shape[0] === "union") shape = (shape.slice(1) as Shape[]).find((m) => Array.isArray(m) && m[0] === "ref") ?? shape;
    obj = Array.isArray(shape) && shape[0] === "ref" ? info.defs.get(shape[1]) : undefined;
  }
  return { path: out, shape };
}

/**
 * Cairn's path as text, as check.ts prints it.
 *
 * @example pathText(["tags", 0, "key"]) // "tags[0].key"
 */
export const pathText = (p: Path) => p.reduce<string>((s, x) => (typeof x === "number" ? `${s}[${x}]` : s ? `${s}.${x}` : x), "");

/** What is wrong, in words; never the value itself (it may be a secret). */
function describe(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case "enum":
      return `must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    case "pattern":
      return `must match the pattern ${String(p.pattern)}`;
    case "maxLength":
      return `must be at most ${String(p.limit)} characters long`;
    case "minLength":
      return `must be at least ${String(p.limit)} characters long`;
    case "maximum":
    case "minimum":
    case "exclusiveMaximum":
    case "exclusiveMinimum":
      return `must be ${String(p.comparison)} ${String(p.limit)}`;
    case "maxItems":
      return `must have at most ${String(p.limit)} items`;
    case "minItems":
      return `must have at least ${String(p.limit)} items`;
    case "oneOf":
    case "anyOf":
      return `must match ${e.keyword === "oneOf" ? "exactly one" : "at least one"} of the shapes the registry allows here (a different set of properties)`;
    case "type":
      return `must be ${String(p.type)}`;
    default:
      return e.message ?? e.keyword;
  }
}

/**
 * What Cloud Control would refuse in a resource's inputs, by its registry schema: errors naming the Cairn
 * property path. Empty when the registry has no schema for the type. Errors inside a `oneOf` alternative are
 * summed up by the `oneOf` error itself; unknown keys are left to the specification's check.
 *
 * @example registryProblems(lambdaInfo, { packageType: "Tarball", role: "arn:…", code: { zipFile: "…" } })
 * // [{ severity: "error", attribute: "packageType", summary: 'must be one of "Image", "Zip" (the CloudFormation registry\'s schema of AWS::Lambda::Function)' }]
 */
export function registryProblems(info: TypeInfo, inputs: Record<string, unknown>): Diagnostic[] {
  const schema = registrySchema(info.cfnType) as TypeSchema | undefined;
  if (!schema) return [];
  const unknown: string[] = [];
  const model = withoutUnknowns(toCloud(info, inputs), "", unknown) as Record<string, unknown>;
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  for (const e of validateModel(info.cfnType, schema, model)) {
    if (e.keyword === "additionalProperties" || /\/(oneOf|anyOf)\/\d+\//.test(e.schemaPath) || dependsOnUnknown(e, unknown)) continue;
    if (e.keyword === "enum" && specAllows(info, e.instancePath, model)) continue;
    const pointer = e.keyword === "required" ? `${e.instancePath}/${(e.params as { missingProperty: string }).missingProperty}` : e.instancePath;
    const attribute = pathText(cairnPath(info, pointer));
    const message = e.keyword === "required" ? `required property "${attribute}" is missing (the CloudFormation registry's schema of ${info.cfnType} requires it)` : `${describe(e)} (the CloudFormation registry's schema of ${info.cfnType})`;
    const key = `${attribute}|${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(attribute ? { severity: "error", attribute, summary: message } : { severity: "error", summary: message });
  }
  return out;
}
