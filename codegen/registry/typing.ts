/**
 * What the registry adds to the TypeScript a user sees: literal unions for its enums, its bounds and
 * patterns in words for TSDoc, and which properties hold IAM policy documents.
 */
import type { RegistrySchema, SchemaNode } from "./load.js";
import { resolve } from "./facts.js";

/**
 * The registry's enum of a string property as a TypeScript union, or undefined when it has none.
 *
 * @example enumUnion(schema, { type: "string", enum: ["Zip", "Image"] }) // '"Zip" | "Image"'
 */
export function enumUnion(schema: RegistrySchema, node: SchemaNode | undefined): string | undefined {
  const r = resolve(schema, node);
  const values = r?.enum;
  if (!values?.length || !values.every((v) => typeof v === "string")) return undefined;
  return [...new Set(values as string[])].map((v) => JSON.stringify(v)).join(" | ");
}

const range = (min: number | undefined, max: number | undefined) => (min !== undefined && max !== undefined ? `${min}–${max}` : min !== undefined ? `at least ${min}` : `at most ${max}`);

/** Text safe inside a doc comment (no comment end, no line read as a tag). */
const safe = (s: string) => s.replaceAll("*/", "*\\/").replaceAll("@", "\\@");

/**
 * The registry's constraints on a value, in words for TSDoc ("" when it has none).
 *
 * @example boundsDoc(schema, { type: "string", minLength: 1, maxLength: 64, pattern: "^[a-z]+$" })
 * // "Length: 1–64. Pattern: `^[a-z]+$`."
 */
export function boundsDoc(schema: RegistrySchema, node: SchemaNode | undefined): string {
  const r = resolve(schema, node);
  if (!r) return "";
  const parts: string[] = [];
  if (r.minLength !== undefined || r.maxLength !== undefined) parts.push(`Length: ${range(r.minLength, r.maxLength)}.`);
  if (r.minimum !== undefined || r.maximum !== undefined) parts.push(`Range: ${range(r.minimum, r.maximum)}.`);
  if (r.minItems !== undefined || r.maxItems !== undefined) parts.push(`Items: ${range(r.minItems, r.maxItems)}.`);
  if (typeof r.pattern === "string" && r.pattern.length <= 200 && !r.pattern.includes("`")) parts.push(`Pattern: \`${safe(r.pattern)}\`.`);
  const items = r.type === "array" ? resolve(schema, r.items) : undefined;
  if (items) {
    const inner = boundsDoc(schema, items);
    if (inner) parts.push(`Each item: ${inner}`);
  }
  return parts.join(" ");
}

/** Names of properties that hold an IAM policy document (when the specification types them as JSON). */
const POLICY = /^(PolicyDocument|AssumeRolePolicyDocument|KeyPolicy|PolicyText|RepositoryPolicyText|ResourcePolicy|AccessPolicy|Policy|TrustPolicy|PermissionsBoundaryPolicy)$/;

/**
 * True for a property that holds an IAM policy document, by its name.
 *
 * @example isPolicyDocument("AssumeRolePolicyDocument") // true
 */
export function isPolicyDocument(cfn: string): boolean {
  return POLICY.test(cfn);
}
