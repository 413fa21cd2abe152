import type { Duration } from "../program/duration.js";

/** The type of one attribute, used for docs, validation and (later) typed waits. */
export type AttributeType = "string" | "number" | "boolean" | "object" | "array" | "any";

/** Describes one attribute of a resource type. */
export interface AttributeSchema {
  type?: AttributeType;
  /** Changing this input cannot be done in place: the resource is replaced. */
  forceNew?: boolean;
  /** The value is secret: encrypted at rest and printed as `[secret]`. */
  secret?: boolean;
  /** An output that an in-place update never changes (ids, ARNs), so it stays known while planning an update. */
  stable?: boolean;
  /** Allowed values, for enums. */
  enum?: readonly (string | number)[];
  /** What the attribute is, for generated docs. */
  description?: string;
}

/** Defaults for `wait(...)` on resources of this type. */
export interface WaitDefaults {
  timeout?: Duration;
  interval?: Duration;
}

/**
 * What the engine knows about a resource type beyond its provider.
 *
 * @example
 * const schema: ResourceSchema = {
 *   inputs: { path: { type: "string", forceNew: true }, content: { type: "string" } },
 *   outputs: { path: { type: "string", stable: true }, size: { type: "number" } },
 * };
 */
export interface ResourceSchema {
  inputs?: Record<string, AttributeSchema>;
  outputs?: Record<string, AttributeSchema>;
  wait?: WaitDefaults;
}

/** Input attribute names that force replacement. */
export function forceNewKeys(schema: ResourceSchema | undefined): string[] {
  return Object.entries(schema?.inputs ?? {}).filter(([, a]) => a.forceNew).map(([k]) => k);
}

/** Attribute names (inputs and outputs) declared secret. */
export function secretKeys(schema: ResourceSchema | undefined): Set<string> {
  const out = new Set<string>();
  for (const group of [schema?.inputs, schema?.outputs]) {
    for (const [k, a] of Object.entries(group ?? {})) if (a.secret) out.add(k);
  }
  return out;
}
