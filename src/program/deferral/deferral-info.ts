import { UNKNOWN } from "../../core/unknown.js";
import type { Deferral } from "./deferral.js";

/**
 * Everything deferral-specific a value's state carries (`ValueState.deferral`): absent for nearly every value,
 * so a state is `{known, value, secret, deps}` plus, at most, this.
 *
 * @example { deferrals: [{ waitsFor: "cert.domainValidationOptions", on: ["urn:…::cert"], declares: [] }] }
 */
export interface DeferralInfo {
  /** Callbacks on this value declare resources: whatever reads it waits for the next round of `up`. */
  readonly deferrals?: readonly Deferral[];
  /**
   * Of an unknown value, what is known already (unknown parts as `UNKNOWN`): what a callback is run on to
   * foresee what it declares.
   */
  readonly partial?: unknown;
  /**
   * Of an unknown value: a callback on it has not run (its value was unknown) and its run on stand-ins
   * declared nothing, so if it returns resources, which ones is not known. A `dependsOn` of such a value
   * waits for the next round.
   */
  readonly unrun?: boolean;
}

/**
 * `info` with its deferrals only, as a value embedded in planned inputs keeps it (what is known of it and
 * whether a callback ran no longer matter there); undefined when it has none.
 *
 * @example deferralsOnly({ deferrals: [d], unrun: true }) // { deferrals: [d] }
 */
export function deferralsOnly(info: DeferralInfo | undefined): DeferralInfo | undefined {
  if (!info?.deferrals) return undefined;
  return info.partial === undefined && !info.unrun ? info : { deferrals: info.deferrals };
}

/**
 * The deferral of an `apply` callback's unknown result, from its value's (`info`): with `deferral` added
 * when a run on stand-ins declared something, else marked `unrun`. What was known of the value is not
 * known of the result.
 *
 * @example afterCallback(undefined, null) // { unrun: true }
 */
export function afterCallback(info: DeferralInfo | undefined, deferral: Deferral | null): DeferralInfo {
  const { partial: _, ...rest } = info ?? {};
  return deferral ? { ...rest, deferrals: [...(rest.deferrals ?? []), deferral] } : { ...rest, unrun: true };
}

/**
 * `info` with `partial` as what is known of the value (a field of the value `info` was about); undefined
 * when nothing is left. A field still wholly unknown has no known part.
 *
 * @example withPartial({ partial: { port: 5432 } }, 5432) // { partial: 5432 }
 */
export function withPartial(info: DeferralInfo, partial: unknown): DeferralInfo | undefined {
  const { partial: _, ...rest } = info;
  if (partial !== undefined && partial !== UNKNOWN) return { ...rest, partial };
  return rest.deferrals || rest.unrun ? rest : undefined;
}

/**
 * The deferral of several values combined (`all`, `interpolate`): `into` (what was combined so far) joined
 * with one more value's `info`. Deferrals add up; `unrun` holds if any unknown value's does; what is known
 * of each is dropped (the combination is not any one of them). Undefined while nothing is carried.
 *
 * @example joinDeferral(undefined, { deferrals: [d] }, false) // { deferrals: [d] }
 */
export function joinDeferral(into: DeferralInfo | undefined, info: DeferralInfo, known: boolean): DeferralInfo | undefined {
  const unrun = !known && info.unrun === true;
  if (!info.deferrals && !unrun) return into;
  const deferrals = info.deferrals && into?.deferrals ? [...into.deferrals, ...info.deferrals] : (info.deferrals ?? into?.deferrals);
  return { ...(deferrals ? { deferrals } : {}), ...(unrun || into?.unrun ? { unrun: true } : {}) };
}
