/**
 * The vendored CloudFormation registry schemas (`codegen/registry/schemas.tar.gz`; provenance in the README
 * beside it), read into memory by type name.
 */
import { readFileSync } from "node:fs";
import { readTarGz } from "./tarball.js";

/**
 * A JSON Schema node of a registry document (only what the generator reads is typed).
 *
 * @example const n: SchemaNode = { type: "string", maxLength: 64 };
 */
export interface SchemaNode {
  type?: string | string[];
  $ref?: string;
  properties?: Record<string, SchemaNode>;
  patternProperties?: Record<string, SchemaNode>;
  additionalProperties?: boolean | SchemaNode;
  items?: SchemaNode;
  enum?: unknown[];
  oneOf?: SchemaNode[];
  anyOf?: SchemaNode[];
  allOf?: SchemaNode[];
  required?: string[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  insertionOrder?: boolean;
  description?: string;
  [keyword: string]: unknown;
}

/**
 * One registry document: a type's JSON Schema plus the resource-level facts.
 *
 * @example loadRegistry().get("AWS::SQS::Queue")?.primaryIdentifier // ["/properties/QueueUrl"]
 */
export interface RegistrySchema extends SchemaNode {
  typeName: string;
  properties: Record<string, SchemaNode>;
  definitions?: Record<string, SchemaNode>;
  primaryIdentifier?: string[];
  additionalIdentifiers?: string[][];
  readOnlyProperties?: string[];
  writeOnlyProperties?: string[];
  createOnlyProperties?: string[];
  deprecatedProperties?: string[];
  propertyTransform?: Record<string, string>;
  handlers?: Partial<Record<HandlerName, { permissions?: string[]; timeoutInMinutes?: number }>>;
  tagging?: { taggable?: boolean; tagOnCreate?: boolean; tagUpdatable?: boolean; tagProperty?: string };
  taggable?: boolean;
}

/**
 * The five Cloud Control handlers, in `crudl` order.
 *
 * @example HANDLERS.map((h) => h[0]).join("") // "crudl"
 */
export type HandlerName = "create" | "read" | "update" | "delete" | "list";
/** {@inheritDoc HandlerName} */
export const HANDLERS: readonly HandlerName[] = ["create", "read", "update", "delete", "list"];

/**
 * Where the vendored archive is.
 *
 * @example readFileSync(REGISTRY_ARCHIVE)
 */
export const REGISTRY_ARCHIVE = new URL("./schemas.tar.gz", import.meta.url);

/**
 * Every registry schema in the archive, by CloudFormation type name, sorted.
 *
 * @example loadRegistry().get("AWS::Lambda::Function")?.writeOnlyProperties // ["/properties/SnapStart", …]
 */
export function loadRegistry(archive: URL | string = REGISTRY_ARCHIVE): Map<string, RegistrySchema> {
  const out = new Map<string, RegistrySchema>();
  for (const [path, bytes] of readTarGz(readFileSync(archive))) {
    if (!path.endsWith(".json")) continue;
    const schema = JSON.parse(bytes.toString("utf8")) as RegistrySchema;
    if (typeof schema.typeName !== "string") throw new Error(`${path}: not a registry schema (no typeName)`);
    out.set(schema.typeName, schema);
  }
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
