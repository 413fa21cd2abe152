import { firstValueFrom } from "rxjs";
import type { LookupNode } from "../program/node.js";
import { secretKeys as schemaSecretKeys } from "../provider/schema.js";
import { isChanging } from "./plan.js";
import { describeLookupKey, readLookup } from "../runtime/lookup.js";
import { resolveDeep } from "../program/output.js";
import { deferNode, dependencyDeferrals } from "./deferral.js";
import { knownValue, unknownValue } from "../runtime/values.js";
import { memoized, providerOf, type PlanContext } from "./context.js";

/**
 * Plans a lookup (`Type.get`): read now when its id or query is known and nothing it depends on changes
 * (an eager `<= read`, whose result the plan carries); otherwise read during apply (deferred).
 */
export async function planLookup(node: LookupNode, ctx: PlanContext): Promise<void> {
  const secrets = schemaSecretKeys(node.definition.schema);
  const deps = ctx.input.graph.deps.get(node) ?? [];
  const base = { urn: node.urn, type: node.type, deps: deps.map((d) => d.urn) };
  if (ctx.inTarget && !ctx.inTarget.has(node)) return ctx.publish(node, unknownValue(secrets));
  const scope = ctx.resolver.scope(node);
  const idState = await firstValueFrom(resolveDeep(node.lookupId, scope, "strict"));
  const id = idState.known ? { value: idState.value, secret: idState.secret } : undefined;
  // Steps are recorded before values are published: once every dependency has a value, its step is known.
  const { deferred } = await dependencyDeferrals(node, deps, scope, idState.deferral?.deferrals);
  if (deferred.length) return deferNode(node, deferred, ctx);
  const upstreamChanging = deps.some((d) => {
    const s = ctx.steps.get(d);
    return s !== undefined && isChanging(s);
  });
  const byId = id !== undefined && (id.value === null || typeof id.value !== "object");
  if (!id || upstreamChanging) {
    ctx.steps.set(node, { ...base, kind: "read", id: id && byId ? String(id.value) : "", deferred: true });
    return ctx.publish(node, unknownValue(secrets));
  }
  const key = `lookup|${node.urn}|${JSON.stringify(id.value)}`;
  const found = await memoized(ctx, key, () => ctx.input.read(node.urn, node.provider, (c) => readLookup(providerOf(ctx, node), node.type, node.urn, id.value, c)));
  if (found === undefined) {
    ctx.diagnostics.push({ severity: "error", urn: node.urn, summary: `Lookup "${node.name}" (${node.type}): nothing matches ${describeLookupKey(id.value)}. Check it, and the region and credentials in use.` });
    return ctx.publish(node, unknownValue(secrets));
  }
  ctx.steps.set(node, { ...base, kind: "read", id: found.id, deferred: false, outputs: found.outputs });
  ctx.publish(node, knownValue(found.id, found.outputs, secrets));
}
