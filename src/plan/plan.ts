import type { Urn } from "../core/urn.js";
import type { DeclaredIn, Props, ProviderRecord, RecordedTimeouts, StateMutation } from "../state/types.js";
import type { Predicate } from "../core/predicate.js";
import { everyMember } from "../core/every-member.js";
import type { DeclarationSite } from "../core/declaration-site.js";

/**
 * What a replace happens for: the attributes that force it, a tainted object, `--replace`, `replaceOnChanges`,
 * a move to other provider settings, a dependency that must be deleted first (`deleteBeforeReplace`), or a
 * `replaceTriggeredBy` value that changed.
 */
export type ReplaceReason = "attributes" | "tainted" | "requested" | "replaceOnChanges" | "provider" | "dependency" | "triggered";

/** State-only facts a step records along with its resource (they are not provider inputs). */
export interface StepMeta {
  parent?: Urn;
  deps: Urn[];
  protect: boolean;
  retainOnDelete: boolean;
  /** The configured provider instance (name and settings, never credentials); absent for the default. */
  provider?: ProviderRecord;
  /** `customTimeouts` in ms. */
  timeouts?: RecordedTimeouts;
  /** Hash of the `replaceTriggeredBy` values (absent when the option is not used). */
  triggers?: string;
  /** Set when an `apply` callback declared the resource (see `ResourceState.declaredIn`). */
  declaredIn?: DeclaredIn;
}

interface StepBase {
  urn: Urn;
  type: string;
  /**
   * Where the program declared the node (for messages and `preview --diff`): absent for deletes and for
   * plans read from a file, and never written to one (see {@link DeclarationSite}).
   */
  site?: DeclarationSite;
  /** URNs of the program nodes whose values this step needs (its new object depends on them). */
  deps: Urn[];
}

/** An existing object a resource adopts (`import`): what a read of it showed, recorded before anything runs. */
export interface AdoptedObject {
  id: string;
  inputs: Props;
  outputs: Props;
  secretKeys: string[];
}

/** What the state recorded of the object a step changes or deletes (ordering and where it lives). */
export interface PriorObject {
  /** What the object depended on (and may reference): those are deleted only after it lets go. */
  deps: Urn[];
  /** The provider instance it was applied with, from state (its delete goes there). */
  provider?: ProviderRecord;
  /** Its recorded `customTimeouts` (a delete after removal from the program still honours them). */
  timeouts?: RecordedTimeouts;
}

/**
 * One thing the engine will do, as plain data. The plan is a list of these; printing, serialising and
 * applying are all `switch (step.kind)`.
 */
export type PlanStep =
  | (StepBase & { kind: "create"; news: Props; secretKeys: string[]; meta: StepMeta; movedFrom?: Urn })
  | (StepBase & {
      kind: "update";
      id: string;
      /** What the inputs are now: the last applied ones, or what a refresh observed. */
      olds: Props;
      news: Props;
      /** Prior outputs, given to the provider. */
      outputs: Props;
      changed: string[];
      /** Changed attributes that were changed outside Cairn (the update puts them back). */
      drift: string[];
      secretKeys: string[];
      meta: StepMeta;
      prior: PriorObject;
      movedFrom?: Urn;
      /** The object is adopted (`import`) in this plan, then updated. */
      adopt?: AdoptedObject;
    })
  | (StepBase & {
      kind: "replace";
      id: string;
      olds: Props;
      news: Props;
      outputs: Props;
      changed: string[];
      drift: string[];
      replaceKeys: string[];
      reason: ReplaceReason;
      /** For `dependency`: the resource deleted first; for `triggered`: the values that changed. */
      cause?: string;
      deleteFirst: boolean;
      /**
       * The old object is kept (as deposed) rather than deleted in this plan: objects kept for a later round
       * (see {@link DeferredPart}) still reference it, and the plan that plans them deletes it after they let go.
       */
      keepOld?: boolean;
      secretKeys: string[];
      meta: StepMeta;
      /** The old object: its delete goes where it lives, after everything that references it lets go. */
      prior: PriorObject;
      movedFrom?: Urn;
      /** The object is adopted (`import`) in this plan, then replaced. */
      adopt?: AdoptedObject;
    })
  | (StepBase & {
      kind: "delete";
      id: string;
      olds: Props;
      outputs: Props;
      /** `retainOnDelete`: forget it, leave the cloud object. */
      retain: boolean;
      /** An old object left by an interrupted replace, not the resource's current one. */
      deposed: boolean;
      secretKeys: string[];
      prior: PriorObject;
    })
  | (StepBase & {
      kind: "read";
      id: string;
      /** Read during apply (its id or query depends on changes in this plan). */
      deferred: boolean;
      /** For reads done while planning: what was read. */
      outputs?: Props;
    })
  | (StepBase & {
      kind: "wait";
      /** Display name: the user's `name`, or `wait(<target>)`. */
      name: string;
      named: boolean;
      /** The resource, lookup or wait waited on, and its name as predicates print it. */
      target: Urn;
      subject: string;
      until: Predicate;
      untilText: string;
      /** The failure condition in force: the wait's own, or the target type's default. */
      failWhen?: Predicate;
      failWhenText?: string;
      reasonAttribute?: string;
      timeoutMs: number;
      intervalMs: number;
      /** The timeout is the default (the type's, else Cairn's): plans print it only when it is not. */
      defaultTimeout: boolean;
      /** False when nothing around the wait changes: it is skipped and makes no reads. */
      needed: boolean;
      /** Why it runs, or why it is not needed. */
      why: string;
      /** Whether `until` holds on the last known state ("ready now?"); null when that state is not known yet. */
      readyNow: boolean | null;
    })
  | (StepBase & {
      kind: "same";
      meta: StepMeta;
      movedFrom?: Urn;
      /** The object is adopted (`import`): recorded as it is, nothing else to do. */
      adopt?: AdoptedObject;
    });

/** The kinds of step. */
export type StepKind = PlanStep["kind"];

/** Every step kind, for exhaustiveness tests and summaries. */
export const STEP_KINDS = everyMember<StepKind>()(["create", "update", "replace", "delete", "read", "wait", "same"]);

/**
 * True when a step does something at apply time that its dependents must wait for (a deferred read,
 * a wait that runs, any change); false for `same`, eager reads and waits that are not needed.
 */
export function isChanging(step: PlanStep): boolean {
  switch (step.kind) {
    case "create":
    case "update":
    case "replace":
    case "delete":
      return true;
    case "read":
      return step.deferred;
    case "wait":
      return step.needed;
    case "same":
      return false;
    default: {
      const never: never = step;
      return never;
    }
  }
}

/** A problem found while planning; errors stop the run after all of them are reported. */
export interface PlanDiagnostic {
  severity: "error" | "warning";
  message: string;
  urn?: Urn;
}

/**
 * A plan: plain, serialisable data. `up` applies exactly this, and refuses if the state's serial moved on.
 *
 * @example
 * const plan = await stack.preview();
 * plan.steps.filter(s => s.kind !== "same").length // number of changes
 */
export interface Plan {
  /** Format version of this data (saved plans are refused by a Cairn that does not know it). */
  version: typeof PLAN_FORMAT_VERSION;
  project: string;
  stack: string;
  /** The state serial the plan was made against. */
  baseSerial: number;
  /** A hash of the evaluated program (resources, options, plain inputs, config): `up --plan` refuses another. */
  fingerprint: string;
  /** What the plan does: a normal update, a destroy, or only recording what a refresh found. */
  mode: "update" | "destroy" | "refresh-only";
  /** What a refresh found (`--refresh`, `--refresh-only`): recorded in state before any step runs. */
  refresh: StateMutation[];
  /** Drift a refresh found, for display. */
  drift: DriftFinding[];
  steps: PlanStep[];
  /** Stack outputs as planned: values may hold unknowns. */
  outputs: Props;
  secretOutputs: string[];
  /** The stack outputs differ from those in state. */
  outputsChanged: boolean;
  diagnostics: PlanDiagnostic[];
  /**
   * What this plan leaves for a later round because it waits for a value known only during apply (see
   * {@link DeferredPart}); absent or empty when the plan is complete.
   */
  deferred?: DeferredPart[];
  /**
   * Values whose `apply` callbacks could not be run on stand-ins while planning (they failed there), so
   * whether they declare resources is not known: `up` plans once more after applying this plan.
   */
  unforeseen?: string[];
  /** The `--target` URNs the plan was made for (a saved plan applies them as they were). */
  targets?: Urn[];
}

/**
 * A part of the program a plan cannot plan yet, because it waits for a value only the apply makes known:
 * `declared`, a resource an `apply` callback will declare; `node`, a resource, wait or lookup the program
 * declared that reads such a callback's result; `kept`, an object a callback declared in an earlier run,
 * kept (not deleted) until the callback runs again. `up` plans and applies them in its next round.
 *
 * @example { kind: "declared", type: "aws:route53:RecordSet", name: "validation-a.example.dev", waitsFor: "cert.domainValidationOptions" }
 */
export interface DeferredPart {
  kind: "declared" | "node" | "kept";
  type: string;
  /** Known unless it depends on the unknown value (then `pattern` shows it: `validation-…`). */
  name?: string;
  pattern?: string;
  /** Known for `node` and `kept`, and for `declared` when its name is. */
  urn?: Urn;
  /** The value it waits for, as the program names it. */
  waitsFor: string;
  site?: DeclarationSite;
}

/** True when a plan leaves parts for a later round (see {@link DeferredPart}). */
export function isPartial(plan: Plan): boolean {
  return (plan.deferred?.length ?? 0) > 0;
}

/** The version of the plan format this build writes and applies. */
export const PLAN_FORMAT_VERSION = 1;

/** A difference between state and the cloud, found by a refresh. */
export type DriftFinding =
  | { kind: "gone"; urn: Urn; type: string }
  | { kind: "drift"; urn: Urn; type: string; changed: string[] };

/** True when applying the plan would change anything (cloud objects or state). */
export function hasChanges(plan: Plan): boolean {
  // Reads and waits change nothing by themselves: they only run around changes.
  return (
    isPartial(plan) ||
    plan.outputsChanged ||
    plan.refresh.length > 0 ||
    plan.steps.some((s) => (s.kind === "same" ? s.movedFrom !== undefined || s.adopt !== undefined : s.kind !== "read" && s.kind !== "wait"))
  );
}

/** Counts steps by kind. */
export function countSteps(steps: readonly PlanStep[]): Record<StepKind, number> {
  const c = Object.fromEntries(STEP_KINDS.map((k) => [k, 0])) as Record<StepKind, number>;
  for (const s of steps) c[s.kind]++;
  return c;
}

/** One wait's "ready now?" answer: does `until` hold on the last known state (no reads, no waiting)? */
export interface WaitReadiness {
  urn: Urn;
  name: string;
  /** null when the target's state is not known yet (it is being created or replaced). */
  ready: boolean | null;
  /** Whether the wait will run in this plan. */
  needed: boolean;
}

/**
 * Evaluates every wait of a plan once against the last known state, without waiting: which are already
 * satisfied. `preview --json` reports it as `waits`.
 *
 * @example waitsReadyNow(await stack.preview()) // [{ urn, name: "issued", ready: true, needed: false }]
 */
export function waitsReadyNow(plan: Plan): WaitReadiness[] {
  const out: WaitReadiness[] = [];
  for (const s of plan.steps) if (s.kind === "wait") out.push({ urn: s.urn, name: s.name, ready: s.readyNow, needed: s.needed });
  return out;
}
