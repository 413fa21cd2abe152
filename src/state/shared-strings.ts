import type { Urn } from "../core/urn.js";
import type { StackState } from "./types.js";

/** The dependencies of a record that has none, shared (and frozen): a parsed `[]` per record was 32 bytes each. */
const NO_DEPS = Object.freeze([]) as unknown as Urn[];

/**
 * Makes a state just parsed from JSON share the strings it repeats, as a state built by a run does:
 * `JSON.parse` makes a new string for every value, so each record held its URN twice (the key and its
 * `urn`), its type (the same few types, 100,000 times), its outputs that repeat an input, and the URNs of
 * its dependencies again. Unshared, a parsed state is larger than the one a fresh `up` keeps, which makes a
 * change to a recorded stack larger than creating it. Records are changed in place: call it only on
 * a state no one else holds yet.
 *
 * @example const state = JSON.parse(text) as StackState; shareStrings(state);
 */
export function shareStrings(state: StackState): void {
  const resources = state.resources;
  const types = new Map<string, string>();
  // The keys listed once for both passes: listing those of a large map is not free.
  const urns = Object.keys(resources);
  for (let i = 0; i < urns.length; i++) {
    const urn = urns[i]!;
    const r = resources[urn]!;
    if (r.urn === urn) r.urn = urn as Urn; // the key, which the map holds anyway
    const type = types.get(r.type);
    if (type === undefined) types.set(r.type, r.type);
    else r.type = type;
    const { inputs, outputs } = r;
    if (inputs && outputs) {
      for (const k in outputs) {
        const v = outputs[k];
        if (typeof v === "string" && Object.hasOwn(inputs, k) && inputs[k] === v) outputs[k] = inputs[k];
      }
    }
  }
  // Dependencies once every record's `urn` is its key: each names that string.
  for (let i = 0; i < urns.length; i++) {
    const r = resources[urns[i]!]!;
    const deps = r.deps;
    if (!Array.isArray(deps)) continue;
    if (deps.length === 0) {
      r.deps = NO_DEPS;
      continue;
    }
    for (let d = 0; d < deps.length; d++) {
      const named = resources[deps[d]!]?.urn;
      if (named !== undefined && named === deps[d]) deps[d] = named;
    }
  }
}
