// The shapes of a mock: what a test gives `mocks.resource(...)` and what a mocked provider sees.
import type { Urn } from "../core/urn.js";
import type { Props } from "../state/types.js";

/** The resource a mock is answering for: its type token, URN and name. */
export interface MockTarget {
  type: string;
  urn: Urn;
  /** The resource's name (the last part of its URN). */
  name: string;
}

/** Extra outputs of a mocked resource: fixed values, or computed from the inputs the provider received. */
export type MockOutputs<I = Props, O = Props> = Partial<O> | ((inputs: I, target: MockTarget) => Partial<O>);

/**
 * A failure to inject: the error's message (an AWS-style code such as `"AccessDenied"` also becomes the error's
 * name, so `"ThrottlingException"` is retried like the real one), an `Error`, or either one for the first
 * `times` calls only (then the call succeeds).
 */
export type MockFailure = string | Error | { error: string | Error; times?: number };

/**
 * Options of {@link mocks.resource}; `I` and `O` (the type's inputs and outputs, e.g. `acm.CertificateInputs`)
 * type the callbacks and values.
 */
export interface ResourceMockOptions<I = Props, O = Props> {
  /** Outputs added to the inputs on create and update (e.g. `{ arn: "arn:…" }`). */
  outputs?: MockOutputs<I, O>;
  /**
   * What successive reads (wait polls, refresh) see, merged over the resource's outputs: the first read gets
   * the first entry, and so on; the last entry repeats. `null` means the object is gone.
   */
  reads?: readonly (Partial<O> | null)[];
  /** Makes an operation fail: `{ create: "AccessDenied" }`. */
  fail?: Partial<Record<"create" | "read" | "update" | "delete", MockFailure>>;
  /** The cloud id of a created object (default `<name>-1`, then `<name>-2` for a replacement, …). */
  id?: string | ((inputs: I, target: MockTarget) => string);
}

/** Counts a run keeps for one mock, so a fresh run starts afresh (no state shared between tests). */
export interface MockEnv {
  /** Ids already in use (in the starting state and created in this run): new ids avoid them. */
  ids: Set<string>;
}
