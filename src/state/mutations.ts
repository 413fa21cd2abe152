import type { StackState, StateMutation } from "./types.js";

/**
 * Applies journaled mutations to a state in place, in order. Used both live (the journal's in-memory
 * state) and on replay, so the two always agree.
 *
 * Every call that carries at least one mutation bumps `serial` once: a plan made against a state is
 * refused after any committed change, including changes replayed from the journal of a crashed run.
 *
 * @example
 * applyMutations(state, [{ kind: "remove", urn }]); // state.resources[urn] is gone, state.serial + 1
 */
export function applyMutations(state: StackState, mutations: readonly StateMutation[]): void {
  if (mutations.length === 0) return;
  for (const m of mutations) {
    switch (m.kind) {
      case "upsert":
        state.resources[m.resource.urn] = m.resource;
        break;
      case "remove":
        delete state.resources[m.urn];
        break;
      case "outputs":
        state.outputs = m.outputs;
        if (m.secretOutputs.length) state.secretOutputs = m.secretOutputs;
        else delete state.secretOutputs;
        break;
    }
  }
  state.serial++;
}

/**
 * A copy of a state's map of resources, to change without touching the original (which a snapshot or a
 * caller still reads). A loop over the keys, which is faster than a spread (`{ ...resources }`): a change
 * to a large stack makes one.
 *
 * @example const resources = copyOfResources(state.resources); delete resources[urn];
 */
export function copyOfResources(resources: StackState["resources"]): StackState["resources"] {
  const copy: StackState["resources"] = {};
  const urns = Object.keys(resources);
  for (let i = 0; i < urns.length; i++) copy[urns[i]!] = resources[urns[i]!]!;
  return copy;
}
