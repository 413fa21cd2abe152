import type { Plan } from "./plan.js";
import type { Urn } from "../core/urn.js";
import { reverseEdges } from "../core/reverse-edges.js";
import { actionKind, actionKindOf, stepKindOf, type Action, type ActionKind } from "./steps/index.js";
import { UserError } from "../core/diagnostic.js";

export type { Action, ActionKind } from "./steps/index.js";
export { ACTION_KINDS } from "./steps/index.js";

/**
 * True for the kinds whose handler calls a provider (in a `parallel` slot); waits poll on their own and
 * `forget` only edits state.
 * @example callsProvider("create") // true
 */
export function callsProvider(kind: ActionKind): boolean {
  return actionKind(kind).callsProvider;
}

/**
 * The actions of a plan and, for each (by its index in `actions`, which each action also holds), the indices
 * of the actions that must finish before it starts. Indices, not ids: maps keyed by id
 * cost far more memory an action than arrays of numbers.
 */
export interface ActionGraph {
  actions: Action[];
  deps: number[][];
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
 * @example const { actions, deps } = buildActionGraph(plan); deps[1].map((i) => actions[i].id) // ["urn:…::b#update"]
 */
export function buildActionGraph(plan: Pick<Plan, "steps">): ActionGraph {
  const actions = plan.steps.flatMap((s) => stepKindOf(s).actions(s));
  const ready = new Map<Urn, number>();
  const releasesOf = new Map<string, number[]>(); // URN referenced → actions that let go of it
  const deposedOf = new Map<string, number[]>(); // URN → deletes of its deposed objects
  actions.forEach((a, i) => {
    a.index = i;
    const spec = actionKindOf(a);
    if (spec.deletesDeposed(a)) push(deposedOf, a.step.urn, i);
    if (spec.makesValue) ready.set(a.step.urn, i);
    if (spec.releases && "prior" in a.step) {
      for (const d of a.step.prior.deps) push(releasesOf, d, i);
    }
  });
  let byId: Map<string, number> | undefined; // only a step that orders its own actions by id needs it
  const index: EdgeIndex = { ready, releasesOf, deposedOf, byId: () => (byId ??= new Map(actions.map((x, j) => [x.id, j]))) };
  const deps = actions.map((a, i) => edgesOf(a, i, index));
  const cycle = findCycle(deps);
  if (cycle) {
    throw new UserError(
      `The apply order has a cycle: ${cycle.map((i) => actions[i]!.id).join(" → ")}. The dependencies recorded in state contradict each other (a state edited by hand, or damaged): ` +
        `nothing was changed. Check the "deps" of these resources with \`state show\`, or \`state rollback\` to a version before the edit; if state is as Cairn wrote it, report it with the plan (preview --json).`,
    );
  }
  return { actions, deps };
}

/** Who makes, lets go of and deposes what, by URN: the indices {@link edgesOf} links an action to. */
interface EdgeIndex {
  ready: ReadonlyMap<Urn, number>;
  releasesOf: ReadonlyMap<string, number[]>;
  deposedOf: ReadonlyMap<string, number[]>;
  byId: () => ReadonlyMap<string, number>;
}

/** The indices action `a` (at `i`) waits for, each once; most actions wait for none and share one empty list. */
function edgesOf(a: Action, i: number, x: EdgeIndex): number[] {
  let out: number[] | undefined;
  const edge = (to: number | undefined) => {
    if (to === undefined || to === i) return;
    if (!out) out = [to];
    else if (!out.includes(to)) out.push(to);
  };
  const spec = actionKindOf(a);
  if (spec.makesValue) for (const d of a.step.deps) edge(x.ready.get(d));
  for (const f of spec.follows(a)) edge("id" in f ? x.byId().get(f.id) : x.ready.get(f.valueOf));
  if (spec.deletesObject) for (const r of x.releasesOf.get(a.step.urn) ?? []) edge(r);
  // The record goes with the current object: its deposed objects are deleted (and struck off it) first.
  if (spec.removesRecord(a)) for (const d of x.deposedOf.get(a.step.urn) ?? []) edge(d);
  return out ?? NONE;
}

/** The dependencies of an action that has none: one frozen list, shared. */
const NONE = Object.freeze([]) as unknown as number[];

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}

/**
 * A cycle among nodes `0…deps.length-1` (node `i` waits for `deps[i]`) as the indices along it, the first
 * repeated at the end; or undefined. Kahn's algorithm; what remains is on or behind a cycle.
 *
 * @example findCycle([[1], [2], [0]]) // [0, 1, 2, 0]
 */
export function findCycle(deps: readonly (readonly number[])[]): number[] | undefined {
  const n = deps.length;
  const remaining = new Int32Array(n);
  for (let i = 0; i < n; i++) remaining[i] = deps[i]!.length;
  const { at: usersAt, users } = reverseEdges(deps);
  const queue: number[] = [];
  for (let i = 0; i < n; i++) if (remaining[i] === 0) queue.push(i);
  let done = 0;
  while (queue.length) {
    const i = queue.pop()!;
    done++;
    for (let k = usersAt[i]!; k < usersAt[i + 1]!; k++) if (--remaining[users[k]!]! === 0) queue.push(users[k]!);
  }
  if (done === n) return undefined;
  // Walk dependencies among what remains until one repeats: that is a cycle.
  const path: number[] = [];
  let at = remaining.findIndex((r) => r > 0);
  while (!path.includes(at)) {
    path.push(at);
    at = deps[at]!.find((d) => remaining[d]! > 0)!;
  }
  return [...path.slice(path.indexOf(at)), at];
}
