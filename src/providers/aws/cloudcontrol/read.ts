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
