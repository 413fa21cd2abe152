import { ReplaySubject, map, of, type Observable } from "rxjs";
import { newResolverId, type ValueState, type Resolver } from "../program/output.js";
import type { Deferral, PlanningHooks } from "../program/deferral/deferral.js";
import type { ResourceNode } from "../program/node.js";
import { NodeTable } from "../program/node-table.js";
import type { Props } from "../state/types.js";
import { UNKNOWN } from "../core/unknown.js";

/** A resource's attribute values in one phase: some may be unknown while planning. */
export interface ResourceValue {
  /** The cloud id, or UNKNOWN before creation. */
  id: unknown;
  outputs: Props;
  /** Attributes without a value yet. */
  unknown: ReadonlySet<string>;
  /** Attributes not in `outputs` are unknown too (a resource still to be created), rather than absent. */
  restUnknown: boolean;
  secretKeys: ReadonlySet<string>;
  /** Set for a node deferred to the next round of `up`: whatever reads it is deferred too. */
  deferred?: readonly Deferral[];
  /** What is known already of attributes still unknown (unknown parts as `UNKNOWN`), by name. */
  partial?: Props;
}

/** The empty set of attribute names values share (read, never changed: one per resource would be 10,000 of them). */
export const NO_KEYS: ReadonlySet<string> = new Set();

/** A value where nothing is known yet (a resource being created, or one whose step failed). */
export function unknownValue(secretKeys: ReadonlySet<string> = NO_KEYS): ResourceValue {
  return { id: UNKNOWN, outputs: {}, unknown: NO_KEYS, restUnknown: true, secretKeys };
}

/** A fully known value (a resource as recorded, or as a provider call just returned it). */
export function knownValue(id: unknown, outputs: Props, secretKeys: ReadonlySet<string>): ResourceValue {
  return { id, outputs, unknown: NO_KEYS, restUnknown: false, secretKeys };
}

/**
 * A resolver for one consumer (a node being planned, an action being applied) that remembers which
 * nodes it is waiting for: the planner and the executor use it to tell a stall ("a waits for b, b waits
 * for a") from slow work, and to name what is stuck.
 */
export interface ScopedResolver extends Resolver {
  /** Nodes this consumer subscribed to that have not published yet. */
  readonly awaiting: ReadonlySet<ResourceNode>;
  /** A node's whole published value. */
  value(node: ResourceNode): Observable<ResourceValue>;
}

/**
 * Answers attribute lookups from values published per resource as the phase proceeds
 * (planner: planned values; executor: real outputs as steps finish).
 */
export class ValueResolver implements Resolver {
  private readonly subjects = new Map<ResourceNode, ReplaySubject<ResourceValue>>();
  private readonly published: NodeTable<ResourceValue>;
  /** The scopes waiting for each unpublished node (told when it publishes). */
  private readonly waiting = new Map<ResourceNode, Scope[]>();
  /** The scopes of owners (see {@link ValueResolver.scope}) waiting for a node now, by owner. */
  private readonly blocked = new Map<ResourceNode, Scope>();
  /** Names this resolver for outputs' caches (see `Resolver.id`). */
  readonly id = newResolverId();

  /**
   * @param onAwait called when a scoped consumer starts or stops waiting for an unpublished node.
   * @param planning set by the planner (see {@link PlanningHooks}).
   */
  constructor(
    private readonly onAwait?: () => void,
    readonly planning?: PlanningHooks,
    /** How many nodes the program has, when known: room for their values is made at once. */
    nodes = 0,
  ) {
    this.published = new NodeTable(nodes);
  }

  private subject(node: ResourceNode): Observable<ResourceValue> {
    const known = this.published.get(node);
    if (known) return of(known);
    let s = this.subjects.get(node);
    if (!s) {
      s = new ReplaySubject<ResourceValue>(1);
      this.subjects.set(node, s);
    }
    return s;
  }

  /** Publishes a resource's value: everything waiting on its attributes proceeds. A second publish is ignored. */
  publish(node: ResourceNode, value: ResourceValue): void {
    if (this.published.has(node)) return;
    this.published.set(node, value);
    const waiting = this.waiting.get(node);
    if (waiting) {
      for (const scope of waiting) this.unblock(scope, node);
      this.waiting.delete(node);
    }
    // A subject exists only if something subscribed before the value was known (most values are read
    // after, with peekAttribute): an unused ReplaySubject per value would be much of what a run keeps.
    const s = this.subjects.get(node);
    if (!s) return;
    this.subjects.delete(node);
    s.next(value);
    s.complete();
  }

  /** True once `node` has published its value in this phase. */
  has(node: ResourceNode): boolean {
    return this.published.has(node);
  }

  /** The value a resource published in this phase (once it has). */
  value(node: ResourceNode): Observable<ResourceValue> {
    return this.subject(node);
  }

  whole(node: ResourceNode): Observable<ValueState<Record<string, unknown>>> {
    return this.subject(node).pipe(map((v) => wholeOf(node, v)));
  }

  attribute(node: ResourceNode, name: string): Observable<ValueState<unknown>> {
    return this.subject(node).pipe(map((v) => attributeOf(node, v, name)));
  }

  peekWhole(node: ResourceNode): ValueState<Record<string, unknown>> | undefined {
    const v = this.published.get(node);
    return v && wholeOf(node, v);
  }

  peekAttribute(node: ResourceNode, name: string): ValueState<unknown> | undefined {
    const v = this.published.get(node);
    return v && attributeOf(node, v, name);
  }

  /**
   * A resolver for one consumer that records which unpublished nodes it waits for. Given an `owner` (the
   * node being planned), what it waits for can be asked by owner ({@link ValueResolver.awaitedBy}).
   */
  scope(owner?: ResourceNode): ScopedResolver {
    return new Scope(this, owner);
  }

  /** The unpublished nodes the scope of `owner` waits for now; undefined when it waits for none. */
  awaitedBy(owner: ResourceNode): ReadonlySet<ResourceNode> | undefined {
    return this.blocked.get(owner)?.awaiting;
  }

  /** @internal A scope starts waiting for `node` (until it publishes); false if it already has. */
  await(scope: Scope, node: ResourceNode): boolean {
    if (this.published.has(node)) return false;
    const list = this.waiting.get(node);
    if (list) list.push(scope);
    else this.waiting.set(node, [scope]);
    if (scope.owner) this.blocked.set(scope.owner, scope);
    this.onAwait?.();
    return true;
  }

  /** `node` published: the scope no longer waits for it (nor, when that was the last, is its owner blocked). */
  private unblock(scope: Scope, node: ResourceNode): void {
    scope.awaiting.delete(node);
    if (scope.owner && scope.awaiting.size === 0 && this.blocked.get(scope.owner) === scope) this.blocked.delete(scope.owner);
  }
}

/**
 * One consumer's view of a {@link ValueResolver} (a class, not closures: there is one per node per phase).
 * Asking for an unpublished node's value notes it as awaited, until the resolver publishes it: no extra
 * operators in the value's pipeline. Its own `id` names it for outputs' caches, as a resolver of its own.
 */
class Scope implements ScopedResolver {
  private waitingFor: Set<ResourceNode> | undefined;
  /** Names this scope for outputs' caches (see `Resolver.id`). */
  readonly id = newResolverId();

  constructor(
    private readonly values: ValueResolver,
    /** The node this scope resolves for, if the caller named one. */
    readonly owner: ResourceNode | undefined,
  ) {}

  get planning(): PlanningHooks | undefined {
    return this.values.planning;
  }

  get awaiting(): Set<ResourceNode> {
    return (this.waitingFor ??= new Set());
  }

  private track<T>(node: ResourceNode, source: Observable<T>): Observable<T> {
    if (!this.waitingFor?.has(node) && this.values.await(this, node)) this.awaiting.add(node);
    return source;
  }

  attribute(node: ResourceNode, name: string): Observable<ValueState<unknown>> {
    return this.track(node, this.values.attribute(node, name));
  }

  whole(node: ResourceNode): Observable<ValueState<Record<string, unknown>>> {
    return this.track(node, this.values.whole(node));
  }

  value(node: ResourceNode): Observable<ResourceValue> {
    return this.track(node, this.values.value(node));
  }

  // A published node is never awaited, so peeking needs no tracking.
  peekAttribute(node: ResourceNode, name: string): ValueState<unknown> | undefined {
    return this.values.peekAttribute(node, name);
  }

  peekWhole(node: ResourceNode): ValueState<Record<string, unknown>> | undefined {
    return this.values.peekWhole(node);
  }
}

/** A resource's whole value as one object (with `id`); a secret attribute makes all of it secret (it cannot be partly masked once combined). */
function wholeOf(node: ResourceNode, v: ResourceValue): ValueState<Record<string, unknown>> {
  const secret = v.secretKeys.size > 0;
  if (v.deferred) return { known: false, secret, deps: [node], deferral: { deferrals: v.deferred } };
  if (v.id === UNKNOWN || v.restUnknown || v.unknown.size > 0) return { known: false, secret, deps: [node] };
  return { known: true, value: { id: v.id, ...v.outputs }, secret, deps: [node] };
}

/** One attribute of a resource's value. */
function attributeOf(node: ResourceNode, v: ResourceValue, name: string): ValueState<unknown> {
  const secret = v.secretKeys.has(name);
  if (v.deferred) return { known: false, secret, deps: [node], deferral: { deferrals: v.deferred } };
  if (name === "id") return v.id === UNKNOWN ? { known: false, secret, deps: [node] } : { known: true, value: v.id, secret, deps: [node] };
  if (v.unknown.has(name) || (v.restUnknown && !(name in v.outputs))) {
    const partial = v.partial?.[name];
    return partial === undefined ? { known: false, secret, deps: [node] } : { known: false, secret, deps: [node], deferral: { partial } };
  }
  return { known: true, value: v.outputs[name], secret, deps: [node] };
}
