import { UNKNOWN } from "../core/unknown.js";
import type { AttributeSchema, AttributeType, ResourceSchema } from "../provider/schema.js";
import type { Props } from "../state/types.js";

/** The type of a JSON value as a schema names it. @example jsonTypeOf([1]) // "array" */
export function jsonTypeOf(v: unknown): AttributeType {
  if (Array.isArray(v)) return "array";
  const t = typeof v;
  return t === "string" || t === "number" || t === "boolean" ? t : "object";
}

const article = (t: string) => (/^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`);

/** A value for a message: short, and masked when secret. */
function shown(v: unknown, secret: boolean): string {
  if (secret) return "[secret]";
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** What is wrong with one input value against its attribute schema, or undefined. */
function attributeProblem(v: unknown, a: AttributeSchema, secret: boolean): string | undefined {
  if (v === undefined || v === null || v === UNKNOWN) return undefined; // absent, or known only after apply
  if (a.type && a.type !== "any" && jsonTypeOf(v) !== a.type) return `expected ${article(a.type)}, got ${article(jsonTypeOf(v))} (${shown(v, secret)}): pass ${article(a.type)}`;
  if (a.enum && !a.enum.includes(v as string | number)) return `must be one of ${a.enum.map((e) => JSON.stringify(e)).join(", ")} (got ${shown(v, secret)}): use one of those`;
  return undefined;
}

/**
 * Checks inputs against the type's schema (attribute types and enums) before anything is created: one
 * problem per attribute, naming it, what it expects and what it got (secret values masked). Values not
 * known yet are checked when they are.
 *
 * @example inputSchemaProblems({ size: "big" }, { inputs: { size: { type: "number" } } }, new Set()) // ['input "size": expected a number, got a string ("big")']
 */
export function inputSchemaProblems(inputs: Props, schema: ResourceSchema | undefined, secret: ReadonlySet<string>): string[] {
  const out: string[] = [];
  const attributes = schema?.inputs;
  // `for…in` over the schema's own attributes, not Object.entries: no pair per attribute per resource.
  for (const k in attributes) {
    if (!Object.hasOwn(attributes, k)) continue;
    const a = attributes[k]!;
    if (!a.type && !a.enum) continue; // nothing to check
    const p = attributeProblem(inputs[k], a, secret.has(k));
    if (p) out.push(`input "${k}": ${p}`);
  }
  return out;
}
