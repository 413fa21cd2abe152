/**
 * The registry schema check Cloud Control makes of a model, with ajv, and its refusal worded as
 * CloudFormation words it ("Model validation failed (#/Timeout: failed validation constraint for keyword
 * [minimum])"). The wording follows the registry's validator (aws-cloudformation/aws-cloudformation-resource-schema,
 * `ValidationException`): messages of keywords that cannot echo a value (required, additionalProperties,
 * type, minLength/maxLength, minItems/maxItems, oneOf/anyOf…) are the JSON Schema validator's own; the
 * others (enum, pattern, minimum…) only name the keyword, so no secret value is ever echoed.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";

type Schema = Record<string, unknown>;

/** Keywords whose messages may show the limit and the actual size, but never a value. */
const NAMED = new Set(["required", "additionalProperties", "type", "minLength", "maxLength", "minItems", "maxItems", "uniqueItems", "oneOf", "anyOf", "minProperties", "maxProperties"]);

const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false, logger: false });
const compiled = new WeakMap<Schema, ValidateFunction | null>();

/** A copy of the schema ajv can compile: registry-only keywords are ignored (strict off); patterns JavaScript cannot compile are dropped. */
function compilable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(compilable);
  if (node === null || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === "pattern" && typeof v === "string" && !compiles(v)) continue;
    if (k === "patternProperties" && v && typeof v === "object") {
      out[k] = Object.fromEntries(Object.entries(v).filter(([p]) => compiles(p)).map(([p, s]) => [p, compilable(s)]));
      continue;
    }
    out[k] = compilable(v);
  }
  return out;
}

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern, "u");
    return true;
  } catch {
    return false;
  }
}

function validatorOf(schema: Schema): ValidateFunction | null {
  if (compiled.has(schema)) return compiled.get(schema)!;
  let fn: ValidateFunction | null;
  try {
    fn = ajv.compile(compilable(schema) as Schema);
  } catch {
    fn = null; // a schema ajv cannot compile at all is not checked (counted by the sweep)
  }
  compiled.set(schema, fn);
  return fn;
}

const typeName = (v: unknown): string => {
  if (Array.isArray(v)) return "JSONArray";
  if (v === null) return "Null";
  if (typeof v === "object") return "JSONObject";
  if (typeof v === "number") return Number.isInteger(v) ? "Integer" : "BigDecimal";
  return typeof v === "string" ? "String" : "Boolean";
};
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function line(e: ErrorObject, model: unknown): string {
  const at = `#${e.instancePath}`;
  const p = e.params as Record<string, unknown>;
  const value = e.instancePath.split("/").slice(1).reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k.replace(/~1/g, "/").replace(/~0/g, "~")], model);
  if (!NAMED.has(e.keyword)) return `${at}: failed validation constraint for keyword [${e.keyword}]`;
  switch (e.keyword) {
    case "required":
      return `${at}: required key [${String(p.missingProperty)}] not found`;
    case "additionalProperties":
      return `${at}: extraneous key [${String(p.additionalProperty)}] is not permitted`;
    case "type":
      return `${at}: expected type: ${cap(String(p.type).split(",")[0]!)}, found: ${typeName(value)}`;
    case "minLength":
    case "maxLength":
      return `${at}: expected ${e.keyword}: ${String(p.limit)}, actual: ${typeof value === "string" ? value.length : "?"}`;
    case "minItems":
      return `${at}: expected minimum item count: ${String(p.limit)}, found: ${Array.isArray(value) ? value.length : "?"}`;
    case "maxItems":
      return `${at}: expected maximum item count: ${String(p.limit)}, found: ${Array.isArray(value) ? value.length : "?"}`;
    case "oneOf":
      return `${at}: #: ${Array.isArray(p.passingSchemas) ? p.passingSchemas.length : 0} subschemas matched instead of one`;
    case "anyOf":
      return `${at}: #: no subschema matched`;
    default:
      return `${at}: ${e.message ?? e.keyword}`;
  }
}

/**
 * The schema's complaints about `model`, worded as Cloud Control words them, or undefined when it is valid
 * (or the schema cannot be compiled).
 *
 * @example schemaProblems(lambdaSchema, { Role: "arn:…" }) // "#: required key [Code] not found"
 */
export function schemaProblems(schema: Schema, model: unknown): string | undefined {
  const fn = validatorOf(schema);
  if (!fn || fn(model)) return undefined;
  const lines = [...new Set((fn.errors ?? []).map((e) => line(e, model)))];
  return lines.join("\n");
}

/** True when ajv could compile the type's schema (the sweep counts those it could not). @example schemaCompiles(schema) // true */
export function schemaCompiles(schema: Schema): boolean {
  return validatorOf(schema) !== null;
}
