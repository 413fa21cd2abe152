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
  /** What the CloudFormation registry schema says of the type (absent: a hand-written type, every handler). */
  reg?: RegistryData;
  /**
   * Its objects hold data (the specification's `isStateful`, or curated): replacing or deleting one is data
   * loss, which `up` refuses unless allowed.
   */
  stateful?: true;
}

/**
 * The registry schema's facts about a type, as generated. Paths are CloudFormation property names joined
 * with `/`, without the schema's `/properties/` prefix; a `*` segment stands for every element of an array,
 * as in the schema's own pointers.
 *
 * @example
 * const fn: RegistryData = { h: "crudl", wo: ["Code", "Code/ZipFile"], co: ["FunctionName", "PackageType"], uo: ["Tags"] };
 */
export interface RegistryData {
  /** The handlers the type has, a subset of `crudl` (create, read, update, delete, list); `""`: not provisionable. */
  h: string;
  /** `writeOnlyProperties`: never returned by a read; must be re-sent in every patch. */
  wo?: string[];
  /** `createOnlyProperties`: a change replaces the object. */
  co?: string[];
  /** `readOnlyProperties`: set by the cloud only. */
  ro?: string[];
  /** Arrays with `insertionOrder: false`: compared as sets. */
  uo?: string[];
  /** `propertyTransform`: path → the registry's expression of how the service normalises the value. */
  pt?: Record<string, string>;
  /** `additionalIdentifiers`, as paths. */
  ai?: string[][];
  /** `deprecatedProperties`. */
  dep?: string[];
  /** `tagging`: taggable, tags on create, tags updatable. */
  tg?: [boolean, boolean, boolean];
  /** The property that names the object, for auto-naming: its path and the schema's bounds. */
  nm?: { path: string; min?: number; max?: number; pattern?: string };
  /** When not provisionable: why, and what to use instead (curated), for the editor and preview. */
  nc?: string;
}

/** Which Cloud Control handlers a type has. */
export interface Handlers {
  create: boolean;
  read: boolean;
  update: boolean;
  delete: boolean;
  list: boolean;
}

/** The registry facts of a decoded type, paths split into segments. */
export interface RegistryInfo {
  /** False when Cloud Control cannot create the type (no create handler, or no registry schema). */
  provisionable: boolean;
  handlers: Handlers;
  writeOnly: readonly (readonly string[])[];
  createOnly: readonly (readonly string[])[];
  readOnly: readonly (readonly string[])[];
  unordered: readonly (readonly string[])[];
  /** Path (joined with `/`) → expression. */
  transforms: ReadonlyMap<string, string>;
  additionalIdentifiers: readonly (readonly string[])[];
  deprecated: readonly (readonly string[])[];
  tagging?: { taggable: boolean; onCreate: boolean; updatable: boolean };
  naming?: RegistryData["nm"];
  /** When not provisionable: why, and what to use instead. */
  notCreatable?: string;
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
  /** The registry's facts; for a hand-written type without them, every handler and no paths. */
  registry: RegistryInfo;
  /** Its objects hold data (see {@link TypeSpecData.stateful}). */
  stateful?: true;
}

/** `{ Key, Value }`, the type of every standard tag list. */
const TAG: PropTuple[] = [
  ["Key", "string", FLAG.required],
  ["Value", "string", FLAG.required],
];

const split = (paths: readonly string[] | undefined): string[][] => (paths ?? []).map((p) => p.split("/"));

/**
 * Decodes a type's registry facts.
 *
 * @example registryInfo({ h: "crud", wo: ["Code/ZipFile"] }).handlers.list // false
 */
export function registryInfo(reg: RegistryData | undefined): RegistryInfo {
  const h = reg?.h ?? "crudl";
  const handlers: Handlers = { create: h.includes("c"), read: h.includes("r"), update: h.includes("u"), delete: h.includes("d"), list: h.includes("l") };
  const info: RegistryInfo = {
    provisionable: handlers.create,
    handlers,
    writeOnly: split(reg?.wo),
    createOnly: split(reg?.co),
    readOnly: split(reg?.ro),
    unordered: split(reg?.uo),
    transforms: new Map(Object.entries(reg?.pt ?? {})),
    additionalIdentifiers: reg?.ai ?? [],
    deprecated: split(reg?.dep),
  };
  if (reg?.tg) info.tagging = { taggable: reg.tg[0], onCreate: reg.tg[1], updatable: reg.tg[2] };
  if (reg?.nm) info.naming = reg.nm;
  if (reg?.nc) info.notCreatable = reg.nc;
  return info;
}

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
  const info: TypeInfo = { ...top, cfnType, token, identifier: data.id ?? [], defs, replacePaths: data.rp ?? [], registry: registryInfo(data.reg) };
  const tagProp = data.tags && top.byCfn.get(data.tags[0]);
  if (data.tags && tagProp) info.tags = { prop: tagProp, variant: data.tags[1] };
  if (data.wait) info.wait = data.wait;
  if (data.arn) info.arnTemplate = data.arn;
  if (data.stateful) info.stateful = true;
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
