/**
 * Reading an object back through `GetResource`, and what the read means for Cairn's outputs: write-only
 * properties (never returned) keep the value last applied, and inside an object the program gave, keys the
 * program did not set are the cloud's own (defaults) and are left out, so they never read as drift.
 */
import type { CallContext, CloudControl } from "./client.js";
import { fromCloud } from "./convert.js";
import { FLAG, objectOf, type Shape, type TypeInfo } from "./type-spec.js";
import { awsCode } from "../call.js";

type Props = Record<string, unknown>;

/** `read` narrowed to what `given` sets, along the object shapes (lists and scalars compared whole). */
function projected(info: TypeInfo, shape: Shape, read: unknown, given: unknown): unknown {
  const obj = objectOf(info, shape);
  if (!obj || read === null || typeof read !== "object" || Array.isArray(read) || given === null || typeof given !== "object" || Array.isArray(given)) return read;
  const out: Props = {};
  for (const [k, v] of Object.entries(given as Props)) {
    const p = obj.byJs.get(k);
    if (k in (read as Props)) out[k] = p ? projected(info, p.shape, (read as Props)[k], v) : (read as Props)[k];
    else if (p && p.flags & FLAG.writeOnly) out[k] = v;
  }
  return out;
}

/**
 * Cairn outputs from a CloudFormation model: names mapped, write-only inputs kept from `inputs`, objects the
 * program gave narrowed to the keys it set.
 *
 * @example outputsOf(info, { QueueName: "q", Arn: "arn:…" }, { queueName: "q" }) // { queueName: "q", arn: "arn:…" }
 */
export function outputsOf(info: TypeInfo, model: Props, inputs: Props): Props {
  const out = fromCloud(info, model);
  for (const [k, given] of Object.entries(inputs)) {
    const p = info.byJs.get(k);
    if (!p) continue;
    if (!(k in out)) {
      if (p.flags & FLAG.writeOnly) out[k] = given;
      continue;
    }
    out[k] = projected(info, p.shape, out[k], given);
  }
  return out;
}

/**
 * The object's current model, or undefined when it does not exist.
 *
 * @example const model = await getModel(cc, ctx, info, "my-bucket");
 */
export async function getModel(cc: CloudControl, ctx: CallContext, info: TypeInfo, id: string): Promise<Props | undefined> {
  try {
    const out = await cc.get(ctx, { TypeName: info.cfnType, Identifier: id });
    return JSON.parse(out.ResourceDescription?.Properties ?? "{}") as Props;
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}

/** True for Cloud Control's "no such object" (the call's exception, or an AwsError wrapping it). */
export function isNotFound(e: unknown): boolean {
  const code = awsCode(e);
  return code === "ResourceNotFoundException" || code === "NotFound";
}

// Types whose ListResources answers identifiers only (most list handlers): their waits read each object.
// A fact about the AWS type, the same for every run.
const listsIdentifiersOnly = new Set<string>();
/** Pages of ListResources one wait round may read: beyond that, objects are read one by one. */
const MAX_LIST_PAGES = 3;

/**
 * The outputs of as many `targets` as `ListResources` serves, in one call (or a few pages) for many waits on
 * one type. Only objects it lists with their full model count; the others (not listed, or a type whose list
 * gives identifiers only, remembered) are left for `GetResource`.
 *
 * @example const found = await listedModels(cc, ctx, info, targets); // Map id → outputs, for those listed
 */
export async function listedModels(cc: CloudControl, ctx: CallContext, info: TypeInfo, targets: readonly { id: string; inputs: Props }[]): Promise<Map<string, Props | undefined>> {
  const found = new Map<string, Props | undefined>();
  if (listsIdentifiersOnly.has(info.cfnType)) return found;
  const wanted = new Map(targets.map((t) => [t.id, t.inputs]));
  let next: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES && wanted.size; page++) {
    const out = await cc.list(ctx, { TypeName: info.cfnType, MaxResults: 100, ...(next ? { NextToken: next } : {}) });
    for (const d of out.ResourceDescriptions ?? []) {
      const inputs = d.Identifier === undefined ? undefined : wanted.get(d.Identifier);
      if (inputs === undefined) continue;
      const model = JSON.parse(d.Properties ?? "{}") as Props;
      if (Object.keys(model).every((k) => info.identifier.includes(k))) {
        listsIdentifiersOnly.add(info.cfnType);
        return new Map();
      }
      found.set(d.Identifier!, outputsOf(info, model, inputs));
      wanted.delete(d.Identifier!);
    }
    next = out.NextToken;
    if (!next) break;
  }
  return found;
}
