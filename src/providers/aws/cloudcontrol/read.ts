/**
 * Reading objects back through `GetResource` (or `ListResources` for many at once), and what a read means
 * for Cairn's outputs: the model reconciled with what the program declared, so only a real change to a
 * declared property reads as drift.
 */
import type { CallContext, CloudControl } from "./client.js";
import { fromCloud, toCloud } from "./convert.js";
import { reconcileModel } from "./compare.js";
import type { TypeInfo } from "./type-spec.js";
import { awsCode } from "../call.js";

type Props = Record<string, unknown>;

/**
 * Cairn outputs from a CloudFormation model, reconciled with the inputs the program declared (see
 * compare.ts): a declared property reads as declared wherever AWS holds the same value (defaults filled in
 * at any depth, unordered arrays and tags in another order, a `propertyTransform` normalisation, a
 * write-only value never returned); what the program does not declare reads as the cloud has it.
 *
 * @example await outputsOf(info, { QueueName: "q", Arn: "arn:…" }, { queueName: "q" }) // { queueName: "q", arn: "arn:…" }
 */
export async function outputsOf(info: TypeInfo, model: Props, inputs: Props): Promise<Props> {
  return fromCloud(info, await reconcileModel(info, toCloud(info, inputs), model, "read"));
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

// Types whose ListResources answers identifiers only (most list handlers), or that have no list handler at
// all (UnsupportedActionException): their waits read each object. A fact about the AWS type, the same for
// every run.
const listsIdentifiersOnly = new Set<string>();
/** Pages of ListResources one wait round may read: beyond that, objects are read one by one. */
const MAX_LIST_PAGES = 3;

/**
 * The outputs of as many `targets` as `ListResources` serves, in one call (or a few pages) for many waits on
 * one type. Only objects it lists with their full model count; the others (not listed, or a type whose list
 * gives identifiers only or that cannot be listed, remembered) are left for `GetResource`.
 *
 * @example const found = await listedModels(cc, ctx, info, targets); // Map id → outputs, for those listed
 */
export async function listedModels(cc: CloudControl, ctx: CallContext, info: TypeInfo, targets: readonly { id: string; inputs: Props }[]): Promise<Map<string, Props | undefined>> {
  const found = new Map<string, Props | undefined>();
  if (!info.registry.handlers.list || listsIdentifiersOnly.has(info.cfnType)) return found;
  const wanted = new Map(targets.map((t) => [t.id, t.inputs]));
  let next: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES && wanted.size; page++) {
    let out;
    try {
      out = await cc.list(ctx, { TypeName: info.cfnType, MaxResults: 100, ...(next ? { NextToken: next } : {}) });
    } catch (e) {
      if (awsCode(e) !== "UnsupportedActionException") throw e;
      listsIdentifiersOnly.add(info.cfnType);
      return new Map();
    }
    for (const d of out.ResourceDescriptions ?? []) {
      const inputs = d.Identifier === undefined ? undefined : wanted.get(d.Identifier);
      if (inputs === undefined) continue;
      const model = JSON.parse(d.Properties ?? "{}") as Props;
      if (Object.keys(model).every((k) => info.identifier.includes(k))) {
        listsIdentifiersOnly.add(info.cfnType);
        return new Map();
      }
      found.set(d.Identifier!, await outputsOf(info, model, inputs));
      wanted.delete(d.Identifier!);
    }
    next = out.NextToken;
    if (!next) break;
  }
  return found;
}
