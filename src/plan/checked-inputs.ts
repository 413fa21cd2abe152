import type { CustomNode } from "../program/node.js";
import type { Resolver } from "../program/output.js";
import { secretKeysWith } from "../provider/schema.js";
import { resolveInputsNow, type ResolvedInputs } from "../runtime/resolve-inputs.js";
import { inputSchemaProblems } from "../runtime/schema-check.js";
import { jsonInputs } from "../runtime/json-values.js";
import { replaceTriggers, type Triggers } from "./triggers.js";
import { deferNode, withDependsOnValues } from "./deferral.js";
import type { PlanContext } from "./context.js";

/** A resource's inputs resolved in this plan and checked to be storable, with the replaceTriggeredBy answer. */
export interface CheckedInputs extends ResolvedInputs {
  triggers: Triggers | undefined;
}

/**
 * A resource's inputs resolved in this plan, checked to be storable (plain JSON) and to fit its type's
 * schema; undefined, after reporting why, when they are not, or when the resource is deferred to a later
 * round. At once when every input is known already (the usual case: what they read was planned first),
 * else a promise.
 *
 * @example const inputs = checkedInputs(node, ctx); if (inputs instanceof Promise) …
 */
export function checkedInputs(node: CustomNode, ctx: PlanContext): CheckedInputs | undefined | Promise<CheckedInputs | undefined> {
  const scope = ctx.resolver.scope(node);
  const r = withDependsOnValues(node, resolveInputsNow(node.inputs, scope), scope);
  if (r instanceof Promise || node.options.replaceTriggeredBy.length) return checkedLater(node, r, scope, ctx);
  return checked(node, r, undefined, ctx);
}

async function checkedLater(node: CustomNode, r: ResolvedInputs | Promise<ResolvedInputs>, scope: Resolver, ctx: PlanContext): Promise<CheckedInputs | undefined> {
  const resolved = await r;
  const triggers = node.options.replaceTriggeredBy.length ? await replaceTriggers(node, scope, ctx.claimed.get(node)?.prior.triggers) : undefined;
  return checked(node, resolved, triggers, ctx);
}

function checked(node: CustomNode, resolved: ResolvedInputs, triggers: Triggers | undefined, ctx: PlanContext): CheckedInputs | undefined {
  if (resolved.deferred) {
    deferNode(node, resolved.deferred, ctx);
    return undefined;
  }
  const { values, problems } = jsonInputs(resolved.values);
  for (const p of problems) ctx.diagnostics.push({ severity: "error", urn: node.urn, summary: `"${node.name}" (${node.type}): ${p}. State holds plain JSON data, so this value could never match what was saved.` });
  if (problems.length) return undefined;
  // Checked against the type's schema here, at preview: a wrong input must not create an object first.
  const schema = node.definition.schema;
  const wrong = inputSchemaProblems(values, schema, secretKeysWith(schema, resolved.secretKeys));
  for (const p of wrong) ctx.diagnostics.push({ severity: "error", urn: node.urn, summary: `"${node.name}" (${node.type}), ${p}` });
  // A literal, not a spread of `resolved`: this runs once per resource.
  return wrong.length ? undefined : { values, secretKeys: resolved.secretKeys, deps: resolved.deps, triggers };
}
