import type { Observable } from "rxjs";
import type { ResourceNode } from "./node.js";
import type { PlanningHooks } from "./deferral/deferral.js";
import type { DeferralInfo } from "./deferral/deferral-info.js";

/**
 * What an output resolves to in one phase: a known value, or unknown while planning.
 * `secret` and `deps` travel with the value through `apply`, `all` and `interpolate`; so does `deferral`,
 * everything about leaving parts for a later round of `up`, absent on nearly every value (see {@link DeferralInfo}).
 */
export type ValueState<T> =
  | { known: true; value: T; secret: boolean; deps: readonly ResourceNode[]; deferral?: DeferralInfo }
  | { known: false; secret: boolean; deps: readonly ResourceNode[]; deferral?: DeferralInfo };

/**
 * The old name of {@link ValueState}.
 * @deprecated Use `ValueState`: one name for what a value is in a phase (docs/design/engine.md, "Vocabulary").
 * @example type S = OState<string>; // the same as ValueState<string>
 */
export type OState<T> = ValueState<T>;

/**
 * Where outputs get their values: the planner answers with planned values (some unknown),
 * the executor with real ones as steps finish. The same graph is resolved in each phase.
 */
export interface Resolver {
  /** The value of output attribute `name` of a resource in this phase. */
  attribute(node: ResourceNode, name: string): Observable<ValueState<unknown>>;
  /** All of a resource's attributes (with `id`) as one object: a resource or wait used as a value. */
  whole(node: ResourceNode): Observable<ValueState<Record<string, unknown>>>;
  /**
   * The attribute at once, when the resource has published its value already; else undefined. Optional:
   * it lets most values resolve without an rxjs subscription (10,000 resources make 10,000 of them).
   */
  peekAttribute?(node: ResourceNode, name: string): ValueState<unknown> | undefined;
  /** {@link Resolver.whole} at once, when already published; else undefined. */
  peekWhole?(node: ResourceNode): ValueState<Record<string, unknown>> | undefined;
  /** Present while planning: callbacks on unknown values are run on stand-ins and reported here. */
  readonly planning?: PlanningHooks;
  /**
   * A number naming this resolver for outputs' caches (see `newResolverId`): a resolver made per node gives
   * one, or each output it resolves would number it in a weak map (an ephemeron per node for the collector).
   */
  readonly id?: number;
}

/**
 * A state now, or one to come: what resolving gives. Most values are known by the time they are read
 * (their resource was planned or applied first), so they are handed on as plain data; only the rest
 * goes through rxjs.
 */
export type Resolution<T> = ValueState<T> | Observable<ValueState<T>>;

/**
 * A value that resolves against a phase's {@link Resolver}: every `Output` is one. An evaluation keeps the
 * outputs `apply` made as these, and planning resolves the ones nothing used, so a callback that fails is
 * reported (see `runUnusedApplies`).
 *
 * @example const pending = applies.map((a) => a.resolveNow(resolver));
 */
export interface Resolvable {
  /** Resolves it against `r` (planned or applied values), running its callback: at once when it can. */
  resolveNow(r: Resolver): Resolution<unknown>;
}

/**
 * The former name of {@link Resolvable}.
 * @deprecated Use `Resolvable` (its method is `resolveNow`).
 */
export type Settleable = Resolvable;
