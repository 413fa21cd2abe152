/**
 * The format of a resource schema file (`schemas/<module>/<resource>.json`), validated with zod so a
 * mistake fails `npm run codegen` with the file and the field at fault instead of emitting broken code.
 */
import { z } from "zod";
import { parseDuration, type Duration } from "../src/core/duration.js";

/**
 * A parsed type expression: `string`, `number`, `boolean`, `X[]`, `map<X>`, or the name of one of the
 * file's `enums` or `types`.
 *
 * @example
 * const t: TypeExpr = { kind: "array", of: { kind: "type", name: "DomainValidationOption" } }; // "DomainValidationOption[]"
 */
export type TypeExpr =
  | { kind: "string" | "number" | "boolean" }
  | { kind: "array" | "map"; of: TypeExpr }
  | { kind: "enum" | "type"; name: string };

/** The names a type expression may refer to: the file's enum and type names. */
export interface TypeNames {
  enums: readonly string[];
  types: readonly string[];
}

/**
 * Parses a type expression, or returns an error message saying what is allowed.
 *
 * @example
 * parseTypeExpr("map<string>", { enums: [], types: [] }); // { kind: "map", of: { kind: "string" } }
 * parseTypeExpr("Statu", { enums: ["Status"], types: [] }); // 'unknown type "Statu"; …'
 */
export function parseTypeExpr(text: string, names: TypeNames): TypeExpr | string {
  if (text === "string" || text === "number" || text === "boolean") return { kind: text };
  if (text.endsWith("[]")) return wrap("array", parseTypeExpr(text.slice(0, -2), names));
  const map = /^map<(.+)>$/.exec(text);
  if (map) return wrap("map", parseTypeExpr(map[1]!, names));
  if (names.enums.includes(text)) return { kind: "enum", name: text };
  if (names.types.includes(text)) return { kind: "type", name: text };
  const known = (label: string, list: readonly string[]) => (list.length ? `, ${label} (${list.join(", ")})` : "");
  return `unknown type "${text}": expected string, number, boolean, X[], map<X>${known("an enum", names.enums)}${known("a type", names.types)}`;
}

function wrap(kind: "array" | "map", inner: TypeExpr | string): TypeExpr | string {
  return typeof inner === "string" ? inner : { kind, of: inner };
}

// Names end up as TypeScript identifiers (properties, interface and const names), so they are
// restricted to what needs no quoting and reads as the conventions of the generated code.
const attributeName = z.string().regex(/^[a-z][A-Za-z0-9]*$/, "must be a camelCase name (letters and digits, starting lower case)");
const typeName = z.string().regex(/^[A-Z][A-Za-z0-9]*$/, "must be a PascalCase name (letters and digits, starting upper case)");
const memberName = z.string().regex(/^[A-Za-z][A-Za-z0-9]*$/, "must be letters and digits, starting with a letter");
const description = z.string().min(1, "must not be empty");
const typeText = z.string().min(1, "must not be empty");
const duration = z
  .string()
  .transform((text, ctx): Duration => {
    try {
      const d = parseDuration(text);
      if (d > 0) return d;
      ctx.addIssue({ code: "custom", message: `must be longer than zero (got "${text}")` });
    } catch (e) {
      ctx.addIssue({ code: "custom", message: (e as Error).message });
    }
    return z.NEVER;
  });
/** Where the generated file imports a value from: a path relative to the generated file, and an export name. */
const moduleRef = z.strictObject({
  module: z.string().regex(/^\.\.?\/.+\.js$/, 'must be a relative path ending in ".js", e.g. "../../acm/certificate.provider.js"'),
  export: z.string().regex(/^[A-Za-z_$][A-Za-z0-9_$]*$/, "must be an identifier"),
});

const inputAttribute = z.strictObject({
  type: typeText,
  required: z.boolean().optional(),
  forceNew: z.boolean().optional(),
  secret: z.boolean().optional(),
  description,
});
const outputAttribute = z.strictObject({
  type: typeText,
  required: z.boolean().optional(),
  stable: z.boolean().optional(),
  secret: z.boolean().optional(),
  description,
});
const property = z.strictObject({ type: typeText, required: z.boolean().optional(), description });

const schemaFileBase = z.strictObject({
  $comment: z.string().optional(),
  /** The type token, `aws:<module>:<name>`. */
  type: z.string(),
  module: z.string().regex(/^[a-z][a-z0-9]*$/, "must be lower-case letters and digits, e.g. route53"),
  name: typeName,
  description,
  example: z.string().min(1, "must not be empty").optional(),
  provider: moduleRef,
  methods: moduleRef.optional(),
  enums: z
    .record(
      typeName,
      z.strictObject({
        description,
        values: z.record(memberName, z.string().min(1, "must not be empty")),
      }),
    )
    .optional(),
  types: z.record(typeName, z.strictObject({ description, properties: z.record(attributeName, property) })).optional(),
  lookup: z
    .strictObject({
      description,
      by: z.record(attributeName, z.strictObject({ type: typeText, description })),
    })
    .optional(),
  inputs: z.record(attributeName, inputAttribute),
  outputs: z.record(attributeName, outputAttribute),
  /** The aws.Provider settings that say where objects live (Route 53 is global: only `endpoint`). Default: all. */
  providerSettings: z.array(z.enum(["region", "endpoint"])).optional(),
  wait: z
    .strictObject({
      timeout: duration.optional(),
      interval: duration.optional(),
      failWhen: z
        .strictObject({
          attribute: attributeName,
          in: z.array(z.union([z.string(), z.number(), z.boolean()])).min(1, "must list at least one value"),
        })
        .optional(),
      reasonAttribute: attributeName.optional(),
    })
    .optional(),
});

/**
 * A validated schema file. Durations are already milliseconds; type expressions are still text (resolve
 * them with {@link resolveType}).
 *
 * @example
 * const s: SchemaFile = parseSchemaFile(text, "schemas/route53/hosted-zone.json");
 * s.outputs.zoneId?.stable; // true
 */
export type SchemaFile = z.output<typeof schemaFileBase>;

// Generated identifiers are `<Name><Enum>`, `<Name><Type>`, `<Name>Inputs`, …: these would collide.
const RESERVED_NAMES = new Set(["Inputs", "Outputs", "Query"]);

/** Cross-field rules zod's shape cannot say: references resolve, names do not collide, failWhen fits. */
function checkReferences(s: SchemaFile, ctx: z.RefinementCtx): void {
  const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: "custom", path, message });
  const names: TypeNames = { enums: Object.keys(s.enums ?? {}), types: Object.keys(s.types ?? {}) };

  if (s.type !== `aws:${s.module}:${s.name}`) issue(["type"], `must be "aws:${s.module}:${s.name}" (from module and name), got "${s.type}"`);
  for (const [name, e] of Object.entries(s.enums ?? {})) {
    if (RESERVED_NAMES.has(name)) issue(["enums", name], `"${name}" is reserved: ${s.name}${name} is a generated name`);
    const values = Object.values(e.values);
    if (values.length === 0) issue(["enums", name, "values"], "must list at least one value");
    const dup = values.find((v, i) => values.indexOf(v) !== i);
    if (dup !== undefined) issue(["enums", name, "values"], `value "${dup}" is listed twice`);
  }
  for (const name of names.types) {
    if (RESERVED_NAMES.has(name)) issue(["types", name], `"${name}" is reserved: ${s.name}${name} is a generated name`);
    if (names.enums.includes(name)) issue(["types", name], `"${name}" is also an enum name`);
  }

  const checkType = (path: (string | number)[], text: string) => {
    const t = parseTypeExpr(text, names);
    if (typeof t === "string") issue([...path, "type"], t);
  };
  for (const [name, t] of Object.entries(s.types ?? {})) {
    for (const [prop, p] of Object.entries(t.properties)) checkType(["types", name, "properties", prop], p.type);
  }
  for (const [name, a] of Object.entries(s.inputs)) checkType(["inputs", name], a.type);
  for (const [name, a] of Object.entries(s.outputs)) checkType(["outputs", name], a.type);
  if (s.lookup) {
    if (Object.keys(s.lookup.by).length === 0) issue(["lookup", "by"], "must list at least one field");
    for (const [name, a] of Object.entries(s.lookup.by)) checkType(["lookup", "by", name], a.type);
  }

  const wait = s.wait;
  if (wait?.reasonAttribute !== undefined && !(wait.reasonAttribute in s.outputs)) {
    issue(["wait", "reasonAttribute"], `"${wait.reasonAttribute}" is not an output (outputs: ${Object.keys(s.outputs).join(", ")})`);
  }
  if (wait?.failWhen) checkFailWhen(s, wait.failWhen, names, (field, message) => issue(["wait", "failWhen", ...field], message));
}

/** failWhen compares one output with values: the output must exist and the values must fit its type. */
function checkFailWhen(
  s: SchemaFile,
  failWhen: { attribute: string; in: (string | number | boolean)[] },
  names: TypeNames,
  issue: (field: (string | number)[], message: string) => void,
): void {
  const attr = s.outputs[failWhen.attribute];
  if (!attr) {
    issue(["attribute"], `"${failWhen.attribute}" is not an output (outputs: ${Object.keys(s.outputs).join(", ")})`);
    return;
  }
  const t = parseTypeExpr(attr.type, names);
  if (typeof t === "string") return; // already reported on the output itself
  if (t.kind === "enum") {
    const allowed = Object.values(s.enums?.[t.name]?.values ?? {});
    failWhen.in.forEach((v, i) => {
      if (!allowed.includes(v as string)) issue(["in", i], `${JSON.stringify(v)} is not a value of enum ${t.name} (${allowed.join(", ")})`);
    });
  } else if (t.kind === "string" || t.kind === "number" || t.kind === "boolean") {
    failWhen.in.forEach((v, i) => {
      if (typeof v !== t.kind) issue(["in", i], `${JSON.stringify(v)} is not a ${t.kind}, the type of output "${failWhen.attribute}"`);
    });
  } else {
    issue(["attribute"], `output "${failWhen.attribute}" is ${attr.type}: failWhen needs a string, number, boolean or enum output`);
  }
}

/**
 * The zod schema of a schema file, references included. Reference checks run once the shape is valid
 * (they rely on it), so a file with both kinds of mistakes reports the shape ones first.
 *
 * @example
 * const r = schemaFile.safeParse(JSON.parse(text)); // r.error?.issues[0].path → ["outputs", "status", "type"]
 */
export const schemaFile = schemaFileBase.superRefine(checkReferences);

/**
 * A schema file that failed validation; the message lists every problem as `field: what is wrong`.
 *
 * @example
 * // schemas/acm/certificate.json: invalid schema:
 * //   outputs.status.type: unknown type "Statu": expected string, number, boolean, X[], map<X>, an enum (Status), a type (…)
 */
export class SchemaError extends Error {
  constructor(
    readonly file: string,
    readonly problems: readonly { field: string; message: string }[],
  ) {
    super(`${file}: invalid schema:\n${problems.map((p) => `  ${p.field}: ${p.message}`).join("\n")}`);
    this.name = "SchemaError";
  }
}

/**
 * Parses and validates one schema file; `file` names it in errors.
 *
 * @example
 * const s = parseSchemaFile(readFileSync(path, "utf8"), "schemas/acm/certificate.json");
 * s.wait?.timeout; // 4500000 (75m)
 */
export function parseSchemaFile(text: string, file: string): SchemaFile {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new SchemaError(file, [{ field: "(file)", message: `not valid JSON: ${(e as Error).message}` }]);
  }
  const result = schemaFile.safeParse(data, {
    // Zod's default for an absent field ("expected string, received undefined") hides the actual problem.
    error: (iss) => (iss.code === "invalid_type" && iss.input === undefined ? "missing required field" : undefined),
  });
  if (result.success) return result.data;
  throw new SchemaError(file, result.error.issues.flatMap(describeIssue));
}

function describeIssue(iss: z.core.$ZodIssue): { field: string; message: string }[] {
  const field = (path: PropertyKey[]) => path.map(String).join(".") || "(root)";
  // Name the offending key itself, so the field path points at it.
  if (iss.code === "unrecognized_keys") return iss.keys.map((k) => ({ field: field([...iss.path, k]), message: "unknown field" }));
  if (iss.code === "invalid_key") return [{ field: field(iss.path), message: `invalid name: ${iss.issues[0]?.message ?? iss.message}` }];
  return [{ field: field(iss.path), message: iss.message }];
}

/**
 * Resolves a type expression of a validated file (validation guarantees it resolves).
 *
 * @example
 * resolveType(schema, "DomainValidationOption[]"); // { kind: "array", of: { kind: "type", name: "DomainValidationOption" } }
 */
export function resolveType(s: SchemaFile, text: string): TypeExpr {
  const t = parseTypeExpr(text, { enums: Object.keys(s.enums ?? {}), types: Object.keys(s.types ?? {}) });
  if (typeof t === "string") throw new Error(`${s.type}: ${t}`);
  return t;
}
