import { isDeepStrictEqual } from "node:util";
import { firstValueFrom } from "rxjs";
import type { Graph } from "../graph/graph.js";
import type { ResourceNode } from "../program/node.js";
import type { Urn } from "../program/urn.js";
import type { OpContext, ProviderInstance } from "../provider/provider.js";
import { forceNewKeys, secretKeys as schemaSecretKeys } from "../provider/schema.js";
import { findDefinition } from "../provider/registry.js";
import { providerRecord } from "../provider/instance.js";
import { describeLookupKey, readLookup } from "./lookup.js";
import type { Props, ProviderRecord, ResourceState, StackState } from "../state/types.js";
import { UNKNOWN, containsUnknown } from "../program/unknown.js";
import { changedKeys, decide, withIgnoredChanges } from "./decide.js";
import { isChanging, type Plan, type PlanDiagnostic, type PlanStep, type StepMeta } from "./plan.js";
import { DEFAULT_WAIT_INTERVAL, DEFAULT_WAIT_TIMEOUT, rootTarget } from "../wait/wait.js";
import { evaluate, formatPredicate } from "../wait/predicate.js";
import { resolveInputs, resolveKnown } from "./resolve-inputs.js";
import { ValueResolver, unknownValue, type ResourceValue } from "./values.js";

/** Single-run planning options (the CLI's `--target`, `--replace`). */
export interface PlanOptions {
  /** Plan only these resources and what they depend on. */
  targets?: readonly Urn[];
  /** Replace these resources even if nothing changed. */
  replace?: readonly Urn[];
}

/** What the planner needs: the evaluated graph, the prior state and a way to call providers. */
export interface PlanInput {
  project: string;
  stack: string;
  graph: Graph;
  /** The program's returned stack outputs (raw inputs). */
  programOutputs: Record<string, unknown>;
  state: StackState;
  /** Resources whose outputs a refresh just changed: their providers are asked to diff again. */
  drifted?: ReadonlySet<string>;
  opContext: (urn: Urn, timeout?: number, provider?: ProviderInstance) => OpContext;
}

/** What the executor needs besides the plain plan: the graph to resolve unknown inputs against. */
export interface PlanRuntime {
  graph: Graph;
  nodeByUrn: Map<Urn, ResourceNode>;
  programOutputs: Record<string, unknown>;
  /** Planned values per node (lookups read while planning are reused by the executor). */
  planned: Map<ResourceNode, ResourceValue>;
}

/** Dependencies as state records them: a wait is replaced by what it waits on (waits never appear in state). */
function stateDeps(deps: Iterable<ResourceNode>, graph: Graph): Urn[] {
  const out = new Set<Urn>();
  const visit = (d: ResourceNode) => {
    if (d.kind !== "wait") return void out.add(d.urn);
    for (const x of graph.deps.get(d) ?? []) visit(x);
  };
  for (const d of deps) visit(d);
  return [...out];
}

function metaOf(node: ResourceNode, deps: Iterable<ResourceNode>, graph: Graph): StepMeta {
  const m: StepMeta = { deps: stateDeps(deps, graph), protect: node.protect, retainOnDelete: node.retainOnDelete };
  if (node.parent) m.parent = node.parent.urn;
  const provider = providerRecord(node.provider);
  if (provider) m.provider = provider;
  return m;
}

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
function plannedForCreate(news: Props, secrets: ReadonlySet<string>): ResourceValue {
  const outputs: Props = {};
  const unknown = new Set<string>();
  for (const [k, v] of Object.entries(news)) {
    if (containsUnknown(v)) unknown.add(k);
    else outputs[k] = v;
  }
  return { id: UNKNOWN, outputs, unknown, restUnknown: true, secretKeys: secrets };
}

/**
 * Walks the graph against the prior state and decides a step per resource; then plans deletes for what the
 * program no longer declares. Nodes plan concurrently, each as soon as the planned values it reads are
 * published. Errors are collected as diagnostics (each once) rather than thrown.
 */
export async function makePlan(input: PlanInput, opts: PlanOptions = {}): Promise<{ plan: Plan; runtime: PlanRuntime }> {
  const { graph, state } = input;
  const resolver = new ValueResolver();
  const diagnostics: PlanDiagnostic[] = [];
  const steps = new Map<ResourceNode, PlanStep>();
  const planned = new Map<ResourceNode, ResourceValue>();
  const nodeByUrn = new Map<Urn, ResourceNode>();
  for (const n of graph.order) nodeByUrn.set(n.urn, n);

  // Claim state entries for program resources, directly or through an alias (a rename or move).
  const claimed = new Map<ResourceNode, { prior: ResourceState; movedFrom?: Urn }>();
  const claimedUrns = new Set<string>();
  for (const n of graph.order) {
    if (n.kind !== "custom") continue;
    const direct = state.resources[n.urn];
    if (direct) {
      claimed.set(n, { prior: direct });
      claimedUrns.add(n.urn);
    }
  }
  for (const n of graph.order) {
    if (n.kind !== "custom" || claimed.has(n)) continue;
    for (const a of n.aliases) {
      const prior = state.resources[a];
      if (prior && !claimedUrns.has(a) && !nodeByUrn.has(a)) {
        claimed.set(n, { prior, movedFrom: a });
        claimedUrns.add(a);
        break;
      }
    }
  }

  const inTarget = targetSet(graph, opts.targets);
  const replaceSet = new Set<string>(opts.replace ?? []);
  for (const u of replaceSet) {
    if (!nodeByUrn.has(u as Urn)) diagnostics.push({ severity: "error", message: `--replace ${u}: no resource with this URN in the program. Run \`state list\` to see the URNs.` });
  }

  const publish = (node: ResourceNode, v: ResourceValue) => {
    planned.set(node, v);
    resolver.publish(node, v);
  };

  /** A wait: its value is its target's planned value; it is needed when something around it changes. */
  async function planWait(node: ResourceNode): Promise<void> {
    const spec = node.wait!;
    const targetValue = await firstValueFrom(resolver.value(spec.target));
    if (inTarget && !inTarget.has(node)) return publish(node, targetValue);
    const schemaWait = rootTarget(node).definition?.schema?.wait;
    const defaultTimeout = schemaWait?.timeout ?? DEFAULT_WAIT_TIMEOUT;
    const timeoutMs = spec.timeout ?? defaultTimeout;
    const failWhen = spec.failWhen ?? schemaWait?.failWhen;
    const deps = graph.deps.get(node) ?? [];
    // A dependency's step is recorded before its value is published: wait for all of them, or a slow
    // provider diff would make a changing dependency look unchanged (and the wait wrongly not needed).
    await Promise.all(deps.map((d) => firstValueFrom(resolver.value(d))));
    const reasons: string[] = [];
    for (const d of deps) {
      const s = steps.get(d);
      if (s && isChanging(s)) reasons.push(`${d === spec.target ? d.name : `${d.name} (a dependency)`} ${changeVerb(s)}`);
    }
    const known = targetValue.id !== UNKNOWN && !targetValue.restUnknown && targetValue.unknown.size === 0;
    const step: PlanStep = {
      kind: "wait", urn: node.urn, type: node.type, deps: deps.map((d) => d.urn),
      name: node.name, named: spec.named, target: spec.target.urn, subject: spec.subject,
      until: spec.until, untilText: formatPredicate(spec.until, spec.subject),
      timeoutMs, intervalMs: spec.interval ?? schemaWait?.interval ?? DEFAULT_WAIT_INTERVAL, defaultTimeout: timeoutMs === defaultTimeout,
      needed: reasons.length > 0,
      why: reasons.length ? `runs because ${reasons.join(", ")}` : "not needed: nothing it guards changes",
      readyNow: known ? evaluate(spec.until, { id: targetValue.id, ...targetValue.outputs }) : null,
    };
    if (failWhen) {
      step.failWhen = failWhen;
      step.failWhenText = formatPredicate(failWhen, spec.subject);
    }
    if (schemaWait?.reasonAttribute) step.reasonAttribute = schemaWait.reasonAttribute;
    steps.set(node, step);
    publish(node, targetValue);
  }

  async function planNode(node: ResourceNode): Promise<void> {
    if (node.kind === "wait") return planWait(node);
    const def = node.definition!;
    const schemaSecrets = schemaSecretKeys(def.schema);
    const claim = claimed.get(node);
    const priorValue = (p: ResourceState): ResourceValue => ({ id: p.id, outputs: p.outputs, unknown: new Set(), restUnknown: false, secretKeys: new Set([...(p.secretKeys ?? []), ...schemaSecrets]) });

    if (inTarget && !inTarget.has(node)) {
      publish(node, claim ? priorValue(claim.prior) : unknownValue(schemaSecrets));
      return;
    }
    const resolved = await resolveInputs(node.inputs, resolver);
    const depNodes = new Set([...(graph.deps.get(node) ?? []), ...resolved.deps.filter((d) => d !== node)]);
    const base = { urn: node.urn, type: node.type, deps: [...depNodes].map((d) => d.urn) };
    const secretKeys = [...new Set([...resolved.secretKeys, ...schemaSecrets])];
    const secretSet = new Set(secretKeys);

    if (node.kind === "lookup") {
      const id = await resolveKnown(node.lookupId, resolver);
      const upstreamChanging = [...depNodes].some((d) => { const s = steps.get(d); return s !== undefined && isChanging(s); });
      const byId = id !== undefined && (id.value === null || typeof id.value !== "object");
      if (!id || upstreamChanging) {
        steps.set(node, { ...base, kind: "read", id: id && byId ? String(id.value) : "", deferred: true });
        publish(node, unknownValue(secretSet));
        return;
      }
      const found = await readLookup(def, node.urn, id.value, input.opContext(node.urn, undefined, node.provider));
      if (found === undefined) {
        diagnostics.push({ severity: "error", urn: node.urn, message: `Lookup "${node.name}" (${node.type}): nothing matches ${describeLookupKey(id.value)}. Check it, and the region and credentials in use.` });
        publish(node, unknownValue(secretSet));
        return;
      }
      steps.set(node, { ...base, kind: "read", id: found.id, deferred: false });
      publish(node, { id: found.id, outputs: found.outputs, unknown: new Set(), restUnknown: false, secretKeys: secretSet });
      return;
    }

    const prior = claim?.prior;
    const news = withIgnoredChanges(resolved.values, prior?.inputs, node.ignoreChanges);
    const fullyKnown = !containsUnknown(news);
    if (def.provider.check && fullyKnown) {
      for (const d of await def.provider.check({ urn: node.urn, inputs: news })) {
        diagnostics.push({ severity: d.severity, urn: node.urn, message: `"${node.name}" (${node.type})${d.attribute ? `, input "${d.attribute}"` : ""}: ${d.message}` });
      }
    }
    const drifted = input.drifted?.has(node.urn) ?? false;
    const providerDiff =
      prior && !prior.tainted && def.provider.diff && fullyKnown && (drifted || changedKeys(prior.inputs, news).length > 0)
        ? await def.provider.diff({ urn: node.urn, id: prior.id, olds: prior.inputs, news, outputs: prior.outputs })
        : undefined;
    const decision = decide({
      prior,
      news,
      providerDiff,
      forceNew: forceNewKeys(def.schema),
      replaceOnChanges: node.replaceOnChanges,
      deleteBeforeReplace: node.deleteBeforeReplace,
      canUpdate: def.provider.update !== undefined,
      replaceRequested: replaceSet.has(node.urn),
      drifted,
      providerMoved: prior !== undefined && providerMoved(prior.provider, providerRecord(node.provider), def.schema?.providerSettings),
    });
    const meta = metaOf(node, depNodes, graph);
    const moved = claim?.movedFrom ? { movedFrom: claim.movedFrom } : {};
    switch (decision.kind) {
      case "create":
        steps.set(node, { ...base, kind: "create", news, secretKeys, meta });
        publish(node, plannedForCreate(news, secretSet));
        return;
      case "same":
        steps.set(node, { ...base, kind: "same", meta, ...moved });
        publish(node, priorValue(prior!));
        return;
      case "update": {
        steps.set(node, { ...base, kind: "update", id: prior!.id, olds: prior!.inputs, news, outputs: prior!.outputs, changed: decision.changed, secretKeys, meta, ...moved });
        const stable = new Set([
          ...Object.entries(def.schema?.outputs ?? {}).filter(([, a]) => a.stable).map(([k]) => k),
          ...(providerDiff?.kind === "update" ? (providerDiff.stables ?? []) : []),
        ]);
        const outputs: Props = {};
        const unknown = new Set<string>();
        const names = new Set([...Object.keys(prior!.outputs), ...Object.keys(def.schema?.outputs ?? {})]);
        for (const k of names) {
          if (k in news) {
            if (containsUnknown(news[k])) unknown.add(k);
            else outputs[k] = news[k];
          } else if (stable.has(k)) outputs[k] = prior!.outputs[k];
          else unknown.add(k);
        }
        publish(node, { id: prior!.id, outputs, unknown, restUnknown: false, secretKeys: secretSet });
        return;
      }
      case "replace":
        if (prior!.protect || node.protect) {
          diagnostics.push({
            severity: "error",
            urn: node.urn,
            message: `"${node.name}" (${node.urn}) is protected and cannot be replaced` +
              `${decision.replaceKeys.length ? ` (changing ${decision.replaceKeys.join(", ")} forces a replacement)` : ""}. ` +
              "To replace it, first set protect: false in its options and run up, or undo the change.",
          });
        }
        steps.set(node, {
          ...base, kind: "replace", id: prior!.id, olds: prior!.inputs, news, outputs: prior!.outputs,
          changed: decision.changed, replaceKeys: decision.replaceKeys, reason: decision.reason, deleteFirst: decision.deleteFirst,
          secretKeys, meta, ...moved, ...(prior!.provider ? { priorProvider: prior!.provider } : {}),
        });
        publish(node, plannedForCreate(news, secretSet));
        return;
      default: {
        const never: never = decision;
        throw new Error(`unhandled decision ${JSON.stringify(never)}`);
      }
    }
  }

  const settle = async (node: ResourceNode) => {
    try {
      await planNode(node);
    } catch (e) {
      diagnostics.push({ severity: "error", urn: node.urn, message: `Planning "${node.name}" (${node.type}) failed: ${(e as Error).message}` });
      if (!planned.has(node)) publish(node, unknownValue());
    }
  };
  await Promise.all(graph.order.filter((n) => n.kind !== "component").map(settle));
  markWaitsNeededByUsers(graph, steps);

  const ordered: PlanStep[] = [];
  for (const n of graph.order) {
    const s = steps.get(n);
    if (s) ordered.push(s);
  }
  const deletes = planDeletes(state, claimedUrns, ordered, inTarget ? new Set(opts.targets) : undefined, diagnostics);

  const outs = await resolveInputs(input.programOutputs, resolver);
  const plan: Plan = {
    project: input.project,
    stack: input.stack,
    baseSerial: state.serial,
    destroy: false,
    steps: [...ordered, ...deletes],
    outputs: outs.values,
    secretOutputs: outs.secretKeys,
    outputsChanged: !isDeepStrictEqual(outs.values, state.outputs),
    diagnostics,
  };
  return { plan, runtime: { graph, nodeByUrn, programOutputs: input.programOutputs, planned } };
}

/** How a step reads in a wait's "runs because ..." note. */
function changeVerb(s: PlanStep): string {
  switch (s.kind) {
    case "create":
      return "is created";
    case "update":
      return "is updated";
    case "replace":
      return "is replaced";
    case "delete":
      return "is deleted";
    case "read":
      return "is read during apply";
    case "wait":
      return "runs";
    case "same":
      return "is unchanged";
    default: {
      const never: never = s;
      return String(never);
    }
  }
}

/**
 * A wait whose own target did not change still runs when something that uses it changes: that change
 * must not start before the condition holds. Dependents first, so a wait used by a running wait runs too.
 */
function markWaitsNeededByUsers(graph: Graph, steps: Map<ResourceNode, PlanStep>): void {
  const users = new Map<ResourceNode, ResourceNode[]>();
  for (const [n, ds] of graph.deps) {
    for (const d of ds) {
      if (d.kind !== "wait") continue;
      const list = users.get(d);
      if (list) list.push(n);
      else users.set(d, [n]);
    }
  }
  for (let i = graph.order.length - 1; i >= 0; i--) {
    const n = graph.order[i]!;
    const step = steps.get(n);
    if (step?.kind !== "wait" || step.needed) continue;
    for (const u of users.get(n) ?? []) {
      const s = steps.get(u);
      if (s && isChanging(s)) {
        step.needed = true;
        step.why = `runs because ${u.name} uses it and ${changeVerb(s)}`;
        break;
      }
    }
  }
}

/** The targeted resources and everything they depend on, or undefined when not targeting. */
function targetSet(graph: Graph, targets: readonly Urn[] | undefined): Set<ResourceNode> | undefined {
  if (!targets || targets.length === 0) return undefined;
  const byUrn = new Map(graph.order.map((n) => [n.urn as string, n]));
  const out = new Set<ResourceNode>();
  const visit = (n: ResourceNode) => {
    if (out.has(n)) return;
    out.add(n);
    for (const d of graph.deps.get(n) ?? []) visit(d);
  };
  for (const t of targets) {
    const n = byUrn.get(t);
    if (n) visit(n);
  }
  return out;
}

/**
 * Deletes for state entries the program no longer declares (and deposed objects), in reverse dependency
 * order: a resource is deleted only after everything that depended on it is deleted or has moved off it.
 */
export function planDeletes(
  state: StackState,
  claimedUrns: ReadonlySet<string>,
  programSteps: readonly PlanStep[],
  targets: ReadonlySet<string> | undefined,
  diagnostics: PlanDiagnostic[],
): PlanStep[] {
  const gone = Object.values(state.resources).filter((r) => !claimedUrns.has(r.urn) && (!targets || targets.has(r.urn)));
  const goneUrns = new Set(gone.map((r) => r.urn as string));
  // Who depended on each state resource when last applied.
  const dependents = new Map<string, string[]>();
  for (const r of Object.values(state.resources)) {
    for (const d of r.deps) {
      const list = dependents.get(d);
      if (list) list.push(r.urn);
      else dependents.set(d, [r.urn]);
    }
  }
  const changing = new Set(programSteps.filter(isChanging).map((s) => s.urn as string));
  const out: PlanStep[] = [];
  for (const r of reverseDependencyOrder(gone)) {
    if (r.protect && !r.retainOnDelete) {
      diagnostics.push({
        severity: "error",
        urn: r.urn,
        message: `${r.urn} is protected and cannot be deleted. It is no longer in the program: put it back, or set protect: false on it and run up before removing it.`,
      });
    }
    const deps = (dependents.get(r.urn) ?? []).filter((u) => goneUrns.has(u) || changing.has(u)) as Urn[];
    out.push({ kind: "delete", urn: r.urn, type: r.type, id: r.id, olds: r.inputs, outputs: r.outputs, retain: r.retainOnDelete ?? false, deposed: false, secretKeys: r.secretKeys ?? [], deps, ...(r.provider ? { provider: r.provider } : {}) });
  }
  for (const r of Object.values(state.resources)) {
    if (targets && !targets.has(r.urn)) continue;
    for (const d of r.deposed ?? []) {
      out.push({ kind: "delete", urn: r.urn, type: r.type, id: d.id, olds: d.inputs, outputs: d.outputs, retain: false, deposed: true, secretKeys: d.secretKeys ?? [], deps: [], ...((d.provider ?? r.provider) ? { provider: d.provider ?? r.provider } : {}) });
    }
  }
  for (const s of out) {
    if (s.kind === "delete" && !s.retain && !findDefinition(s.type)) {
      diagnostics.push({
        severity: "error",
        urn: s.urn,
        message: `Cannot delete ${s.urn}: no resource type "${s.type}" is defined in this program, so its provider is unknown. Keep importing the module that defines "${s.type}" until its resources are deleted.`,
      });
    }
  }
  return out;
}

/** Dependents before their dependencies. */
function reverseDependencyOrder(resources: ResourceState[]): ResourceState[] {
  const byUrn = new Map(resources.map((r) => [r.urn as string, r]));
  const seen = new Set<string>();
  const order: ResourceState[] = [];
  const visit = (r: ResourceState) => {
    if (seen.has(r.urn)) return;
    seen.add(r.urn);
    for (const d of r.deps) {
      const dep = byUrn.get(d);
      if (dep) visit(dep);
    }
    order.push(r);
  };
  for (const r of resources) visit(r);
  return order.reverse();
}
