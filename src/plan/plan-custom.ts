import type { CustomNode, GraphNode, ResourceNode } from "../program/node.js";
import { checkDiagnostic, type CheckResult, type Diff, type Provider } from "../provider/provider.js";
import { forceNewKeys, secretKeys as schemaSecretKeys, secretKeysWith } from "../provider/schema.js";
import { providerRecord } from "../provider/instance.js";
import type { Props, ProviderRecord, ResourceState } from "../state/types.js";
import type { Urn } from "../core/urn.js";
import { containsUnknown } from "../core/unknown.js";
import { DistinctNodes } from "../program/distinct-nodes.js";
import { decide, withIgnoredChanges, type Decision } from "./decide.js";
import type { PlanStep, StepMeta } from "./plan.js";
import { NO_KEYS, knownValue, unknownValue, type ResourceValue } from "../runtime/values.js";
import { memoized, metaOf, priorOf, providerOf, type PlanContext } from "./context.js";
import type { Claim } from "./claims.js";
import { deleteFirstChain } from "./cascade.js";
import { checkedInputs, type CheckedInputs } from "./checked-inputs.js";
import { foreseen, plannedForCreate, plannedForUpdate } from "./planned-value.js";
import { renamedForReplace, withAutoName } from "./auto-names.js";
import { isStateful, replaceLoss } from "./data-loss.js";

/** The decision for every resource not in state. */
const CREATE: Decision = Object.freeze({ kind: "create" });

/** The secret keys of a step that has none: one frozen list (a list per resource was 10,000 empty arrays to keep). */
const NO_NAMES = Object.freeze([]) as unknown as string[];

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

/**
 * Reads the object `import` names and makes it the resource's prior: its inputs are what the read reports
 * under the input names (the rest as declared), so the usual decision follows (same, update or replace).
 * The object was read through the resource's provider instance, so it lives where that instance points:
 * the prior names it (without it, an explicit instance would read as a provider move, and a replacement).
 */
async function adopt(node: CustomNode, id: string, news: Props, secretKeys: string[], ctx: PlanContext): Promise<Claim | undefined> {
  const provider = providerOf(ctx, node);
  const read = (await memoized(ctx, `import|${node.urn}|${id}`, () =>
    ctx.input.read(node.urn, node.provider, (c) => provider.read({ urn: node.urn, id, inputs: news, outputs: {}, ctx: c })),
  )) as Props | undefined;
  if (read === undefined) {
    ctx.diagnostics.push({ severity: "error", urn: node.urn, summary: `"${node.name}" (${node.type}): import: no object with id "${id}" was found. Check the id, and the region and credentials in use.` });
    return undefined;
  }
  const inputs: Props = { ...news };
  for (const k of Object.keys(news)) if (k in read) inputs[k] = read[k];
  const prior: ResourceState = { urn: node.urn, type: node.type, id, inputs, outputs: read, deps: [] };
  const where = providerRecord(node.provider);
  if (where) prior.provider = where;
  if (secretKeys.length) prior.secretKeys = secretKeys;
  return { prior, adopted: { id, inputs, outputs: read, secretKeys } };
}

/**
 * The claim of a record whose inputs are not the program's (a resumed create, see
 * `ResourceState.inputsUnknown`): the object is read with the inputs the program declares, and its prior
 * inputs are what that read reports under those names (the rest as declared), as for the `import` option.
 * Nothing the program does not declare becomes an input; what a read cannot tell is taken as declared.
 */
async function reowned(node: CustomNode, claim: Claim, news: Props, ctx: PlanContext): Promise<Claim> {
  const prior = claim.prior;
  const provider = providerOf(ctx, node);
  const read = (await memoized(ctx, `reown|${node.urn}|${prior.id}|${JSON.stringify(news)}`, () =>
    ctx.input.read(node.urn, node.provider, (c) => provider.read({ urn: node.urn, id: prior.id, inputs: news, outputs: prior.outputs, ctx: c })),
  )) as Props | undefined;
  const seen = read ?? prior.outputs;
  const inputs: Props = { ...news };
  for (const k of Object.keys(news)) if (k in seen) inputs[k] = seen[k];
  return { ...claim, prior: { ...prior, inputs, outputs: seen } };
}

/** The provider's `check` and `diff` answers, each asked once across planning passes. */
async function providerAnswers(node: CustomNode, provider: Provider<any, any, any>, news: Props, prior: ResourceState | undefined, ctx: PlanContext): Promise<Diff | undefined> {
  const fullyKnown = !containsUnknown(news);
  if (provider.check && (fullyKnown || provider.checksUnknown)) {
    const found = await memoized<CheckResult>(ctx, `check|${node.urn}|${JSON.stringify(news)}`, async () => provider.check!({ urn: node.urn, inputs: news }));
    for (const d of found.map(checkDiagnostic)) {
      ctx.diagnostics.push({ ...d, urn: node.urn, summary: `"${node.name}" (${node.type})${d.attribute ? `, input "${d.attribute}"` : ""}: ${d.summary}` });
    }
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
  if (ctx.inTarget && !ctx.inTarget.has(node)) {
    const p = ctx.claimed.get(node)?.prior;
    const secrets = secretKeysWith(node.definition.schema, p?.secretKeys);
    return ctx.publish(node, p ? knownValue(p.id, p.outputs, secrets) : unknownValue(secrets));
  }
  const inputs = checkedInputs(node, ctx);
  if (inputs instanceof Promise) return inputs.then((r) => withInputs(node, r, ctx));
  return withInputs(node, inputs, ctx);
}

/** Next step once the inputs are known: adopt an `import` object if asked, then decide. */
function withInputs(node: CustomNode, inputs: CheckedInputs | undefined, ctx: PlanContext): void | Promise<void> {
  if (!inputs) return ctx.publish(node, unknownValue(schemaSecretKeys(node.definition.schema)));
  const claim = ctx.claimed.get(node);
  if (claim?.prior.inputsUnknown) return reowned(node, claim, inputs.values, ctx).then((c) => withPrior(node, inputs, c, ctx));
  if (claim || node.options.import === undefined) return withPrior(node, inputs, claim, ctx);
  const secrets = [...new Set([...inputs.secretKeys, ...schemaSecretKeys(node.definition.schema)])];
  return adopt(node, node.options.import, inputs.values, secrets, ctx).then((adopted) => {
    if (!adopted) return ctx.publish(node, unknownValue(schemaSecretKeys(node.definition.schema)));
    ctx.claimed.claim(node, adopted);
    return withPrior(node, inputs, adopted, ctx);
  });
}

/** What planning one resource has found out by the time it decides (its provider is asked once for all of it). */
interface Planning {
  node: CustomNode;
  inputs: CheckedInputs;
  claim: Claim | undefined;
  provider: Provider<any, any, any>;
  /** The inputs with `ignoreChanges` applied. */
  news: Props;
}

/** Asks the provider (only types that answer check or diff need a promise), then decides. */
function withPrior(node: CustomNode, inputs: CheckedInputs, claim: Claim | undefined, ctx: PlanContext): void | Promise<void> {
  const named = withAutoName(node, inputs.values, claim?.prior, ctx.input.autoNames);
  const news = withIgnoredChanges(named, claim?.prior.inputs, node.options.ignoreChanges);
  const p: Planning = { node, inputs, claim, provider: providerOf(ctx, node), news };
  if (!p.provider.check && !p.provider.diff) return decideFor(p, undefined, ctx);
  return providerAnswers(node, p.provider, news, claim?.prior, ctx).then((diff) => decideFor(p, diff, ctx));
}

function decideFor(p: Planning, providerDiff: Diff | undefined, ctx: PlanContext): void {
  const { node, inputs, news } = p;
  const def = node.definition;
  const schemaSecrets = schemaSecretKeys(def.schema);
  const prior = p.claim?.prior;
  const depNodes = withResolvedDeps(ctx.input.graph.deps.get(node) ?? [], inputs.deps, node);
  // A value that was secret stays secret (its old value must never show in a diff), as do schema secrets.
  const priorSecrets = prior?.secretKeys ?? NO_NAMES;
  const secretKeys = schemaSecrets.size || inputs.secretKeys.length || priorSecrets.length ? [...new Set([...inputs.secretKeys, ...schemaSecrets, ...priorSecrets])] : NO_NAMES;
  const o = node.options;
  // A resource not in state is created, whatever else holds (decide's first rule): no input is made for it.
  // Plain properties (undefined when absent), not conditional spreads: this runs once per resource.
  const decision: Decision = !prior ? CREATE : decide({
    prior,
    news,
    providerDiff,
    forceNew: forceNewKeys(def.schema),
    replaceOnChanges: o.replaceOnChanges,
    deleteBeforeReplace: o.deleteBeforeReplace,
    canUpdate: p.provider.update !== undefined,
    replaceRequested: ctx.replaceSet.has(node.urn),
    providerMoved: prior !== undefined && providerMoved(prior.provider, providerRecord(node.provider), def.schema?.providerSettings),
    triggered: inputs.triggers?.triggered,
    dependencyDeletedFirst: ctx.forced.replace.get(node.urn),
  });
  const meta = metaOf(node, depNodes, ctx.input.graph, inputs.triggers?.hash ?? prior?.triggers);
  const facts = { news, secretKeys, meta, deps: stepDeps(depNodes, meta), secrets: secretKeys.length ? new Set(secretKeys) : NO_KEYS, providerDiff };
  recordDecision(p, decision, facts, ctx);
}

/** The URNs a step lists as its dependencies: its record's (`meta.deps`) when no wait is among them, one list for both. */
function stepDeps(depNodes: readonly GraphNode[], meta: StepMeta): Urn[] {
  for (let i = 0; i < depNodes.length; i++) if (depNodes[i]!.kind === "wait") return depNodes.map((n) => n.urn);
  return meta.deps;
}

/**
 * The graph's dependencies of a node and those its resolved inputs name (outputs of resources a callback
 * declared), each once. Nearly always the graph's list as it is (an input's output comes from a resource
 * the graph has already): then nothing is made.
 */
function withResolvedDeps(graphDeps: readonly GraphNode[], resolved: readonly ResourceNode[], node: GraphNode): readonly GraphNode[] {
  if (resolved.length === 0 || !namesOthers(graphDeps, resolved, node)) return graphDeps;
  const all = new DistinctNodes();
  for (const d of graphDeps) all.add(d);
  for (const d of resolved) if (d !== node && d.kind !== "component") all.add(d);
  return all.list() as readonly GraphNode[]; // components were left out
}

/** True when `resolved` names a node (not `node` itself, not a component) that `graphDeps` does not. */
function namesOthers(graphDeps: readonly GraphNode[], resolved: readonly ResourceNode[], node: GraphNode): boolean {
  // A short list is looked through; a long one is put in a set once (no quadratic time for a node that uses thousands).
  const known = graphDeps.length > 8 ? new Set<ResourceNode>(graphDeps) : undefined;
  for (let i = 0; i < resolved.length; i++) {
    const d = resolved[i]!;
    if (d === node || d.kind === "component") continue;
    if (known ? !known.has(d) : !graphDeps.includes(d as GraphNode)) return true;
  }
  return false;
}

interface Facts {
  news: Props;
  secretKeys: string[];
  meta: StepMeta;
  deps: PlanStep["deps"];
  secrets: ReadonlySet<string>;
  providerDiff: Diff | undefined;
}

/** Changed attributes that the last refresh found drifted (the step puts them back). */
function drifted(prior: ResourceState, changed: string[]): string[] {
  return prior.drift ? changed.filter((k) => prior.drift!.includes(k)) : [];
}

/** Turns a decision into the plan step and the planned value dependents see. */
function recordDecision(p: Planning, decision: Decision, f: Facts, ctx: PlanContext): void {
  const { node, claim } = p;
  const prior = claim?.prior;
  const { urn, type } = node;
  const deps = f.deps;
  // Made with its declaration site (assemble would add it): a field added later gives each step a second
  // array for its properties (~40 bytes).
  const site = node.site;
  let step: PlanStep;
  let value: ResourceValue;
  switch (decision.kind) {
    case "create":
      step = { kind: "create", urn, type, deps, news: f.news, secretKeys: f.secretKeys, meta: f.meta, site };
      value = foreseen(p.provider, plannedForCreate(f.news, f.secrets), f.news);
      break;
    case "same":
      step = { kind: "same", urn, type, deps, meta: f.meta, site };
      value = knownValue(prior!.id, prior!.outputs, f.secrets);
      break;
    case "update": {
      const o = prior!;
      step = { kind: "update", urn, type, deps, id: o.id, olds: o.inputs, news: f.news, outputs: o.outputs, changed: decision.changed, drift: drifted(o, decision.changed), secretKeys: f.secretKeys, meta: f.meta, prior: priorOf(o), site };
      value = plannedForUpdate(o, f.news, node.definition.schema, f.providerDiff, f.secrets);
      break;
    }
    case "replace": {
      const o = prior!;
      if (o.protect || node.options.protect) ctx.diagnostics.push(protectedReplace(node, decision, ctx));
      // The new object is made before the old one goes: it gets a name of its own.
      const news = renamedForReplace(node, f.news, p.inputs.values, o.id, ctx.input.autoNames);
      step = {
        kind: "replace", urn, type, deps, id: o.id, olds: o.inputs, news, outputs: o.outputs, changed: decision.changed, drift: drifted(o, decision.changed),
        replaceKeys: decision.replaceKeys, reason: decision.reason, deleteFirst: decision.deleteFirst, secretKeys: f.secretKeys, meta: f.meta, prior: priorOf(o), site,
      };
      if (decision.cause !== undefined) step.cause = decision.cause;
      const loss = replaceLoss(decision.reason, node.options, isStateful(node.definition.schema));
      if (loss) step.dataLoss = loss;
      value = foreseen(p.provider, plannedForCreate(news, f.secrets), news);
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

function protectedReplace(node: CustomNode, d: Extract<Decision, { kind: "replace" }>, ctx: PlanContext) {
  const why =
    d.reason === "dependency" ? ` (${deleteFirstChain(node.urn, ctx.forced.replace)}: the last is deleted before it is re-created, so everything that references it must be deleted first too, or the cloud would refuse that delete as "in use")`
    : d.replaceKeys.length ? ` (changing ${d.replaceKeys.join(", ")} forces a replacement)`
    : "";
  return {
    severity: "error" as const,
    urn: node.urn,
    summary: `"${node.name}" (${node.urn}) is protected and cannot be replaced${why}. To replace it, first set protect: false in its options and run up, or undo the change.`,
  };
}
