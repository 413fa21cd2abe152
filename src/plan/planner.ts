import { isDeepStrictEqual } from "node:util";
import type { Graph } from "../graph/graph.js";
import type { GraphNode } from "../program/node.js";
import { NodeTable } from "../program/node-table.js";
import type { Urn } from "../core/urn.js";
import { runUnusedApplies, markReported } from "./unused-applies.js";
import { outputProblems } from "../runtime/json-values.js";
import { buildActionGraph } from "./actions.js";
import { deletesOrReplaces } from "./steps/index.js";
import type { PlanBody, PlanDiagnostic, PlanStep } from "./plan.js";
import { resolveStackOutputs } from "../runtime/stack-output-values.js";
import { ValueResolver, unknownValue } from "../runtime/values.js";
import type { Forced, PlanContext, PlanInput, PlanOptions } from "./context.js";
import { claimResources } from "./claims.js";
import { planCustom } from "./plan-custom.js";
import { planLookup } from "./plan-lookup.js";
import { planWait, explainByUsers, outputNotes, waitsNeededByUsers } from "./plan-wait.js";
import { checkDeleteProviders, planDeletes } from "./deletes.js";
import { isStateful } from "./data-loss.js";
import { cascadeDeleteFirst } from "./cascade.js";
import { StallWatch } from "./stall.js";
import { thrownMessage } from "../core/thrown.js";
import { Diagnostics } from "../core/diagnostic.js";
import { addNode } from "../graph/graph.js";
import { Deferrals, deferredParts, keepReferencedOld, keptForLater } from "./deferral.js";

export type { PlanInput, PlanOptions } from "./context.js";

/** Adds a targeted node declared while planning, with everything it depends on. */
function addTargeted(into: Set<GraphNode>, graph: Graph, node: GraphNode): void {
  if (into.has(node)) return;
  into.add(node);
  for (const d of graph.deps.get(node) ?? []) addTargeted(into, graph, d);
}

/** The targeted resources and everything they depend on, or undefined when not targeting. */
function targetSet(graph: Graph, targets: readonly Urn[] | undefined): Set<GraphNode> | undefined {
  if (!targets || targets.length === 0) return undefined;
  const byUrn = new Map(graph.order.map((n) => [n.urn as string, n]));
  const out = new Set<GraphNode>();
  const visit = (n: GraphNode) => {
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

/** Checks `--target` and `--replace` name something; each mistake is one diagnostic. */
function checkNamedUrns(input: PlanInput, opts: PlanOptions, diagnostics: PlanDiagnostic[]): void {
  if (!opts.replace?.length && !opts.targets?.length) return;
  const inProgram = new Set<string>(input.graph.order.map((n) => n.urn));
  for (const u of opts.replace ?? []) {
    if (!inProgram.has(u)) diagnostics.push({ severity: "error", summary: `--replace ${u}: no resource with this URN in the program. Run \`state list\` to see the URNs.` });
  }
  for (const u of opts.targets ?? []) {
    if (!inProgram.has(u) && !input.state.resources[u]) diagnostics.push({ severity: "error", summary: `--target ${u}: no resource with this URN in the program or in state, so nothing would be done. Run \`state list\` to see the URNs.` });
  }
}

/**
 * Plans one node, whatever its kind: at once when it can (then nothing is returned), else a promise that
 * settles when it is planned. A failure becomes a diagnostic and an unknown value; the promise never rejects.
 */
function planNode(node: GraphNode, ctx: PlanContext): Promise<void> | void {
  try {
    const running = node.kind === "custom" ? planCustom(node, ctx) : node.kind === "lookup" ? planLookup(node, ctx) : planWait(node, ctx);
    if (running) return running.catch((e: unknown) => planFailed(node, e, ctx));
  } catch (e) {
    planFailed(node, e, ctx);
  }
}

/** Reports a node whose planning failed, and gives it an unknown value (what uses it is still planned). */
function planFailed(node: GraphNode, e: unknown, ctx: PlanContext): void {
  markReported(e);
  ctx.diagnostics.push({ severity: "error", urn: node.urn, summary: `Planning "${node.name}" (${node.type}) failed: ${thrownMessage(e, `the provider of ${node.type}`)}` });
  ctx.publish(node, unknownValue());
}

/**
 * One planning pass: every node planned concurrently, each as soon as the values it reads are published.
 * Nodes that `apply` callbacks declare on the way (on values known while planning) join the graph and are
 * planned in the same pass; then the callbacks nothing used run, and what they declare is planned too.
 */
async function planPass(input: PlanInput, opts: PlanOptions, forced: Forced, memo: Map<string, Promise<unknown>>): Promise<PlanContext> {
  const watch = new StallWatch();
  const deferrals = new Deferrals();
  const resolver = new ValueResolver(() => watch.poke(), deferrals.hooks(), input.graph.order.length);
  const ctx: PlanContext = {
    input, resolver, memo, forced, deferrals,
    steps: new NodeTable(input.graph.order.length),
    diagnostics: [],
    claimed: claimResources(input.graph, input.state),
    inTarget: targetSet(input.graph, opts.targets),
    replaceSet: new Set(opts.replace ?? []),
    publish: (node, value) => resolver.publish(node, value),
  };
  const planOne = (n: GraphNode) => planNode(n, ctx);
  const stop = input.growth?.listen((node) => {
    const added = addNode(input.graph, node);
    if (!added) return;
    if (ctx.inTarget && opts.targets?.includes(added.urn)) addTargeted(ctx.inTarget, input.graph, added);
    if (node.kind === "custom" && input.state.resources[node.urn]) ctx.claimed.claim(node, { prior: input.state.resources[node.urn]! });
    watch.add(added, planOne);
  });
  try {
    await watch.run(ctx, [...input.graph.order], planOne, input.stuck);
    for (;;) {
      const before = input.graph.order.length;
      const applies = input.applies?.length ?? 0;
      if (applies) await runUnusedApplies(input.applies!, ctx.resolver, ctx.diagnostics);
      // Callbacks may have declared nodes, or made applies of their own: those run too.
      if (input.graph.order.length === before && (input.applies?.length ?? 0) === applies) break;
      await watch.run(ctx, [], planOne, input.stuck); // what those callbacks declared
    }
  } finally {
    stop?.();
  }
  // Checked at the end: a target may be a resource a callback declared on the way.
  checkNamedUrns(input, opts, ctx.diagnostics);
  return ctx;
}

/** What an earlier pass learned that changes the plan: waits that run for their users, delete-first chains. */
function nextForced(ctx: PlanContext): Forced | undefined {
  const waits = [...waitsNeededByUsers(ctx.input.graph, ctx.steps)].filter(([w]) => !ctx.forced.waits.has(w.urn));
  const cascade = cascadeDeleteFirst(ctx.steps, ctx.input.state, ctx.forced.replace, ctx.inTarget);
  ctx.diagnostics.push(...cascade.errors);
  if (waits.length === 0 && cascade.add.size === 0) return undefined;
  return { waits: new Map([...ctx.forced.waits, ...waits.map(([w, why]) => [w.urn, why] as const)]), replace: new Map([...ctx.forced.replace, ...cascade.add]) };
}

/**
 * Walks the graph against the prior state and decides a step per node; then plans deletes for what the
 * program no longer declares. Planning is repeated (with provider answers reused) when a pass finds that
 * waits must run for their users, or that delete-first replaces must take their dependents along: each
 * pass only adds to those sets, so it ends. Errors are collected as diagnostics (each once), not thrown.
 * Returns what planning decided (a {@link PlanBody}): the stack adds its head with `newPlan`.
 *
 * @example const body = await planProgram({ graph, programOutputs, state, read, providers });
 */
export async function planProgram(input: PlanInput, opts: PlanOptions = {}): Promise<PlanBody> {
  let forced: Forced = { replace: new Map(), waits: new Map() };
  const memo = new Map<string, Promise<unknown>>();
  for (;;) {
    const ctx = await planPass(input, opts, forced, memo);
    const next = nextForced(ctx);
    if (!next || ctx.diagnostics.some((d) => d.severity === "error")) {
      explainByUsers(input.graph, ctx.steps);
      return assemble(ctx, opts);
    }
    forced = next;
  }
}

/**
 * The diagnostics, each once (by key: see {@link Diagnostics}), each about a program node given the site
 * where the program declared it: in one place for every kind of diagnostic, so printers name the line once.
 */
function nameSites(diagnostics: PlanDiagnostic[], graph: Graph): PlanDiagnostic[] {
  const byUrn = diagnostics.some((d) => d.urn && !d.site) ? new Map<string, GraphNode>(graph.order.map((n) => [n.urn, n])) : undefined;
  const once = new Diagnostics();
  for (const d of diagnostics) {
    const site = d.urn && !d.site ? byUrn?.get(d.urn)?.site : undefined;
    once.add(site ? { ...d, site } : d);
  }
  return [...once];
}

/** What a finished pass decided: program steps in graph order, then deletes; stack outputs; checks. */
async function assemble(ctx: PlanContext, opts: PlanOptions): Promise<PlanBody> {
  const { input, diagnostics } = ctx;
  const ordered: PlanStep[] = [];
  const order = input.graph.order;
  for (let i = 0; i < order.length; i++) {
    const n = order[i]!;
    const s = ctx.steps.get(n);
    if (!s) continue;
    if (n.site) s.site = n.site;
    ordered.push(s);
  }
  const claimed = (urn: string) => ctx.claimed.hasUrn(urn);
  const kept = keptForLater(input.state, claimed, ctx.deferrals.unknownOn);
  const keptUrns = new Set<string>(kept.map((r) => r.urn));
  keepReferencedOld(ordered, kept);
  const stateful = (type: string) => isStateful(input.schemaOf?.(type));
  const deletes = planDeletes(input.state, keptUrns.size ? (urn: string) => claimed(urn) || keptUrns.has(urn) : claimed, ctx.inTarget ? new Set(opts.targets) : undefined, diagnostics, stateful);
  checkDeleteProviders(deletes, (t, urn) => input.providers(t, urn) !== undefined, diagnostics);
  const steps = deletes.length ? [...ordered, ...deletes] : ordered;
  // Only deletes add edges that could close a cycle (the program graph itself has none): check those plans.
  if (steps.some(deletesOrReplaces)) {
    try {
      buildActionGraph({ steps });
    } catch (e) {
      diagnostics.push({ severity: "error", summary: (e as Error).message });
    }
  }
  const outs = await resolveStackOutputs(input.programOutputs, ctx.resolver);
  for (const message of outputProblems(outs.values).values()) diagnostics.push({ severity: "error", summary: message });
  diagnostics.splice(0, diagnostics.length, ...nameSites(diagnostics, input.graph));
  const deferred = deferredParts(ctx.deferrals, kept);
  const unforeseen = [...ctx.deferrals.unforeseen];
  const notes = await outputNotes(input.programOutputs, ctx.resolver, outs.values, ctx.steps, input.graph);
  return {
    steps,
    outputs: outs.values,
    secretOutputs: outs.secretKeys,
    outputsChanged: !isDeepStrictEqual(outs.values, input.state.outputs),
    outputNotes: notes,
    diagnostics,
    deferred,
    unforeseen,
    ...(opts.targets ? { targets: [...opts.targets] } : {}),
  };
}
