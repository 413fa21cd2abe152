import type { CustomNode, GraphNode, ResourceNode } from "../program/node.js";
import type { Diagnostic, Diff } from "../provider/provider.js";
import { forceNewKeys, secretKeys as schemaSecretKeys, type ResourceSchema } from "../provider/schema.js";
import { providerRecord } from "../provider/instance.js";
import type { Props, ProviderRecord, ResourceState } from "../state/types.js";
import { UNKNOWN, containsUnknown } from "../core/unknown.js";
import { decide, withIgnoredChanges, type Decision } from "./decide.js";
import type { PlanStep, StepMeta } from "./plan.js";
import { resolveInputsNow, type ResolvedInputs } from "../runtime/resolve-inputs.js";
import type { Resolver } from "../program/output.js";
import { NO_KEYS, knownValue, unknownValue, type ResourceValue } from "../runtime/values.js";
import { memoized, metaOf, priorOf, providerOf, type Claim, type PlanContext } from "./context.js";
import { inputSchemaProblems } from "../runtime/schema-check.js";
import { jsonInputs } from "../runtime/json-values.js";
import { replaceTriggers } from "./triggers.js";
import { deleteFirstChain } from "./cascade.js";
import { deferNode, withDependsOnValues } from "./deferred.js";

/**
 * True when a resource's objects would live somewhere else under the new provider: a setting that locates
 * them (all, unless the type names some: Route 53 is global, so only its endpoint counts) changed.
 */
function providerMoved(prior: ProviderRecord | undefined, next: ProviderRecord | undefined, locating: readonly string[] | undefined): boolean {
  const a = prior?.settings ?? {};
  const b = next?.settings ?? {};
  const keys = locating ?? [...new Set([...Object.keys(a), ...Object.keys(b)])];
  return keys.some((k) => a[k] !== b[k]);
}

/** Planned value of a resource about to be created: outputs named like inputs take the input's value. */
export function plannedForCreate(news: Props, secrets: ReadonlySet<string>): ResourceValue {
  const outputs: Props = {};
  let unknown: Set<string> | undefined;
  for (const [k, v] of Object.entries(news)) {
    if (containsUnknown(v)) (unknown ??= new Set()).add(k);
    else outputs[k] = v;
  }
  return { id: UNKNOWN, outputs, unknown: unknown ?? NO_KEYS, restUnknown: true, secretKeys: secrets };
}

/** Planned value of a resource updated in place: inputs as given, stable outputs kept, the rest unknown. */
function plannedForUpdate(prior: ResourceState, news: Props, schema: ResourceSchema | undefined, diff: Diff | undefined, secrets: ReadonlySet<string>): ResourceValue {
  const stable = new Set([
    ...Object.entries(schema?.outputs ?? {}).filter(([, a]) => a.stable).map(([k]) => k),
    ...(diff?.kind === "update" ? (diff.stables ?? []) : []),
  ]);
  const outputs: Props = {};
  const unknown = new Set<string>();
  for (const k of new Set([...Object.keys(prior.outputs), ...Object.keys(schema?.outputs ?? {})])) {
    if (k in news) {
      if (containsUnknown(news[k])) unknown.add(k);
      else outputs[k] = news[k];
    } else if (stable.has(k)) outputs[k] = prior.outputs[k];
    else unknown.add(k);
  }
  return { id: prior.id, outputs, unknown, restUnknown: false, secretKeys: secrets };
}

/** Inputs resolved in this plan and checked to be storable, with the replaceTriggeredBy answer. */
type Checked = ResolvedInputs & { triggers: Awaited<ReturnType<typeof replaceTriggers>> | undefined };

/**
 * Inputs resolved in this plan, checked to be storable; undefined (after reporting) when they are not.
 * At once when every input is known already (the usual case), else a promise.
 */
function resolvedInputs(node: CustomNode, ctx: PlanContext): Checked | undefined | Promise<Checked | undefined> {
  const scope = ctx.resolver.scope();
  ctx.scopes.set(node, scope);
  const r = withDependsOnValues(node, resolveInputsNow(node.inputs, scope), scope);
  if (r instanceof Promise || node.options.replaceTriggeredBy.length) return resolvedLater(node, r, scope, ctx);
  ctx.scopes.delete(node);
  return checked(node, r, undefined, ctx);
}

async function resolvedLater(node: CustomNode, r: ResolvedInputs | Promise<ResolvedInputs>, scope: Resolver, ctx: PlanContext): Promise<Checked | undefined> {
  const resolved = await r;
  const triggers = node.options.replaceTriggeredBy.length ? await replaceTriggers(node, scope, ctx.claimed.get(node)?.prior.triggers) : undefined;
  ctx.scopes.delete(node);
  return checked(node, resolved, triggers, ctx);
}

function checked(node: CustomNode, resolved: ResolvedInputs, triggers: Checked["triggers"], ctx: PlanContext): Checked | undefined {
  if (resolved.deferred) return void deferNode(node, resolved.deferred, ctx), undefined;
  const { values, problems } = jsonInputs(resolved.values);
  for (const p of problems) ctx.diagnostics.push({ severity: "error", urn: node.urn, message: `"${node.name}" (${node.type}): ${p}. State holds plain JSON data, so this value could never match what was saved.` });
  if (problems.length) return undefined;
  // Checked against the type's schema here, at preview: a wrong input must not create an object first.
  const secret = new Set([...resolved.secretKeys, ...schemaSecretKeys(node.definition.schema)]);
  const wrong = inputSchemaProblems(values, node.definition.schema, secret);
  for (const p of wrong) ctx.diagnostics.push({ severity: "error", urn: node.urn, message: `"${node.name}" (${node.type}), ${p}` });
  return wrong.length ? undefined : { ...resolved, values, triggers };
}

/**
 * Reads the object `import` names and makes it the resource's prior: its inputs are what the read reports
 * under the input names (the rest as declared), so the usual decision follows (same, update or replace).
 */
async function adopt(node: CustomNode, id: string, news: Props, secretKeys: string[], ctx: PlanContext): Promise<Claim | undefined> {
  const provider = providerOf(ctx, node);
  const read = (await memoized(ctx, `import|${node.urn}|${id}`, () =>
    provider.read({ urn: node.urn, id, inputs: news, outputs: {}, ctx: ctx.input.opContext(node.urn, undefined, node.provider) }),
  )) as Props | undefined;
  if (read === undefined) {
    ctx.diagnostics.push({ severity: "error", urn: node.urn, message: `"${node.name}" (${node.type}): import: no object with id "${id}" was found. Check the id, and the region and credentials in use.` });
    return undefined;
  }
  const inputs: Props = { ...news };
  for (const k of Object.keys(news)) if (k in read) inputs[k] = read[k];
  const prior: ResourceState = { urn: node.urn, type: node.type, id, inputs, outputs: read, deps: [] };
  if (secretKeys.length) prior.secretKeys = secretKeys;
  return { prior, adopted: { id, inputs, outputs: read, secretKeys } };
}

/** The provider's `check` and `diff` answers, each asked once across planning passes. */
async function providerAnswers(node: CustomNode, news: Props, prior: ResourceState | undefined, ctx: PlanContext): Promise<Diff | undefined> {
  const provider = providerOf(ctx, node);
  const fullyKnown = !containsUnknown(news);
  if (provider.check && (fullyKnown || provider.checksUnknown)) {
    const found = await memoized<Diagnostic[]>(ctx, `check|${node.urn}|${JSON.stringify(news)}`, async () => provider.check!({ urn: node.urn, inputs: news }));
    for (const d of found) ctx.diagnostics.push({ severity: d.severity, urn: node.urn, message: `"${node.name}" (${node.type})${d.attribute ? `, input "${d.attribute}"` : ""}: ${d.message}` });
  }
  if (!prior || prior.tainted || !provider.diff || !fullyKnown) return undefined;
  const key = `diff|${node.urn}|${JSON.stringify(prior.inputs)}|${JSON.stringify(news)}`;
  return memoized(ctx, key, async () => provider.diff!({ urn: node.urn, id: prior.id, olds: prior.inputs, news, outputs: prior.outputs }));
}

/**
 * Plans one managed resource: resolves its inputs against planned values, asks its provider, decides
 * create / same / update / replace, records the step and publishes the planned value for its dependents.
 * Synchronous when nothing needs waiting for (inputs known, no check/diff, no import): dependents planned
 * next then read its value at once.
 */
export function planCustom(node: CustomNode, ctx: PlanContext): void | Promise<void> {
  const schemaSecrets = schemaSecretKeys(node.definition.schema);
  if (ctx.inTarget && !ctx.inTarget.has(node)) {
    const p = ctx.claimed.get(node)?.prior;
    return ctx.publish(node, p ? knownValue(p.id, p.outputs, new Set([...(p.secretKeys ?? []), ...schemaSecrets])) : unknownValue(schemaSecrets));
  }
  const resolved = resolvedInputs(node, ctx);
  if (resolved instanceof Promise) return resolved.then((r) => withInputs(node, r, ctx));
  return withInputs(node, resolved, ctx);
}

/** Next step once the inputs are known: adopt an `import` object if asked, then decide. */
function withInputs(node: CustomNode, resolved: Checked | undefined, ctx: PlanContext): void | Promise<void> {
  const schemaSecrets = schemaSecretKeys(node.definition.schema);
  if (!resolved) return ctx.publish(node, unknownValue(schemaSecrets));
  if (ctx.claimed.has(node) || node.options.import === undefined) return withPrior(node, resolved, ctx);
  return adopt(node, node.options.import, resolved.values, [...new Set([...resolved.secretKeys, ...schemaSecrets])], ctx).then((claim) => {
    if (!claim) return ctx.publish(node, unknownValue(schemaSecrets));
    ctx.claimed.set(node, claim);
    return withPrior(node, resolved, ctx);
  });
}

/** Asks the provider (only types that answer check or diff need a promise), then decides. */
function withPrior(node: CustomNode, resolved: Checked, ctx: PlanContext): void | Promise<void> {
  const prior = ctx.claimed.get(node)?.prior;
  const news = withIgnoredChanges(resolved.values, prior?.inputs, node.options.ignoreChanges);
  const provider = providerOf(ctx, node);
  if (!provider.check && !provider.diff) return decideFor(node, resolved, news, undefined, ctx);
  return providerAnswers(node, news, prior, ctx).then((diff) => decideFor(node, resolved, news, diff, ctx));
}

function decideFor(node: CustomNode, resolved: Checked, news: Props, providerDiff: Diff | undefined, ctx: PlanContext): void {
  const def = node.definition;
  const schemaSecrets = schemaSecretKeys(def.schema);
  const prior = ctx.claimed.get(node)?.prior;
  const depNodes = withResolvedDeps(ctx.input.graph.deps.get(node) ?? [], resolved.deps, node);
  // A value that was secret stays secret (its old value must never show in a diff), as do schema secrets.
  const priorSecrets = prior?.secretKeys ?? [];
  const secretKeys = schemaSecrets.size || resolved.secretKeys.length || priorSecrets.length ? [...new Set([...resolved.secretKeys, ...schemaSecrets, ...priorSecrets])] : [];
  const o = node.options;
  // Plain properties (undefined when absent), not conditional spreads: this runs once per resource.
  const decision = decide({
    prior,
    news,
    providerDiff,
    forceNew: forceNewKeys(def.schema),
    replaceOnChanges: o.replaceOnChanges,
    deleteBeforeReplace: o.deleteBeforeReplace,
    canUpdate: providerOf(ctx, node).update !== undefined,
    replaceRequested: ctx.replaceSet.has(node.urn),
    providerMoved: prior !== undefined && providerMoved(prior.provider, providerRecord(node.provider), def.schema?.providerSettings),
    triggered: resolved.triggers?.triggered,
    dependencyDeletedFirst: ctx.forced.replace.get(node.urn),
  });
  const meta = metaOf(node, depNodes, ctx.input.graph, resolved.triggers?.hash ?? prior?.triggers);
  const facts = { news, secretKeys, meta, deps: depNodes.map((d) => d.urn), secrets: secretKeys.length ? new Set(secretKeys) : NO_KEYS, providerDiff };
  recordDecision(node, decision, facts, ctx);
}

/**
 * The graph's dependencies of a node and those its resolved inputs name (outputs of resources a callback
 * declared), each once. Usually the graph's list as it is: no set is made per resource.
 */
function withResolvedDeps(graphDeps: readonly GraphNode[], resolved: Iterable<ResourceNode>, node: GraphNode): readonly GraphNode[] {
  let out: GraphNode[] | undefined;
  let seen: Set<GraphNode> | undefined;
  for (const d of resolved) {
    if (d === node || d.kind === "component") continue;
    seen ??= new Set(graphDeps);
    if (seen.has(d)) continue;
    seen.add(d);
    (out ??= [...graphDeps]).push(d);
  }
  return out ?? graphDeps;
}

interface Facts {
  news: Props;
  secretKeys: string[];
  meta: StepMeta;
  deps: PlanStep["deps"];
  secrets: ReadonlySet<string>;
  providerDiff: Diff | undefined;
}

/** Turns a decision into the plan step and the planned value dependents see. */
function recordDecision(node: CustomNode, decision: Decision, f: Facts, ctx: PlanContext): void {
  const claim = ctx.claimed.get(node);
  const prior = claim?.prior;
  const { urn, type } = node;
  const deps = f.deps;
  const drift = (changed: string[]) => (prior?.drift ? changed.filter((k) => prior.drift!.includes(k)) : []);
  let step: PlanStep;
  let value: ResourceValue;
  switch (decision.kind) {
    case "create":
      step = { kind: "create", urn, type, deps, news: f.news, secretKeys: f.secretKeys, meta: f.meta };
      value = foreseen(node, plannedForCreate(f.news, f.secrets), f.news, ctx);
      break;
    case "same":
      step = { kind: "same", urn, type, deps, meta: f.meta };
      value = knownValue(prior!.id, prior!.outputs, f.secrets);
      break;
    case "update": {
      const p = prior!;
      step = { kind: "update", urn, type, deps, id: p.id, olds: p.inputs, news: f.news, outputs: p.outputs, changed: decision.changed, drift: drift(decision.changed), secretKeys: f.secretKeys, meta: f.meta, prior: priorOf(p) };
      value = plannedForUpdate(p, f.news, node.definition.schema, f.providerDiff, f.secrets);
      break;
    }
    case "replace": {
      const p = prior!;
      if (p.protect || node.options.protect) ctx.diagnostics.push(protectedReplace(node, decision, ctx));
      step = {
        kind: "replace", urn, type, deps, id: p.id, olds: p.inputs, news: f.news, outputs: p.outputs, changed: decision.changed, drift: drift(decision.changed),
        replaceKeys: decision.replaceKeys, reason: decision.reason, deleteFirst: decision.deleteFirst, secretKeys: f.secretKeys, meta: f.meta, prior: priorOf(p),
      };
      if (decision.cause !== undefined) step.cause = decision.cause;
      value = foreseen(node, plannedForCreate(f.news, f.secrets), f.news, ctx);
      break;
    }
    default: {
      const never: never = decision;
      throw new Error(`unhandled decision ${JSON.stringify(never)}`);
    }
  }
  if (claim?.movedFrom && step.kind !== "create") step.movedFrom = claim.movedFrom;
  if (claim?.adopted && step.kind !== "create") step.adopt = claim.adopted;
  ctx.steps.set(node, step);
  ctx.publish(node, value);
}

/** A new object's planned value with what its provider can tell of its outputs already (see `Provider.planOutputs`). */
function foreseen(node: CustomNode, value: ResourceValue, news: Props, ctx: PlanContext): ResourceValue {
  const plan = providerOf(ctx, node).planOutputs;
  // Which outputs a secret input shapes is not known: none is foreseen from such inputs (names would show it).
  if (!plan || containsUnknown(news) || value.secretKeys.size > 0) return value;
  const partial = plan({ inputs: news }) as Props | undefined;
  return partial ? { ...value, partial } : value;
}

function protectedReplace(node: CustomNode, d: Extract<Decision, { kind: "replace" }>, ctx: PlanContext) {
  const why =
    d.reason === "dependency" ? ` (${deleteFirstChain(node.urn, ctx.forced.replace)}: the last is deleted before it is re-created, so everything that references it must be deleted first too, or the cloud would refuse that delete as "in use")`
    : d.replaceKeys.length ? ` (changing ${d.replaceKeys.join(", ")} forces a replacement)`
    : "";
  return {
    severity: "error" as const,
    urn: node.urn,
    message: `"${node.name}" (${node.urn}) is protected and cannot be replaced${why}. To replace it, first set protect: false in its options and run up, or undo the change.`,
  };
}
