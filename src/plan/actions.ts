import type { PlanStep, Plan } from "./plan.js";
import type { Urn } from "../core/urn.js";
import { everyMember } from "../core/every-member.js";

type StepOf<K extends PlanStep["kind"]> = Extract<PlanStep, { kind: K }>;

/**
 * One unit of work of an apply. A plan step becomes zero, one or two actions: a replace is two (the
 * replacement's create, `replace`, and the old object's delete, `delete-replaced`), in the order its
 * `deleteFirst` says; `same` steps, eager reads and waits that are not needed are none.
 */
export type Action =
  | { id: string; kind: "create"; step: StepOf<"create"> }
  | { id: string; kind: "update"; step: StepOf<"update"> }
  | { id: string; kind: "replace"; step: StepOf<"replace"> }
  | { id: string; kind: "delete-replaced"; step: StepOf<"replace"> }
  | { id: string; kind: "delete"; step: StepOf<"delete"> }
  | { id: string; kind: "forget"; step: StepOf<"delete"> }
  | { id: string; kind: "read"; step: StepOf<"read"> }
  | { id: string; kind: "wait"; step: StepOf<"wait"> };

/** An action as the scheduler runs it (waits mostly sleep, so they take no `parallel` slot). */
export interface ActionJob {
  id: string;
  slot: boolean;
  action: Action;
}

/** The kinds of action (they name apply events: `step-started` of kind `delete-replaced`, …). */
export type ActionKind = Action["kind"];

/**
 * True for the kinds whose handler calls a provider (in a `parallel` slot); waits poll on their own and
 * `forget` only edits state.
 * @example callsProvider("create") // true
 */
export function callsProvider(kind: ActionKind): boolean {
  switch (kind) {
    case "create":
    case "update":
    case "replace":
    case "delete-replaced":
    case "delete":
    case "read":
      return true;
    case "forget":
    case "wait":
      return false;
    default: {
      const never: never = kind;
      throw new Error(`unhandled action kind ${String(never)}`);
    }
  }
}

/** Every action kind, for exhaustiveness tests and summaries. */
export const ACTION_KINDS = everyMember<ActionKind>()(["create", "update", "replace", "delete-replaced", "delete", "forget", "read", "wait"]);

/** The actions of a plan and, for each, the ids of the actions that must finish before it starts. */
export interface ActionGraph {
  actions: Action[];
  deps: Map<string, string[]>;
}

/** The actions one step becomes. */
function actionsOf(step: PlanStep): Action[] {
  const id = (suffix: string) => `${step.urn}#${suffix}`;
  switch (step.kind) {
    case "create":
      return [{ id: id("create"), kind: "create", step }];
    case "update":
      return [{ id: id("update"), kind: "update", step }];
    case "replace":
      // keepOld: the old object stays deposed, for the plan of a later round to delete.
      if (step.keepOld) return [{ id: id("replace"), kind: "replace", step }];
      return [
        { id: id("replace"), kind: "replace", step },
        { id: id("delete-replaced"), kind: "delete-replaced", step },
      ];
    case "delete": {
      const suffix = step.deposed ? `deposed:${step.id}` : "delete";
      return [step.retain ? { id: id(suffix), kind: "forget", step } : { id: id(suffix), kind: "delete", step }];
    }
    case "read":
      return step.deferred ? [{ id: id("read"), kind: "read", step }] : [];
    case "wait":
      return step.needed ? [{ id: id("wait"), kind: "wait", step }] : [];
    case "same":
      return [];
    default: {
      const never: never = step;
      throw new Error(`unhandled step ${JSON.stringify(never)}`);
    }
  }
}

/** True for actions after which the node's new value is known (its dependents may start). */
function makesValue(a: Action): boolean {
  return a.kind === "create" || a.kind === "update" || a.kind === "replace" || a.kind === "read" || a.kind === "wait";
}

/** The action after which a step's old object no longer references anything (it was updated or deleted). */
function releaseOf(a: Action): boolean {
  return a.kind === "update" || a.kind === "delete-replaced" || a.kind === "delete" || a.kind === "forget";
}

/** True for actions that delete a resource's current object, and with it its state record. */
function removesRecord(a: Action): boolean {
  return (a.kind === "delete" && !a.step.deposed) || (a.kind === "delete-replaced" && a.step.deleteFirst);
}

/** True for actions that delete an object from the cloud. */
function deletesObject(a: Action): boolean {
  return a.kind === "delete" || a.kind === "delete-replaced";
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
  const actions = plan.steps.flatMap(actionsOf);
  const ready = new Map<Urn, Action>();
  const releasesOf = new Map<string, Action[]>(); // URN referenced → actions that let go of it
  const deposedOf = new Map<string, Action[]>(); // URN → deletes of its deposed objects
  for (const a of actions) {
    if (a.kind === "delete" && a.step.deposed) push(deposedOf, a.step.urn, a);
    if (makesValue(a)) ready.set(a.step.urn, a);
    if (releaseOf(a) && "prior" in a.step) {
      for (const d of a.step.prior.deps) push(releasesOf, d, a);
    }
  }
  const byId = new Map(actions.map((a) => [a.id, a]));
  const deps = new Map<string, string[]>(actions.map((a) => [a.id, []]));
  const edge = (from: Action, to: Action | undefined) => {
    if (to && to !== from && !deps.get(from.id)!.includes(to.id)) deps.get(from.id)!.push(to.id);
  };
  for (const a of actions) {
    if (makesValue(a)) for (const d of a.step.deps) edge(a, ready.get(d));
    if (a.kind === "replace" && a.step.deleteFirst) edge(a, byId.get(`${a.step.urn}#delete-replaced`));
    if (a.kind === "delete-replaced" && !a.step.deleteFirst) edge(a, ready.get(a.step.urn));
    if (deletesObject(a)) for (const r of releasesOf.get(a.step.urn) ?? []) edge(a, r);
    // The record goes with the current object: its deposed objects are deleted (and struck off it) first.
    if (removesRecord(a)) for (const d of deposedOf.get(a.step.urn) ?? []) edge(a, d);
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
