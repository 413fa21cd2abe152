/**
 * The registry data the runtime reads lazily, as generated JSON beside the service modules: each type's
 * validation schema (one file per CloudFormation namespace, read only when a check of that namespace runs)
 * and every type's handler permissions (one file, read only when permissions are asked for).
 */
import { HANDLERS, type HandlerName, type RegistrySchema } from "./load.js";
import { trimSchema, type TrimReport } from "./trim.js";

/**
 * Where the generated registry JSON goes, relative to the repository root.
 *
 * @example `${REGISTRY_DIR}/AWS_S3.json`
 */
export const REGISTRY_DIR = "src/providers/aws/generated/registry";
/**
 * The generated permissions file, relative to the repository root.
 *
 * @example readFileSync(PERMISSIONS_FILE, "utf8")
 */
export const PERMISSIONS_FILE = "src/providers/aws/generated/permissions.json";

/**
 * The file (inside {@link REGISTRY_DIR}) holding a type's schema: its namespace with `_` for `::`.
 *
 * @example schemaFile("AWS::S3::Bucket") // "AWS_S3.json"
 */
export function schemaFile(cfnType: string): string {
  return `${cfnType.split("::").slice(0, 2).join("_")}.json`;
}

/** The trimmed schema with the specification's extra enum values allowed too (on the property, or the definition it names). */
function widened(trimmed: Record<string, unknown>, extras: Record<string, string[]> | undefined): Record<string, unknown> {
  if (!extras) return trimmed;
  const props = trimmed.properties as Record<string, { enum?: unknown[]; $ref?: string }>;
  const defs = (trimmed.definitions ?? {}) as Record<string, { enum?: unknown[] }>;
  for (const [name, values] of Object.entries(extras)) {
    const p = props[name];
    const target = p?.enum ? p : p?.$ref ? defs[p.$ref.replace("#/definitions/", "")] : undefined;
    if (target?.enum) target.enum = [...new Set([...target.enum, ...values])];
  }
  return trimmed;
}

/** One entry a line: the files stay diffable and small (no indentation inside a schema). */
function linesJson(entries: [string, unknown][]): string {
  return `{\n${entries.map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(",\n")}\n}\n`;
}

/**
 * Every runtime JSON file (repository-relative path → text) and what trimming dropped.
 *
 * @example registryFiles(loadRegistry()).files.get("src/providers/aws/generated/registry/AWS_SQS.json")
 */
export function registryFiles(registry: ReadonlyMap<string, RegistrySchema>, enumExtras: ReadonlyMap<string, Record<string, string[]>> = new Map()): { files: Map<string, string>; report: TrimReport } {
  const report: TrimReport = { droppedPatterns: [] };
  const byFile = new Map<string, [string, unknown][]>();
  const permissions: [string, Record<HandlerName, string[]>][] = [];
  for (const [type, schema] of registry) {
    const file = `${REGISTRY_DIR}/${schemaFile(type)}`;
    if (!byFile.has(file)) byFile.set(file, []);
    byFile.get(file)!.push([type, widened(trimSchema(schema, report), enumExtras.get(type))]);
    if (schema.handlers) permissions.push([type, Object.fromEntries(HANDLERS.map((h) => [h, [...new Set(schema.handlers?.[h]?.permissions ?? [])].sort()])) as Record<HandlerName, string[]>]);
  }
  const files = new Map<string, string>([...byFile].map(([f, entries]) => [f, linesJson(entries)]));
  files.set(PERMISSIONS_FILE, linesJson(permissions));
  return { files, report };
}
