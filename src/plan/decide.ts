import type { Diff } from "../provider/provider.js";
import type { ReplaceReason } from "./plan.js";
import type { Props } from "../state/types.js";
import { containsUnknown } from "../core/unknown.js";
import { isDeepStrictEqual } from "node:util";

/** Everything the decision for one resource depends on: plain data in, plain data out. */
export interface DecisionInput {
  /** The resource as recorded in state, if it exists. */
  prior?: { inputs: Props; tainted?: boolean };
  /** New inputs (may hold unknowns). `ignoreChanges` has already been applied. */
  news: Props;
  /** The provider's diff, when it has one and the inputs are fully known. */
  providerDiff?: Diff;
  forceNew: readonly string[];
  replaceOnChanges: readonly string[];
  deleteBeforeReplace: boolean;
  /** The provider can update in place. */
  canUpdate: boolean;
  /** `--replace` named this resource. */
  replaceRequested: boolean;
  /** Outputs drifted since the last apply (a refresh saw it): ask the provider even if inputs are equal. */
  drifted?: boolean;
  /** The resource's provider settings changed (another region or endpoint): the object must move. */
  providerMoved?: boolean;
  /** A `replaceTriggeredBy` value changed (or is unknown until apply): names what triggered it. */
  triggered?: string;
  /**
   * A resource this one references is deleted before it is re-created: this one must be deleted first
   * too (and re-created after), or the cloud would refuse to delete an object still in use. Its URN.
   */
  dependencyDeletedFirst?: string;
}

/** What to do with one resource. */
export type Decision =
  | { kind: "create" }
  | { kind: "same" }
  | { kind: "update"; changed: string[] }
  | { kind: "replace"; changed: string[]; replaceKeys: string[]; reason: ReplaceReason; deleteFirst: boolean; cause?: string };

/** Input attributes whose values differ (an unknown new value counts as a change). */
export function changedKeys(olds: Props, news: Props): string[] {
  const keys = new Set([...Object.keys(olds), ...Object.keys(news)]);
  const out: string[] = [];
  for (const k of keys) {
    const n = news[k];
    if (containsUnknown(n) || !isDeepStrictEqual(olds[k], n)) out.push(k);
  }
  return out;
}

/**
 * The planning decision table (create / same / update / replace) for one resource, as a pure function.
 * The walk over the graph and the provider calls live in the planner; this is what tests pin down.
 *
 * @example decide({ news: { a: 1 }, forceNew: [], replaceOnChanges: [], deleteBeforeReplace: false, canUpdate: true, replaceRequested: false }) // { kind: "create" }
 */
export function decide(d: DecisionInput): Decision {
  if (!d.prior) return { kind: "create" };
  const base = decideAlone({ ...d, prior: d.prior });
  if (d.dependencyDeletedFirst === undefined) return base;
  const changed = base.kind === "update" || base.kind === "replace" ? base.changed : [];
  const replaceKeys = base.kind === "replace" ? base.replaceKeys : [];
  return { kind: "replace", changed, replaceKeys, reason: "dependency", deleteFirst: true, cause: d.dependencyDeletedFirst };
}

/** The decision for one resource on its own (before a dependency's delete-first replace is considered). */
function decideAlone(d: DecisionInput & { prior: NonNullable<DecisionInput["prior"]> }): Decision {
  const changed = changedKeys(d.prior.inputs, d.news);
  const replace = (replaceKeys: string[], reason: ReplaceReason, providerDeleteFirst = false): Extract<Decision, { kind: "replace" }> => ({
    kind: "replace",
    changed,
    replaceKeys,
    reason,
    deleteFirst: d.deleteBeforeReplace || providerDeleteFirst,
  });
  if (d.prior.tainted) return replace([], "tainted");
  if (d.replaceRequested) return replace([], "requested");
  if (d.providerMoved) return replace([], "provider");
  if (d.triggered !== undefined) return { ...replace([], "triggered"), cause: d.triggered };

  let base: Decision;
  if (d.providerDiff) {
    const p = d.providerDiff;
    base =
      p.kind === "same" ? { kind: "same" }
      : p.kind === "update" ? { kind: "update", changed: p.changed.length ? p.changed : changed }
      : { ...replace(p.replaceKeys, "attributes", p.deleteBeforeReplace), ...(p.cause ? { cause: p.cause } : {}) };
  } else if (changed.length === 0) {
    base = { kind: "same" };
  } else {
    const forcing = changed.filter((k) => d.forceNew.includes(k));
    base = forcing.length ? replace(forcing, "attributes") : { kind: "update", changed };
  }
  if (base.kind === "update") {
    const triggers = d.replaceOnChanges.includes("*") ? base.changed : base.changed.filter((k) => d.replaceOnChanges.includes(k));
    if (triggers.length) return replace(triggers, "replaceOnChanges");
    if (!d.canUpdate) return replace(base.changed, "attributes");
  }
  return base;
}

/** Applies `ignoreChanges`: for each listed attribute (`"*"`: every attribute) the prior value is kept. */
export function withIgnoredChanges(news: Props, prior: Props | undefined, ignore: readonly string[]): Props {
  if (!prior || ignore.length === 0) return news;
  if (ignore.includes("*")) return { ...prior };
  const out = { ...news };
  for (const k of ignore) {
    if (k in prior) out[k] = prior[k];
    else delete out[k];
  }
  return out;
}
