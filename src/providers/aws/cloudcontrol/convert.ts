/**
 * Values between Cairn and Cloud Control: Cairn's camelCase names ↔ CloudFormation's names, walked along the
 * type's shapes. JSON-typed values (policy documents) and map keys pass through untouched: they are data,
 * not property names.
 */
import { objectOf, type ObjectInfo, type Shape, type TypeInfo } from "./type-spec.js";

type Json = unknown;
type Side = "byJs" | "byCfn";

/** The member of a union a value fits: an object goes to the object (or JSON) member, a scalar to its own. */
function unionMember(info: TypeInfo, members: readonly Shape[], v: Json): Shape | undefined {
  if (v !== null && typeof v === "object" && !Array.isArray(v)) return members.find((m) => objectOf(info, m)) ?? members.find((m) => m === "json");
  if (Array.isArray(v)) return members.find((m) => Array.isArray(m) && m[0] === "array");
  return undefined;
}

function convert(info: TypeInfo, shape: Shape, v: Json, from: Side): Json {
  if (v === null || typeof v !== "object" || !Array.isArray(shape)) return v;
  switch (shape[0]) {
    case "array":
      return Array.isArray(v) ? v.map((x) => convert(info, shape[1], x, from)) : v;
    case "map":
      return Array.isArray(v) ? v : Object.fromEntries(Object.entries(v).map(([k, x]) => [k, convert(info, shape[1], x, from)]));
    case "ref": {
      const obj = info.defs.get(shape[1]);
      return obj && !Array.isArray(v) ? convertObject(info, obj, v as Record<string, Json>, from) : v;
    }
    case "union": {
      const m = unionMember(info, shape.slice(1) as Shape[], v);
      return m === undefined ? v : convert(info, m, v, from);
    }
    default:
      return v;
  }
}

/** An object's keys renamed to the other side's names; keys the type does not know are kept as they are. */
function convertObject(info: TypeInfo, obj: ObjectInfo, v: Record<string, Json>, from: Side): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [k, x] of Object.entries(v)) {
    if (x === undefined) continue;
    const p = obj[from].get(k);
    if (!p) out[k] = x;
    else out[from === "byJs" ? p.cfn : p.js] = convert(info, p.shape, x, from);
  }
  return out;
}

/**
 * A resource's Cairn inputs as the CloudFormation model Cloud Control expects.
 *
 * @example toCloud(bucketInfo, { bucketName: "b", versioningConfiguration: { status: "Enabled" } })
 * // { BucketName: "b", VersioningConfiguration: { Status: "Enabled" } }
 */
export function toCloud(info: TypeInfo, props: Record<string, Json>): Record<string, Json> {
  return convertObject(info, info, props, "byJs");
}

/**
 * A CloudFormation model (from GetResource) as Cairn outputs.
 *
 * @example fromCloud(bucketInfo, { BucketName: "b", Arn: "arn:aws:s3:::b" }) // { bucketName: "b", arn: "arn:aws:s3:::b" }
 */
export function fromCloud(info: TypeInfo, model: Record<string, Json>): Record<string, Json> {
  return convertObject(info, info, model, "byCfn");
}

/**
 * The CloudFormation path of a Cairn path (for JSON Patch and messages): names mapped along the shapes,
 * indices and map keys kept.
 *
 * @example cloudPath(bucketInfo, ["versioningConfiguration", "status"]) // ["VersioningConfiguration", "Status"]
 */
export function cloudPath(info: TypeInfo, path: readonly (string | number)[]): (string | number)[] {
  const out: (string | number)[] = [];
  let obj: ObjectInfo | undefined = info;
  let shape: Shape | undefined;
  for (const seg of path) {
    if (obj && typeof seg === "string") {
      const p = obj.byJs.get(seg);
      out.push(p?.cfn ?? seg);
      shape = p?.shape;
    } else {
      out.push(seg);
      shape = Array.isArray(shape) && (shape[0] === "array" || shape[0] === "map") ? shape[1] : undefined;
    }
    obj = shape === undefined ? undefined : objectOf(info, shape);
  }
  return out;
}
