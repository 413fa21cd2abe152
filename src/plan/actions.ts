import type { Plan } from "./plan.js";
import type { Urn } from "../core/urn.js";
import { actionKind, actionKindOf, stepKindOf, type Action, type ActionKind } from "./steps/index.js";

export type { Action, ActionKind } from "./steps/index.js";
export { ACTION_KINDS } from "./steps/index.js";

/** An action as the scheduler runs it (waits mostly sleep, so they take no `parallel` slot). */
export interface ActionJob {
  id: string;
  slot: boolean;
  action: Action;
}

/**
 * True for the kinds whose handler calls a provider (in a `parallel` slot); waits poll on their own and
 * `forget` only edits state.
 * @example callsProvider("create") // true
 */
export function callsProvider(kind: ActionKind): boolean {
  return actionKind(kind).callsProvider;
}

/** The actions of a plan and, for each, the ids of the actions that must finish before it starts. */
export interface ActionGraph {
  actions: Action[];
  deps: Map<string, string[]>;
}

/**
 * Turns a plan into actions and the edges between them. Ordering is a property of this graph, so the
 * scheduler needs no special cases:
 *
 * 1. A new or changed object is made after the objects it depends on are ready (forward edges).
 * 2. A replace creates first and deletes the old object after (`deleteFirst`: the other way round).
 * 3. An object is deleted only after every recorded object that references it lets go: its old version
 *    is updated, deleted, or (for a replaced one) its old half deleted. Deposed objects count, with the
 *    dependencies they had.
 * 4. A resource's deposed objects are deleted before its current object is (its record goes with it).
 *
 * Throws if the edges form a cycle (the planner prevents that by replacing delete-first chains whole).
 *
 * @example const { actions, deps } = buildActionGraph(plan); deps.get("urn:…::a#delete-replaced") // ["urn:…::b#update"]
 */
export function buildActionGraph(plan: Pick<Plan, "steps">): ActionGraph {
  const actions = plan.steps.flatMap((s) => stepKindOf(s).actions(s));
  const ready = new Map<Urn, Action>();
  const releasesOf = new Map<string, Action[]>(); // URN referenced → actions that let go of it
  const deposedOf = new Map<string, Action[]>(); // URN → deletes of its deposed objects
  for (const a of actions) {
    const spec = actionKindOf(a);
    if (spec.deletesDeposed(a)) push(deposedOf, a.step.urn, a);
    if (spec.makesValue) ready.set(a.step.urn, a);
    if (spec.releases && "prior" in a.step) {
      for (const d of a.step.prior.deps) push(releasesOf, d, a);
    }
  }
  const byId = new Map(actions.map((a) => [a.id, a]));
  const deps = new Map<string, string[]>(actions.map((a) => [a.id, []]));
  const edge = (from: Action, to: Action | undefined) => {
    if (to && to !== from && !deps.get(from.id)!.includes(to.id)) deps.get(from.id)!.push(to.id);
  };
  for (const a of actions) {
    const spec = actionKindOf(a);
    if (spec.makesValue) for (const d of a.step.deps) edge(a, ready.get(d));
    for (const f of spec.follows(a)) edge(a, "id" in f ? byId.get(f.id) : ready.get(f.valueOf));
    if (spec.deletesObject) for (const r of releasesOf.get(a.step.urn) ?? []) edge(a, r);
    // The record goes with the current object: its deposed objects are deleted (and struck off it) first.
    if (spec.removesRecord(a)) for (const d of deposedOf.get(a.step.urn) ?? []) edge(a, d);
  }
  const cycle = findCycle(actions, deps);
  if (cycle) {
    throw new Error(
      `The apply order has a cycle: ${cycle.join(" → ")}. The dependencies recorded in state contradict each other (a state edited by hand, or damaged): ` +
        `nothing was changed. Check the "deps" of these resources with \`state show\`, or \`state rollback\` to a version before the edit; if state is as Cairn wrote it, report it with the plan (preview --json).`,
    );
  }
  return { actions, deps };
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}

/** A cycle of action ids, or undefined (Kahn's algorithm; what remains is on or behind a cycle). */
export function findCycle(actions: readonly { id: string }[], deps: ReadonlyMap<string, readonly string[]>): string[] | undefined {
  const remaining = new Map(actions.map((a) => [a.id, deps.get(a.id)?.length ?? 0]));
  const users = new Map<string, string[]>();
  for (const [id, ds] of deps) for (const d of ds) push(users, d, id);
  const queue = [...remaining].filter(([, n]) => n === 0).map(([id]) => id);
  while (queue.length) {
    const id = queue.pop()!;
    remaining.delete(id);
    for (const u of users.get(id) ?? []) {
      const n = remaining.get(u)! - 1;
      remaining.set(u, n);
      if (n === 0) queue.push(u);
    }
  }
  if (remaining.size === 0) return undefined;
  // Walk dependencies among what remains until one repeats: that is a cycle.
  const path: string[] = [];
  let at = remaining.keys().next().value as string;
  while (!path.includes(at)) {
    path.push(at);
    at = deps.get(at)!.find((d) => remaining.has(d))!;
  }
  return [...path.slice(path.indexOf(at)), at];
}
