import type { Duration } from "../core/duration.js";
import type { Predicate } from "../core/predicate.js";
import type { AutoNameRule } from "./auto-name.js";

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

/**
 * Defaults for `wait(...)` on resources of this type.
 *
 * @example
 * // ACM certificates: validation can take 75 minutes, and some states mean it will never be issued.
 * const wait: WaitDefaults = {
 *   timeout: minutes(75),
 *   failWhen: { op: "in", path: ["status"], values: ["FAILED", "VALIDATION_TIMED_OUT", "REVOKED"] },
 *   reasonAttribute: "failureReason",
 * };
 */
export interface WaitDefaults {
  /** How long a wait may take (core default: 5 minutes). */
  timeout?: Duration;
  /** The longest pause between two reads (core default: 5 seconds). */
  interval?: Duration;
  /** States that end a wait at once as failed, unless the wait gives its own `failWhen`. */
  failWhen?: Predicate;
  /** The output attribute where the cloud explains a failure (printed with it). */
  reasonAttribute?: string;
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
  /**
   * The provider settings that say where this type's objects live; a change of any other setting does not
   * move them (a global service ignores `region`). Default: every setting.
   */
  providerSettings?: readonly string[];
  /**
   * How an object is named when the program gives no name (see `fitName`): the name is chosen when the
   * object is planned for creation and kept in state as the program's own input.
   */
  autoName?: AutoNameRule;
  /**
   * Its objects hold data the program does not (a database, a bucket, a table, a file system, a log group):
   * replacing or deleting one loses that data, so the plan marks the step as data loss and `up` refuses it
   * unless it is allowed (the resource's `allowDataLoss: true`, or `--allow-data-loss <name>`). Default false.
   */
  stateful?: boolean;
}

/** Input attribute names that force replacement. */
export function forceNewKeys(schema: ResourceSchema | undefined): string[] {
  if (!schema) return [];
  let keys = forceNewCache.get(schema);
  if (!keys) forceNewCache.set(schema, (keys = Object.entries(schema.inputs ?? {}).filter(([, a]) => a.forceNew).map(([k]) => k)));
  return keys;
}

// Schemas are type definitions, asked about once per resource: answer from a cache (read-only results).
const forceNewCache = new WeakMap<ResourceSchema, string[]>();
const secretCache = new WeakMap<ResourceSchema, ReadonlySet<string>>();
const NO_SECRETS: ReadonlySet<string> = new Set();

/** Attribute names (inputs and outputs) declared secret (a shared, read-only set). */
export function secretKeys(schema: ResourceSchema | undefined): ReadonlySet<string> {
  if (!schema) return NO_SECRETS;
  let out = secretCache.get(schema);
  if (!out) {
    const keys = new Set<string>();
    for (const group of [schema.inputs, schema.outputs]) for (const [k, a] of Object.entries(group ?? {})) if (a.secret) keys.add(k);
    secretCache.set(schema, (out = keys.size ? keys : NO_SECRETS));
  }
  return out;
}

/**
 * The schema's secret attributes with `extra` ones (an object's recorded or resolved secret keys): the
 * schema's one shared set when there are none, else a set of their own: every published value keeps its
 * set, so most share one rather than each holding a copy.
 *
 * @example secretKeysWith(schema, []) === secretKeys(schema) // true: no set per object
 */
export function secretKeysWith(schema: ResourceSchema | undefined, extra: readonly string[] | undefined): ReadonlySet<string> {
  const declared = secretKeys(schema);
  return extra?.length ? new Set([...extra, ...declared]) : declared;
}
