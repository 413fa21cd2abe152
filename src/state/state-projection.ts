import { applyMutations, copyOfResources } from "./mutations.js";
import type { StackState, StateMutation } from "./types.js";

/**
 * A journal's state: the state it was opened with, every recorded mutation applied in call order. Its map
 * of resources is shared with whoever handed it over (a load, a snapshot being written) until the first
 * change copies it: resources are replaced, never edited, so a snapshot can be serialized from the same map
 * while the journal goes on, and the last compaction of a run, which nothing changes after, copies nothing.
 *
 * @example
 * const projection = new StateProjection(loaded.state);
 * projection.apply([{ kind: "remove", urn }]); // loaded.state.resources is left as it was
 */
export class StateProjection {
  private st: StackState;
  /** True while the map of resources is also a snapshot's or a caller's: copied before a change. */
  private shared = true;

  /** Left as it is: the projection starts as a copy sharing its map of resources. */
  constructor(state: StackState) {
    this.st = { ...state };
  }

  /** The state now. Read it; do not modify it. @example projection.state.resources[urn] */
  get state(): StackState {
    return this.st;
  }

  /** Applies mutations (copying the map of resources first if it is shared). @example projection.apply(mutations); */
  apply(mutations: readonly StateMutation[]): void {
    if (this.shared) {
      this.st.resources = copyOfResources(this.st.resources);
      this.shared = false;
    }
    applyMutations(this.st, mutations);
  }

  /**
   * Makes `to` (else the state now) the state at `serial`, its map shared with the snapshot being written
   * from it; returns how to go back should that snapshot not be written.
   * @example const undo = projection.advance(undefined, snap.serial); … undo();
   */
  advance(to: StackState | undefined, serial: number): () => void {
    const prior = { st: this.st, serial: this.st.serial };
    if (to) this.st = { ...to };
    this.st.serial = serial;
    this.shared = true;
    return () => {
      this.st = prior.st;
      this.st.serial = prior.serial;
    };
  }
}
