import type { Resolvable } from "../program/resolver.js";
import type { Graph } from "../graph/graph.js";
import type { CustomNode, GraphNode, LookupNode, ResourceNode } from "../program/node.js";
import type { NodeTable } from "../program/node-table.js";
import type { Deferrals } from "./deferral.js";
import type { Claims } from "./claims.js";
import type { Urn } from "../core/urn.js";
import { providerRecord } from "../provider/instance.js";
import type { ProviderSource } from "../program/registry.js";
import type { Provider } from "../provider/provider.js";
import type { ResourceState, StackState } from "../state/types.js";
import type { PlanDiagnostic, PlanStep, PriorObject, StepMeta } from "./plan.js";
import type { ValueResolver, ResourceValue } from "../runtime/values.js";
import type { ReadRunner } from "../runtime/bounded-read.js";
import type { AutoNaming } from "./auto-names.js";
import type { ResourceSchema } from "../provider/schema.js";

/** Single-run planning options (the CLI's `--target`, `--replace`, `--refresh`, `--refresh-only`). */
export interface PlanOptions {
  /** Plan only these resources and what they depend on. */
  targets?: readonly Urn[];
  /** Replace these resources even if nothing changed. */
  replace?: readonly Urn[];
}

/** What the planner needs: the evaluated graph, the prior state and a way to call providers. */
export interface PlanInput {
  graph: Graph;
  /** The program's returned stack outputs (raw inputs). */
  programOutputs: Record<string, unknown>;
  state: StackState;
  /** Makes a provider read (a lookup, an import), bounded and retried. */
  read: ReadRunner;
  /** Where providers come from (definitions, or a test's mocks). */
  providers: ProviderSource;
  /** Aborted when nothing is left to run yet planning has not finished (the process would go idle). */
  stuck?: AbortSignal;
  /** The outputs the program made with `apply`: those nothing used run at the end of planning. */
  applies?: readonly Resolvable[];
  /**
   * The evaluation, to hear of nodes its `apply` callbacks declare while planning (they are added to
   * `graph` and planned in the same pass).
   */
  growth?: { listen(listener: (node: ResourceNode) => void): () => void };
  /** How objects whose type names them are named when the program gives no name; absent: never named. */
  autoNames?: AutoNaming;
  /**
   * The schema of a type, for objects the program no longer declares (is their delete a loss of data?);
   * absent: none is known, and no delete is marked.
   */
  schemaOf?: (type: string) => ResourceSchema | undefined;
}

/** Decisions carried from one planning pass to the next (see {@link planProgram}). */
export interface Forced {
  /** Resources to replace delete-first, each with the URN of the dependency deleted first. */
  replace: Map<Urn, Urn>;
  /** Waits that run because something using them changes, with why (their values become "known after apply"). */
  waits: Map<Urn, string>;
}

/** Everything one planning pass shares between the nodes it plans. */
export interface PlanContext {
  input: PlanInput;
  resolver: ValueResolver;
  steps: NodeTable<PlanStep, GraphNode>;
  diagnostics: PlanDiagnostic[];
  /** The records program resources take over (see `claimResources`). */
  claimed: Claims;
  /** Nodes inside `--target` (undefined: no targeting). */
  inTarget: Set<GraphNode> | undefined;
  replaceSet: ReadonlySet<string>;
  forced: Forced;
  /** Provider answers (check, diff, lookups) kept across passes, so a second pass calls nothing twice. */
  memo: Map<string, Promise<unknown>>;
  /** What this pass leaves for a later round. */
  deferrals: Deferrals;
  publish(node: GraphNode, value: ResourceValue): void;
}

/** Calls `f` once per key across planning passes. */
export function memoized<T>(ctx: PlanContext, key: string, f: () => Promise<T>): Promise<T> {
  let p = ctx.memo.get(key) as Promise<T> | undefined;
  if (!p) {
    p = f();
    ctx.memo.set(key, p);
  }
  return p;
}

/** The dependencies recorded of a resource that has none: one frozen list (10,000 empty arrays were kept otherwise). */
const NO_URNS = Object.freeze([]) as unknown as Urn[];

/** Dependencies as state records them: a wait is replaced by what it waits on (waits never appear in state). */
export function stateDeps(deps: Iterable<GraphNode>, graph: Graph): Urn[] {
  const list = Array.isArray(deps) ? (deps as readonly GraphNode[]) : [...deps];
  if (list.length === 0) return NO_URNS;
  if (!list.some((d) => d.kind === "wait")) return list.map((d) => d.urn);
  const out = new Set<Urn>();
  const visit = (d: GraphNode) => {
    if (d.kind !== "wait") return void out.add(d.urn);
    for (const x of graph.deps.get(d) ?? []) visit(x);
  };
  for (const d of list) visit(d);
  return [...out];
}

/** The state-only facts of a resource's new record. */
export function metaOf(node: CustomNode, deps: Iterable<GraphNode>, graph: Graph, triggers: string | undefined): StepMeta {
  const o = node.options;
  const m: StepMeta = { deps: stateDeps(deps, graph), protect: o.protect, retainOnDelete: o.retainOnDelete };
  if (node.parent) m.parent = node.parent.urn;
  const provider = providerRecord(node.provider);
  if (provider) m.provider = provider;
  if (hasKeys(o.customTimeouts)) m.timeouts = { ...o.customTimeouts };
  if (triggers !== undefined) m.triggers = triggers;
  if (node.declaredIn) m.declaredIn = node.declaredIn;
  return m;
}

/** True when `o` has an own key (without listing them: nearly every resource's timeouts are the shared empty object). */
function hasKeys(o: object): boolean {
  for (const k in o) if (Object.hasOwn(o, k)) return true;
  return false;
}

/** What the plan needs of a recorded object to delete it in order and where it lives. */
export function priorOf(r: { deps?: Urn[]; provider?: ResourceState["provider"]; timeouts?: ResourceState["timeouts"] }): PriorObject {
  const p: PriorObject = { deps: r.deps ?? [] };
  if (r.provider) p.provider = r.provider;
  if (r.timeouts) p.timeouts = r.timeouts;
  return p;
}

/** The provider of a program node (a test's mock, or its type's). */
export function providerOf(ctx: PlanContext, node: CustomNode | LookupNode): Provider<any, any, any> {
  const p = ctx.input.providers(node.type, node.urn, node.definition);
  if (!p) throw new Error(`no provider for ${node.type}`);
  return p;
}
