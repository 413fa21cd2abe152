import type { Urn } from "../core/urn.js";

/** Version of the state format this build reads and writes. */
export const STATE_FORMAT_VERSION = 1;

/** Plain JSON-compatible value stored in state. */
export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Attribute values of a resource (inputs or outputs), keyed by attribute name. */
export type Props = Record<string, unknown>;

/**
 * One cloud object that used to be a resource's current object and now waits to be deleted:
 * left by a create-before-delete replace that was interrupted before the delete.
 */
export interface DeposedObject {
  id: string;
  inputs: Props;
  outputs: Props;
  secretKeys?: string[];
  /** The provider instance it was applied with, when other than the resource's (a replace that moved it). */
  provider?: ProviderRecord;
  /** URNs it depended on (and may still reference): they are deleted only after it. */
  deps?: Urn[];
}

/** Time budgets (ms) recorded for a resource's provider calls, so a delete after removal still honours them. */
export interface RecordedTimeouts {
  create?: number;
  update?: number;
  delete?: number;
}

/** The provider instance a resource was applied with: its name and where objects live (never credentials). */
export interface ProviderRecord {
  name: string;
  settings: Record<string, string>;
}

/**
 * What the state remembers of one resource, keyed by its URN.
 * `secretKeys` names the input/output attributes whose values are secret: they are encrypted
 * at rest and print as `[secret]`.
 */
export interface ResourceState {
  urn: Urn;
  type: string;
  id: string;
  inputs: Props;
  outputs: Props;
  /** Attribute names (inputs or outputs) whose values are secret. */
  secretKeys?: string[];
  parent?: Urn;
  /** URNs this resource depended on when last applied: deletes run in reverse of these. */
  deps: Urn[];
  protect?: boolean;
  retainOnDelete?: boolean;
  /** The configured provider instance it was applied with; absent for the package's default provider. */
  provider?: ProviderRecord;
  /** A create that failed part-way: the object may be incomplete, so the next plan replaces it. */
  tainted?: boolean;
  /** Old objects to delete (an interrupted create-before-delete replace). */
  deposed?: DeposedObject[];
  /** `customTimeouts` in force when last applied. */
  timeouts?: RecordedTimeouts;
  /**
   * Input attributes a refresh found changed outside Cairn: `inputs` then holds what the cloud showed, so the
   * next plan diffs the program against it (and reverts the drift). Cleared by the next apply of the resource.
   */
  drift?: string[];
  /**
   * Set when the object was recorded without the program's inputs: a create resumed after an interruption
   * learns the object from a read, not what the program declared. `inputs` is then empty (what was read is in
   * `outputs`), and each plan compares the program's declared inputs against the object as read, as the
   * `import` option does; the next apply of the resource records the declared inputs and clears it.
   */
  inputsUnknown?: true;
  /** A hash of the `replaceTriggeredBy` values when last applied: when they change, the resource is replaced. */
  triggers?: string;
  /**
   * Set when an `apply` callback declared it: the value the callback ran on (the URNs of its resources, and
   * its name). While that value is unknown in a plan, the resource is kept (deferred), not deleted.
   */
  declaredIn?: DeclaredIn;
  /**
   * Marks of the waits whose `until` held on a read of this object, recorded as its outputs (see
   * `src/wait/held.ts`): a later run trusts such a wait without reading again. Dropped whenever the object
   * is written anew (create, update, replace) or a later run of the wait does not hold.
   */
  waitsHeld?: string[];
}

/** Where a resource declared by an `apply` callback came from (see {@link ResourceState.declaredIn}). */
export interface DeclaredIn {
  on: Urn[];
  waitsFor: string;
}

/** A stack's whole state. */
export interface StackState {
  version: number;
  project: string;
  stack: string;
  /** Incremented on every committed change; `up` refuses a plan made against another serial. */
  serial: number;
  resources: Record<string, ResourceState>;
  /** The program's stack outputs from the last successful apply. */
  outputs: Props;
  /** Names of stack outputs that are secret. */
  secretOutputs?: string[];
}

/** A change to the state, as recorded in the journal and applied on replay. */
export type StateMutation =
  | { kind: "upsert"; resource: ResourceState }
  | { kind: "remove"; urn: Urn }
  | { kind: "outputs"; outputs: Props; secretOutputs: string[] };

/** What a provider call was doing when it was journaled as pending. */
export type OperationKind = "create" | "update" | "delete" | "replace-create" | "replace-delete" | "delete-deposed";

/** An operation journaled as begun but never finished: the process died during the provider call. */
export interface PendingOperation {
  op: number;
  kind: OperationKind;
  urn: Urn;
  type: string;
  /** The cloud id the operation acted on, when it had one (not for creates). */
  id?: string;
  /** When it began (ISO time). */
  since: string;
  /** What the provider noted while the call ran (request tokens), for a later run to resume it. */
  note?: Record<string, string>;
}

/** Creates an empty state for a stack. */
export function emptyState(project: string, stack: string): StackState {
  return { version: STATE_FORMAT_VERSION, project, stack, serial: 0, resources: {}, outputs: {} };
}
