/**
 * The data the generator writes for each CloudFormation type, and its decoded form. Generated modules hold
 * this data (as a JSON string, parsed when the module loads) and no behaviour: everything a type does comes
 * from this data and the one Cloud Control provider.
 */
import type { Predicate } from "../../../core/predicate.js";
import { camelName } from "./naming.js";

/**
 * The shape of a value, as the specification types it.
 *
 * @example
 * const s: Shape = ["array", ["ref", "Rule"]]; // a list of the type's `Rule` objects
 */
export type Shape =
  | "string"
  | "number"
  | "integer"
  | "boolean"
  | "json"
  | "date-time"
  | "any"
  | ["array", Shape]
  | ["map", Shape]
  | ["ref", string]
  | ["union", ...Shape[]]
  | ["enum", ...(string | number)[]];

/** Bits of a property's flags in {@link PropTuple}. */
export const FLAG = {
  /** The property must be given. */
  required: 1,
  /** Changing it replaces the object (`causesReplacement: yes`; create-only in Cloud Control). */
  replaces: 2,
  /** Changing it may replace the object (`causesReplacement: maybe`): Cairn updates and lets the cloud decide. */
  mayReplace: 4,
  /** An attribute only: the cloud sets it, the program cannot. */
  readOnly: 8,
  /** Never returned by a read (passwords, code): the last applied value is kept, never reported as drift. */
  writeOnly: 16,
  /** Stored encrypted and shown as `[secret]`. */
  secret: 32,
  /** Known while planning an update (identifiers, ARNs): an update never changes it. */
  stable: 64,
} as const;

/** One property as generated: `[CloudFormation name, shape, flags, Cairn name when not camelName(cfn)]`. */
export type PropTuple = [string, Shape, number?, string?];

/**
 * The generated data of one type.
 *
 * @example
 * const bucket: TypeSpecData = { id: ["BucketName"], p: [["BucketName", "string", 2 | 64], ["Arn", "string", 8 | 64]] };
 */
export interface TypeSpecData {
  /** The Cloud Control primary identifier: property paths joined with `|` make the object's id. */
  id?: string[];
  /** Top-level properties and attributes. */
  p: PropTuple[];
  /** Named nested types (CloudFormation's property types), by name. */
  d?: Record<string, PropTuple[]>;
  /** The property holding tags and how: a list of `{ Key, Value }` (`standard`) or a map. */
  tags?: [string, "standard" | "map"];
  /** More property paths whose change replaces the object. */
  rp?: string[][];
  /** Curated wait defaults: timeout (ms), failure states, the attribute that explains a failure. */
  wait?: { timeout?: number; failWhen?: Predicate; reason?: string };
  /** The ARN template (`arn:${Partition}:s3:::${BucketName}`). */
  arn?: string;
}

/** A decoded property. */
export interface PropInfo {
  cfn: string;
  js: string;
  shape: Shape;
  flags: number;
}

/** An object type's properties, found by either name. */
export interface ObjectInfo {
  props: PropInfo[];
  byJs: ReadonlyMap<string, PropInfo>;
  byCfn: ReadonlyMap<string, PropInfo>;
}

/** A decoded type: what the provider, the checker and the differ read. */
export interface TypeInfo extends ObjectInfo {
  cfnType: string;
  token: string;
  identifier: readonly string[];
  defs: ReadonlyMap<string, ObjectInfo>;
  tags?: { prop: PropInfo; variant: "standard" | "map" };
  replacePaths: readonly string[][];
  wait?: TypeSpecData["wait"];
  arnTemplate?: string;
}

/** `{ Key, Value }`, the type of every standard tag list. */
const TAG: PropTuple[] = [
  ["Key", "string", FLAG.required],
  ["Value", "string", FLAG.required],
];

function objectInfo(tuples: readonly PropTuple[]): ObjectInfo {
  const props = tuples.map(([cfn, shape, flags, js]) => ({ cfn, shape, flags: flags ?? 0, js: js ?? camelName(cfn) }));
  return { props, byJs: new Map(props.map((p) => [p.js, p])), byCfn: new Map(props.map((p) => [p.cfn, p])) };
}

/**
 * Decodes a type's generated data.
 *
 * @example
 * const info = decodeTypeSpec("AWS::S3::Bucket", "aws:s3:Bucket", { id: ["BucketName"], p: [["BucketName", "string"]] });
 * info.byJs.get("bucketName")?.cfn; // "BucketName"
 */
export function decodeTypeSpec(cfnType: string, token: string, data: TypeSpecData): TypeInfo {
  const top = objectInfo(data.p);
  const defs = new Map<string, ObjectInfo>(Object.entries(data.d ?? {}).map(([k, v]) => [k, objectInfo(v)]));
  if (!defs.has("Tag")) defs.set("Tag", objectInfo(TAG));
  const info: TypeInfo = { ...top, cfnType, token, identifier: data.id ?? [], defs, replacePaths: data.rp ?? [] };
  const tagProp = data.tags && top.byCfn.get(data.tags[0]);
  if (data.tags && tagProp) info.tags = { prop: tagProp, variant: data.tags[1] };
  if (data.wait) info.wait = data.wait;
  if (data.arn) info.arnTemplate = data.arn;
  return info;
}

/**
 * The object type a shape stands for, if it is one (a `ref` to a nested type).
 *
 * @example objectOf(info, ["ref", "VersioningConfiguration"])?.byJs.get("status")
 */
export function objectOf(info: Pick<TypeInfo, "defs">, shape: Shape): ObjectInfo | undefined {
  return Array.isArray(shape) && shape[0] === "ref" ? info.defs.get(shape[1]) : undefined;
}
