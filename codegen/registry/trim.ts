/**
 * A registry schema cut down to what validation needs: the JSON Schema keywords ajv knows (no descriptions,
 * no registry-only keywords such as `insertionOrder` or `relationshipRef`, which strict ajv refuses), with
 * every `pattern` made a JavaScript regular expression or dropped (an empty one too), and `default`s kept.
 */
import type { RegistrySchema, SchemaNode } from "./load.js";

/** Keywords whose value is one schema. */
const ONE = new Set(["items", "additionalProperties", "not", "additionalItems"]);
/** Keywords whose value is a list of schemas. */
const LIST = new Set(["oneOf", "anyOf", "allOf"]);
/** Keywords whose value is a map of schemas. */
const MAP = new Set(["properties", "patternProperties", "definitions"]);
/**
 * Keywords kept as they are. `default` validates nothing, but it is the service's value for a property left
 * out, which the fake in `cairn/testing` fills on reads as Cloud Control does.
 */
const PLAIN = new Set([
  "type", "$ref", "enum", "const", "default", "required", "pattern", "minLength", "maxLength", "minimum", "maximum",
  "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minItems", "maxItems", "uniqueItems", "minProperties",
  "maxProperties", "dependencies",
]);

/**
 * What trimming dropped, for the generator's summary and its tests.
 *
 * @example const report: TrimReport = { droppedPatterns: [] };
 */
export interface TrimReport {
  /** Patterns that are not JavaScript regular expressions with the same meaning (type, path, pattern). */
  droppedPatterns: string[];
}

/**
 * The pattern as a JavaScript `u`-flag regular expression, or undefined when it has none with the same
 * meaning. The registry's patterns are Java's: escapes of plain punctuation (`\-`, `\_`) mean the character
 * itself there, and are refused in `u` mode, so they lose the backslash; constructs JavaScript lacks or reads
 * differently (`(?i)`, possessive `*+`, `\A`, `\Z`, `\p{Alnum}`) fail to compile and drop the pattern: a
 * pattern checked wrongly would refuse values AWS accepts. A leading `(?s)` (dot matches newlines) becomes
 * `[\s\S]` for each dot.
 *
 * @example jsPattern("^[a-z\\_]+$") // "^[a-z_]+$"
 */
export function jsPattern(java: string): string | undefined {
  const dotAll = java.startsWith("(?s)");
  if (dotAll) java = java.slice(4);
  let out = "";
  let inClass = false;
  for (let i = 0; i < java.length; i++) {
    const c = java[i]!;
    if (c === "\\" && i + 1 < java.length) {
      const n = java[i + 1]!;
      const keep = /[A-Za-z0-9]/.test(n) || "^$\\.*+?()[]{}|/".includes(n) || (inClass && n === "-");
      out += keep ? c + n : n;
      i++;
      continue;
    }
    if (c === "[" && !inClass) inClass = true;
    else if (c === "]" && inClass) inClass = false;
    out += dotAll && c === "." && !inClass ? "[\\s\\S]" : c;
  }
  try {
    new RegExp(out, "u");
    return out;
  } catch {
    return undefined;
  }
}

/** A `patternProperties` key as JavaScript; one JavaScript cannot read matches every key (never refuses one AWS takes). */
function keyPattern(java: string, where: string, report: TrimReport): string {
  const js = jsPattern(java);
  if (js !== undefined) return js;
  report.droppedPatterns.push(`${where}/patternProperties: ${java}`);
  return "";
}

function trimNode(node: unknown, where: string, report: TrimReport): unknown {
  if (node === null || typeof node !== "object" || Array.isArray(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node as SchemaNode)) {
    if (ONE.has(k)) out[k] = typeof v === "boolean" ? v : trimNode(v, `${where}/${k}`, report);
    else if (LIST.has(k) && Array.isArray(v)) out[k] = v.map((x, i) => trimNode(x, `${where}/${k}/${i}`, report));
    else if (k === "patternProperties" && v && typeof v === "object") out[k] = Object.fromEntries(Object.entries(v).map(([n, x]) => [keyPattern(n, where, report), trimNode(x, `${where}/${k}/${n}`, report)]));
    else if (MAP.has(k) && v && typeof v === "object") out[k] = Object.fromEntries(Object.entries(v).map(([n, x]) => [n, trimNode(x, `${where}/${k}/${n}`, report)]));
    else if (k === "$ref" && typeof v === "string") out[k] = v.replace(/^resource-schema\.json#/, "#");
    else if (k === "pattern" && typeof v === "string") {
      // An empty pattern (the shipped schemas' placeholder for a dropped one) matches everything: nothing to keep.
      if (v === "") continue;
      const js = jsPattern(v);
      if (js === undefined) report.droppedPatterns.push(`${where}: ${v}`);
      else out[k] = js;
    } else if (PLAIN.has(k)) out[k] = v;
  }
  return out;
}

/**
 * The validation schema of one registry type: its properties, definitions and top-level combinators, with
 * read-only properties left out of `required` (the program never gives them).
 *
 * @example trimSchema(loadRegistry().get("AWS::SQS::Queue")!, { droppedPatterns: [] }).properties.QueueName.maxLength
 */
export function trimSchema(s: RegistrySchema, report: TrimReport): Record<string, unknown> {
  const { typeName, properties, definitions, required, oneOf, anyOf, allOf, additionalProperties } = s;
  const readOnly = new Set((s.readOnlyProperties ?? []).map((p) => p.replace(/^\/properties\//, "")));
  const body: SchemaNode = { type: "object", properties };
  if (definitions) body.definitions = definitions;
  const req = (required ?? []).filter((r) => !readOnly.has(r));
  if (req.length) body.required = req;
  if (oneOf) body.oneOf = oneOf;
  if (anyOf) body.anyOf = anyOf;
  if (allOf) body.allOf = allOf;
  if (additionalProperties !== undefined) body.additionalProperties = additionalProperties;
  return trimNode(body, typeName, report) as Record<string, unknown>;
}
