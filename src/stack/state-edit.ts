import { makeUrn, nameOf, parseUrn, type Urn } from "../core/urn.js";
import type { ResourceState, StackState, StateMutation } from "../state/types.js";
import { CairnError } from "./errors.js";

/**
 * The recorded resource `ref` names: its URN, or its name when exactly one resource has that name.
 * Throws naming the candidates when the name is ambiguous, and how to list URNs when nothing matches.
 *
 * @example findResource(state, "config").urn // "urn:cairn:dev::hello::local:File::config"
 */
export function findResource(state: StackState, ref: string): ResourceState {
  const exact = state.resources[ref];
  if (exact) return exact;
  const byName = Object.values(state.resources).filter((r) => nameOf(r.urn) === ref);
  if (byName.length === 1) return byName[0]!;
  if (byName.length > 1) {
    throw new CairnError(`"${ref}" names ${byName.length} resources of stack "${state.stack}"; give the URN of the one you mean:`, byName.map((r) => r.urn));
  }
  const what = ref.startsWith("urn:") ? `no resource with URN ${ref}` : `no resource named "${ref}"`;
  const count = Object.keys(state.resources).length;
  throw new CairnError(`Stack "${state.stack}" has ${what} (it has ${count} resource${count === 1 ? "" : "s"}): \`state list\` shows their URNs.`);
}


/** Why `r` needs `urn`: it depends on it, one of its deposed objects does, or it is its parent. */
function needs(r: ResourceState, urn: Urn): boolean {
  return r.deps.includes(urn) || r.parent === urn || (r.deposed ?? []).some((d) => d.deps?.includes(urn));
}

/**
 * The recorded resources that depend on `urn` (by a dependency, a deposed object's, or as its parent).
 * @example dependentsOf(state, db.urn).map((r) => r.urn) // [app.urn]
 */
export function dependentsOf(state: StackState, urn: Urn): ResourceState[] {
  return Object.values(state.resources).filter((r) => r.urn !== urn && needs(r, urn));
}

/** What forgetting some resources takes: the state mutations, and what was refused (when not forced). */
export interface ForgetPlan {
  forgotten: ResourceState[];
  /** Dependents whose recorded dependencies on the forgotten resources were dropped (with `force`). */
  rewired: Urn[];
  mutations: StateMutation[];
}

/**
 * Plans forgetting `refs` (URNs or names): removes their records without touching the cloud. Refuses,
 * unless `force`, a resource that another resource outside the set depends on, or that is protected.
 * With `force`, the dependents' records stop pointing at the forgotten ones.
 *
 * @example planForget(state, ["urn:…::cache"], { force: false }).mutations // [{ kind: "remove", urn }]
 */
export function planForget(state: StackState, refs: readonly string[], opts: { force: boolean }): ForgetPlan {
  const forgotten = [...new Map(refs.map((ref) => findResource(state, ref)).map((r) => [r.urn, r])).values()];
  const gone = new Set<Urn>(forgotten.map((r) => r.urn));
  const outside = Object.values(state.resources).filter((r) => !gone.has(r.urn));
  const problems: string[] = [];
  for (const r of forgotten) {
    const users = outside.filter((o) => needs(o, r.urn)).map((o) => o.urn);
    if (users.length) problems.push(`${r.urn} is needed by ${users.join(", ")}: forget those too, or pass --force to forget it anyway (they keep their cloud objects, and stop being ordered after it).`);
    if (r.protect) problems.push(`${r.urn} is protected: \`state unprotect\` it first, or pass --force.`);
  }
  if (problems.length && !opts.force) throw new CairnError(`Nothing was forgotten:`, problems);
  const rewired: ResourceState[] = [];
  for (const o of outside) {
    if (![...gone].some((u) => needs(o, u))) continue;
    rewired.push(rewire(o, (u) => (gone.has(u) ? undefined : u)));
  }
  return {
    forgotten,
    rewired: rewired.map((r) => r.urn),
    mutations: [...forgotten.map((r): StateMutation => ({ kind: "remove", urn: r.urn })), ...rewired.map((r): StateMutation => ({ kind: "upsert", resource: r }))],
  };
}

/** A copy of `r` with every URN it refers to passed through `map` (undefined drops the reference). */
function rewire(r: ResourceState, map: (u: Urn) => Urn | undefined): ResourceState {
  const mapAll = (us: readonly Urn[]) => us.flatMap((u) => map(u) ?? []);
  const out: ResourceState = { ...r, deps: mapAll(r.deps) };
  if (r.parent !== undefined) {
    const p = map(r.parent);
    if (p === undefined) delete out.parent;
    else out.parent = p;
  }
  if (r.deposed) out.deposed = r.deposed.map((d) => (d.deps ? { ...d, deps: mapAll(d.deps) } : d));
  return out;
}

/** One URN change made by a rename. */
export interface Move {
  from: Urn;
  to: Urn;
}

/** What renaming takes: the URN changes (the resource and its descendants) and the state mutations. */
export interface RenamePlan {
  moves: Move[];
  mutations: StateMutation[];
}

/**
 * The URN `to` names for `from`: a bare name keeps the type and parents; a URN must be of this stack
 * and project and keep the type.
 */
function targetUrn(state: StackState, from: ResourceState, to: string): Urn {
  const old = parseUrn(from.urn);
  if (!to.startsWith("urn:")) {
    if (to.length === 0) throw new CairnError(`The new name of ${from.urn} is empty.`);
    checkName(to, from);
    return makeUrn({ ...old, name: to });
  }
  let next;
  try {
    next = parseUrn(to);
  } catch (e) {
    throw new CairnError(`${(e as Error).message}.`);
  }
  if (next.stack !== state.stack || next.project !== state.project) {
    throw new CairnError(`${to} is a URN of stack "${next.stack}" of project "${next.project}", not of stack "${state.stack}" of "${state.project}": state mv renames within one stack.`);
  }
  if (next.type !== old.type) {
    throw new CairnError(`${to} is of type ${next.type}, but ${from.urn} is a ${old.type}: state mv cannot change a resource's type (it would be another kind of object). Delete and re-create it, or import the object as the new type.`);
  }
  checkName(next.name, from);
  return makeUrn(next);
}

/** Refuses a name `program()` would refuse: "::" separates a URN's parts, and control characters cannot be typed back. */
function checkName(name: string, from: ResourceState): void {
  if (!name.includes("::") && !/[\u0000-\u001f\u007f]/.test(name)) return;
  throw new CairnError(`The new name ${JSON.stringify(name)} of ${from.urn} cannot contain "::" or control characters (they would break its URN, and the program could never declare it): nothing was renamed. Use letters, digits and - _ . / : @ etc.`);
}

/**
 * Plans renaming the recorded resource `ref` to `to` (a new name, or a whole URN to move it under other
 * parents), keeping its cloud object. Every record pointing at a renamed URN (dependencies, parent) is
 * rewritten; its descendants move with it when its parents change. `declared` maps the URNs the program
 * declares to their parent's URN (undefined: at the top): the moved record takes its new parent from
 * there; otherwise it keeps its parent while the parent types stay, and drops it when they change (the
 * next up records it).
 *
 * @example planRename(state, "old-name", "new-name").moves // [{ from: "urn:…::old-name", to: "urn:…::new-name" }]
 */
export function planRename(state: StackState, ref: string, to: string, declared: ReadonlyMap<Urn, Urn | undefined> = new Map()): RenamePlan {
  const from = findResource(state, ref);
  const target = targetUrn(state, from, to);
  if (target === from.urn) throw new CairnError(`${from.urn} already has that URN: nothing to rename.`);
  const moves = descendantMoves(state, from, target);
  const moving = new Map(moves.map((m) => [m.from, m.to]));
  const taken = moves.filter((m) => state.resources[m.to] && !moving.has(m.to)).map((m) => `${m.to} is already in state (id ${state.resources[m.to]!.id})`);
  if (taken.length) throw new CairnError(`Nothing was renamed:`, [...taken, "`state rm` the other record first if it is stale, or choose another name."]);
  const mutations: StateMutation[] = moves.map((m) => ({ kind: "remove", urn: m.from }));
  for (const r of Object.values(state.resources)) {
    const moved = rewire({ ...r, urn: moving.get(r.urn) ?? r.urn }, (u) => moving.get(u) ?? u);
    if (r.urn === from.urn) setParent(moved, from, target, declared);
    if (moving.has(r.urn) || JSON.stringify(moved) !== JSON.stringify(r)) mutations.push({ kind: "upsert", resource: moved });
  }
  return { moves, mutations };
}

/** The record's parent after a move: the program's, else the old one while the parent types stay. */
function setParent(r: ResourceState, from: ResourceState, target: Urn, declared: ReadonlyMap<Urn, Urn | undefined>): void {
  const samePath = parseUrn(from.urn).parentTypes.join("$") === parseUrn(target).parentTypes.join("$");
  const parent = declared.has(target) ? declared.get(target) : samePath ? r.parent : undefined;
  if (parent === undefined) delete r.parent;
  else r.parent = parent;
}

/**
 * `from` moved to `target`, and each recorded descendant (by `parent`) with it: their URNs carry the
 * moved resource's type path, so they change when its parents do.
 */
function descendantMoves(state: StackState, from: ResourceState, target: Urn): Move[] {
  const moves: Move[] = [{ from: from.urn, to: target }];
  const oldPath = [...parseUrn(from.urn).parentTypes, parseUrn(from.urn).type];
  const newPath = [...parseUrn(target).parentTypes, parseUrn(target).type];
  if (oldPath.join("$") === newPath.join("$")) return moves;
  const queue = [from.urn];
  while (queue.length) {
    const p = queue.shift()!;
    for (const child of Object.values(state.resources).filter((r) => r.parent === p)) {
      const parts = parseUrn(child.urn);
      if (parts.parentTypes.slice(0, oldPath.length).join("$") !== oldPath.join("$")) continue; // not nested by type: its URN does not change
      moves.push({ from: child.urn, to: makeUrn({ ...parts, parentTypes: [...newPath, ...parts.parentTypes.slice(oldPath.length)] }) });
      queue.push(child.urn);
    }
  }
  return moves;
}

/** What importing an object takes: its new record. */
export interface ImportPlan {
  record: ResourceState;
  mutations: StateMutation[];
}

/** What unprotecting takes: nothing when the resource was not protected. */
export interface UnprotectPlan {
  resource: ResourceState;
  mutations: StateMutation[];
}

/**
 * What a state command did: its plan, whether it was applied (not when declined or when there was
 * nothing to change), and the stored version from before the change, which `state rollback` restores.
 */
export type StateEdit<P> = P & {
  applied: boolean;
  /** The version the state had before the change (kept in `state history`). */
  previousVersion?: number;
  /** The version the change was written as. */
  version?: number;
};
