import * as z from "zod/mini";
import type { Urn } from "../../core/urn.js";
import type { DeclaredIn, Props, ProviderRecord, RecordedTimeouts } from "../../state/types.js";
import type { DeclarationSite } from "../../core/declaration-site.js";
import type { Colors } from "../../core/colors.js";
import { nameOf, typeOf } from "../../core/urn.js";
import { SECRET_MASK } from "../../core/secret-mask.js";
import { UNKNOWN } from "../../core/unknown.js";
import { maskProps, toJsonData } from "../../core/value-text.js";
import type { ProviderOperation } from "../../provider/provider.js";

/**
 * The parts every step kind is made of: the fields all steps share, the records they carry, the zod pieces
 * their saved-plan and `--json` schemas are built from, and {@link StepKindSpec}, what one kind's file
 * provides. Each kind lives in one file of this folder (`create.ts`, `replace.ts`, …); `index.ts` lists them.
 */

/**
 * What a replace happens for: the attributes that force it, a tainted object, `--replace`, `replaceOnChanges`,
 * a move to other provider settings, a dependency that must be deleted first (`deleteBeforeReplace`), or a
 * `replaceTriggeredBy` value that changed.
 */
export type ReplaceReason = "attributes" | "tainted" | "requested" | "replaceOnChanges" | "provider" | "dependency" | "triggered";

/**
 * Applying the step deletes a stateful object (its type's schema says `stateful`: a database, bucket, table,
 * file system, log group…) and the data in it: a replace's old object, or an object no longer declared.
 * `up` refuses a plan with such a step unless it is allowed: by the program (`allowed`, the resource's
 * `allowDataLoss: true`) or by the run (`--allow-data-loss <name or URN>`).
 *
 * @example const loss: DataLoss = { allowed: false };
 */
export interface DataLoss {
  /** The program allows it: the resource has `allowDataLoss: true`. */
  allowed: boolean;
}

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

/** The fields every step has. */
export interface StepBase {
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

/** The fields of a step that changes an existing object's attributes: an update or a replace. */
export interface ChangeStepFields extends StepBase {
  id: string;
  /** What the inputs are now: the last applied ones, or what a refresh observed. */
  olds: Props;
  news: Props;
  /** Prior outputs, given to the provider (a drifted attribute changes from there). */
  outputs: Props;
  changed: string[];
  /** Changed attributes that were changed outside Cairn (the step puts them back). */
  drift: string[];
  secretKeys: string[];
  meta: StepMeta;
  /** The old object: where it lives, and what it references (it lets go of them after this step). */
  prior: PriorObject;
  movedFrom?: Urn;
  /** The object is adopted (`import`) in this plan, then changed. */
  adopt?: AdoptedObject;
}

/** What a plan is for (see `Plan.mode`). */
export type PlanMode = "update" | "destroy" | "refresh-only";

/**
 * What a step's words need of the rest of its plan: the plan's mode and, for a step's dependencies, how
 * the plan changes them. Built once per plan (`plan-view.ts`), so a step kind never walks the plan itself.
 */
export interface PlanView {
  readonly mode: PlanMode;
  /** The dependencies among `deps` that change in this plan, as phrases: `zone, which is replaced`. */
  changingDeps(deps: readonly Urn[]): string[];
  /** Why the stack references among `deps` are updated: `output vpcId of stack network/prod changed …`. */
  stackReads(deps: readonly Urn[]): string[];
}

/**
 * What a step's provider operations need of the rest of its plan (see `StepKindSpec.operations`), built once
 * per plan by `plan/permissions.ts`.
 *
 * @example stepKindOf(step).operations(step, { refreshed: false, waitedType: (urn) => typeOf(urn) })
 */
export interface OperationsView {
  /** The plan was made after a refresh (`--refresh`): every object a step has in state was read. */
  readonly refreshed: boolean;
  /** The type of the object a wait on `target` reads: the target's own, through waits on waits. */
  waitedType(target: Urn): string;
}

/**
 * One provider operation applying a step runs on a type (`create` of `aws:sqs:Queue`). Several waits on
 * one type read their objects together, so polled reads of a type add its `list`.
 *
 * @example const use: ProviderUse = { type: "aws:sqs:Queue", operation: "create" };
 */
export interface ProviderUse {
  type: string;
  operation: ProviderOperation;
  /** A wait's read, repeated until its predicate holds. */
  polled?: boolean;
}

/**
 * The read a resource step runs besides its own operations: the adoption's (`import`), or the refresh's when
 * the plan was made after one.
 *
 * @example priorReads(updateStep, view) // [{ type: "local:File", operation: "read" }] when it adopts an object
 */
export function priorReads(step: StepBase & { adopt?: AdoptedObject }, plan: OperationsView): ProviderUse[] {
  return step.adopt || plan.refreshed ? [{ type: step.type, operation: "read" }] : [];
}

/** How a plan is printed: colours, and `diff` for attribute-level detail with values never cut. */
export interface DetailOptions {
  colors: Colors;
  diff: boolean;
}

/** The colours a step kind may be printed in (a key of {@link Colors}). */
export type StepColor = "green" | "yellow" | "magenta" | "red" | "cyan" | "dim" | "blue";

/**
 * Everything about one kind of plan step, in one place: when it changes anything, the actions it becomes,
 * and its words in the debug trace, the printed plan and `--json`. Outside the specs, the handler tables
 * (`apply/handlers/index.ts`) and the planners that make each kind, nothing decides behaviour by a step's
 * kind: it asks the spec (narrowing to read one kind's own fields is data access, and allowed). The
 * saved-plan and `--json` zod schemas sit beside the spec in the kind's file (`index.ts` joins them into
 * unions).
 *
 * @example
 * const spec: StepKindSpec<ReadStep, ReadAction> = { kind: "read", changing: (s) => s.deferred, … };
 */
export interface StepKindSpec<S extends StepBase & { kind: string }, A, J> {
  readonly kind: S["kind"];
  /** Dependents must wait for it: it does something at apply time (a deferred read, a wait that runs, any change). */
  changing(step: S): boolean;
  /** It changes cloud objects or state records (reads and waits never do by themselves). */
  changes(step: S): boolean;
  /**
   * It deletes or replaces an object (a delete, even of a `retainOnDelete` object; a replace, even one whose
   * old object waits for a later round). Later rounds of `up` are confirmed again for such steps, and only
   * their actions add the edges that could close a cycle in the action graph.
   */
  readonly deletesOrReplaces: boolean;
  /** It has a line in the printed plan (an unchanged resource has none unless it moves or is adopted). */
  listed(step: S): boolean;
  /**
   * Its resource is one the program declares: false for a delete (its object left the program, or is the
   * old object a replace left deposed). Applying it needs the program's node for it (`stack/applying.ts`
   * evaluates again when one is missing), and the program's options on it can allow what it does
   * (`allowDataLoss`, `stack/data-loss.ts`).
   */
  readonly inProgram: boolean;
  /**
   * After it is applied its resource has a state record holding its values, so those its `secretKeys` name
   * are stored, encrypted, and the plan needs the passphrase first (`stack/plan-secrets.ts`). False for a
   * delete (its record goes) and for reads and waits (never recorded as their own).
   */
  readonly recorded: boolean;
  /**
   * Its resource's object from state is still there, referencing what it did, when a dependency replaced
   * delete-first is deleted: it keeps its object (same, update) or replaces it create-first. If it still
   * references that dependency, it is replaced delete-first too (`plan/cascade.ts`).
   */
  holdsOn(step: S): boolean;
  /**
   * How pictures of the plan draw it (`cairn graph`, `preview --graph`, the plan page): its kind, and for a
   * replace its order. A step that loses data is drawn as data loss whatever this says (`plan/picture`).
   */
  look(step: S): StepLook;
  /** The provider operations applying it runs, by type: what the plan's least-privilege policy allows (`plan/permissions.ts`). */
  operations(step: S, plan: OperationsView): ProviderUse[];
  /** It counts in the plan's count line and `--json` counts. */
  counted(step: S): boolean;
  /** Its part of the count line (`2 to create`); absent for a kind the count line leaves out. */
  countText?: (n: number) => string;
  /** The actions it becomes, with ids `<urn>#<suffix>` (`actionId`). */
  actions(step: S): A[];
  /** The debug trace's reason for it (after `plan <kind> <urn>: `). */
  decision(step: S): string;
  /** What the plan does to it, as said after its name (`zone, which is replaced`; a wait's "runs because …"): `is replaced`. */
  whatHappens: string;
  /** The glyph and word of its plan line: `+/- replace (create first)`. */
  label(step: S): string;
  color: StepColor;
  /** Its plan line when it is not `<label> <urn>` in its colour. */
  line?: (step: S, c: Colors) => string;
  /** Its name in plans, tests and `--json` when not its resource's name (a wait's display name). */
  displayName?: (step: S) => string;
  /**
   * Why it will not run although the program declares it (a wait that held on a recorded read, nothing it
   * guards changed); undefined when it runs. Test results list such a step among the waits, `not-needed`.
   */
  notNeeded?: (step: S) => string | undefined;
  /** It as a changing dependency in another step's reason (default: `<name>, which <whatHappens>`). */
  asDependency?: (step: S) => string;
  /** Why it is in the plan, in words; undefined when it speaks for itself. */
  why(step: S, plan: PlanView): string | undefined;
  /**
   * What applying it does to a stateful object's data (`replaces the DBInstance because engine changed: …`),
   * when it is marked as losing data ({@link DataLoss}); undefined otherwise, and for kinds that never do.
   */
  dataLoss?: (step: S, plan: PlanView) => { loss: DataLoss; what: string } | undefined;
  /** The lines under its plan line: why, where it was declared (`declared`), then the attributes it touches. */
  details(step: S, plan: PlanView, declared: readonly string[], o: DetailOptions): string[];
  /** It as `--json` prints it (names spelt out, secrets masked, unknowns as `{ "$unknown": true }`). */
  toJson(step: S, plan: PlanView): J;
}

/** What create, update, replace and delete share: each always changes something, is printed and counted. */
export const alwaysChanges = {
  changing: () => true,
  changes: () => true,
  listed: () => true,
  counted: () => true,
} as const;

/**
 * The id of one of a step's actions.
 * @example actionId(step, "delete-replaced") // "urn:cairn:dev::app::local:File::cfg#delete-replaced"
 */
export function actionId(step: StepBase, suffix: string): string {
  return `${step.urn}#${suffix}`;
}

/**
 * `[why, ...declared, ...then]` (no why when there is none): the lines under a step, why it is there before
 * the attributes it touches. `then` itself when there is nothing before it (a create, by default).
 * @example whyLines("content changed in the program", [], ['content: "a" → "b"'])
 */
export function whyLines(why: string | undefined, declared: readonly string[], then: string[] = []): string[] {
  if (!why && declared.length === 0) return then;
  return why ? [why, ...declared, ...then] : [...declared, ...then];
}

/**
 * The fields every `--json` step has: `op`, `urn`, `name`, `resource_type`, `deps`, and `why` when there is one.
 * @example jsonBase(step, "content changed in the program") // { op: "update", urn, name: "cfg", resource_type: "local:File", deps: [], why: "…" }
 */
export function jsonBase<K extends string>(step: StepBase & { kind: K }, why: string | undefined, name = nameOf(step.urn), type = typeOf(step.urn)): JsonBase<K> {
  const base: JsonBase<K> = { op: step.kind, urn: step.urn, name, resource_type: type, deps: [...step.deps] };
  if (why) base.why = why;
  return base;
}

/**
 * A `--json` step: {@link jsonBase}'s object with the kind's own fields added in order, those `undefined`
 * left out. Filled in place: spreading the base into a new literal makes V8 build a slow, larger copy for
 * every step.
 *
 * @example addFields(jsonBase(step, undefined), { inputs, import_id: step.adopt?.id }) // { op, urn, …, inputs }
 */
export function addFields<B extends object, F extends object>(base: B, fields: F): B & F {
  const out = base as Record<string, unknown>;
  for (const k in fields) if (fields[k] !== undefined) out[k] = fields[k];
  return base as B & F;
}

/** What {@link jsonBase} returns. */
export interface JsonBase<K extends string> {
  op: K;
  urn: string;
  name: string;
  resource_type: string;
  deps: string[];
  why?: string;
}

/**
 * `toJsonData(maskProps(props, secretKeys))`: attribute values as `--json` prints them, secrets masked,
 * unknowns `{ "$unknown": true }`. Flat values (strings, booleans, null, finite numbers, unknowns), nearly
 * every input, are taken as they are; anything else sends the whole record through the JSON round trip
 * (which drops `undefined`, calls `toJSON`, turns -0 into 0 and NaN into null).
 *
 * @example jsonProps({ pw: "x", host: UNKNOWN, n: 1 }, ["pw"]) // { pw: "[secret]", host: { $unknown: true }, n: 1 }
 */
export function jsonProps(props: Props, secretKeys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const keys = Object.keys(props);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const v = secretKeys.includes(k) ? SECRET_MASK : props[k];
    // `__proto__` as a key would set `out`'s prototype here; JSON.parse makes it a field.
    if (k === "__proto__" || !isFlat(v)) return toJsonData(maskProps(props, secretKeys)) as Record<string, unknown>;
    out[k] = v === UNKNOWN ? { $unknown: true } : v;
  }
  return out;
}

/** A value the JSON round trip gives back as it is (an unknown, as its fixed JSON form). */
const isFlat = (v: unknown) =>
  typeof v === "string" || typeof v === "boolean" || v === null || v === UNKNOWN || (typeof v === "number" && Number.isFinite(v) && !Object.is(v, -0));

// zod pieces of the saved-plan schema (checked field by field when a plan file is read back).
const urn = z.string().check(z.minLength(1));
const ms = z.optional(z.number().check(z.positive()));
const provider = z.optional(z.object({ name: z.string(), settings: z.record(z.string(), z.string()) }));
const timeouts = z.optional(z.object({ create: ms, update: ms, delete: ms }));

/** zod pieces the step kinds' saved-plan schemas share. */
export const planParts = {
  urn,
  urns: z.array(urn),
  props: z.record(z.string(), z.unknown()),
  names: z.array(z.string()),
  id: z.string().check(z.minLength(1)),
  meta: z.object({
    parent: z.optional(urn), deps: z.array(urn), protect: z.boolean(), retainOnDelete: z.boolean(), provider, timeouts,
    triggers: z.optional(z.string()), declaredIn: z.optional(z.object({ on: z.array(urn), waitsFor: z.string() })),
  }),
  prior: z.object({ deps: z.array(urn), provider, timeouts }),
  dataLoss: z.optional(z.object({ allowed: z.boolean() })),
  adopt: z.optional(z.object({ id: z.string(), inputs: z.record(z.string(), z.unknown()), outputs: z.record(z.string(), z.unknown()), secretKeys: z.array(z.string()) })),
  base: { urn, type: z.string().check(z.minLength(1)), deps: z.array(urn) },
};

/** The saved-plan fields of {@link ChangeStepFields}. */
export const changeParts = {
  id: planParts.id, olds: planParts.props, news: planParts.props, outputs: planParts.props, changed: planParts.names, drift: planParts.names,
  secretKeys: planParts.names, meta: planParts.meta, prior: planParts.prior, movedFrom: z.optional(planParts.urn), adopt: planParts.adopt,
};

/** Any JSON value; `{ "$unknown": true }` where a value is not known yet, `"[secret]"` for secrets. */
const jsonValue = z.unknown();

/** zod pieces the step kinds' `--json` schemas share. */
export const jsonParts = {
  value: jsonValue,
  base: { urn: z.string(), name: z.string(), resource_type: z.string(), why: z.optional(z.string()), deps: z.array(z.string()) },
  change: z.strictObject({
    path: z.string(),
    kind: z.enum(["changed", "added", "removed"]),
    before: z.optional(jsonValue),
    after: z.optional(jsonValue),
    forces_replacement: z.boolean(),
  }),
  /** Present when the step deletes a stateful object's data (see {@link DataLoss}). */
  dataLoss: z.optional(z.strictObject({ allowed: z.boolean() })),
};

/**
 * One action of a step: what the scheduler runs and a handler carries out. Every action kind is this, with
 * its kind and the step it comes from.
 *
 * @example export type CreateAction = ActionBase<"create", CreateStep>;
 */
export interface ActionBase<K extends string = string, S extends StepBase = StepBase> {
  /** `<urn>#<suffix>` (see {@link actionId}). */
  id: string;
  kind: K;
  step: S;
  /** Its place in the apply's list of actions (set by `buildActionGraph`; -1 before): run state is kept in arrays by it. */
  index: number;
}

/** Another action an action follows besides its dependency edges: by id, or the one that makes a URN's value. */
export type Follows = { id: string } | { valueOf: Urn };

/**
 * Everything about one kind of action: how the scheduler and the action graph treat it, and its words in
 * progress, results and failure hints. Kept with the step kind it comes from.
 *
 * @example const spec: ActionSpec<ReadAction> = { kind: "read", callsProvider: true, slot: true, makesValue: true, … };
 */
export interface ActionSpec<A extends ActionBase> {
  readonly kind: A["kind"];
  /** Its handler calls a provider (counted as started when the call starts); waits poll on their own, `forget` only edits state. */
  callsProvider: boolean;
  /** It takes one of the `--parallel` slots (waits mostly sleep, so they take none). */
  slot: boolean;
  /**
   * It polls until a condition holds (a wait): progress shows it under its display name with what it last
   * observed (`wait-polled`), and its end is told by `wait-ended`, not by a step line.
   */
  polls: boolean;
  /** After it the node's new value is known (its dependents may start). */
  makesValue: boolean;
  /** After it the step's old object no longer references anything (it was updated or deleted). */
  releases: boolean;
  /** It deletes an object from the cloud. */
  deletesObject: boolean;
  /** It deletes the resource's current object, and with it its state record. */
  removesRecord(action: A): boolean;
  /** It deletes one of a resource's deposed objects (those go before the resource's record does). */
  deletesDeposed(action: A): boolean;
  /** Other actions it follows (the order inside a step, like a replace's create and delete). */
  follows(action: A): Follows[];
  /** `created`, `deleted the old object of`: what a finished one did. */
  doneText: string;
  /** `creating`: what a running one does. */
  runningText: string;
  /** What a failure leaves in state and what to run next (`command` runs the program). */
  afterFailure(command: string): string;
}

/** The defaults most action kinds share: no special order, no deposed objects, no record removed. */
export const plainAction = {
  removesRecord: () => false,
  deletesDeposed: () => false,
  follows: (): Follows[] => [],
} as const;

/**
 * How a picture draws a plan step (`plan/picture`): one look per kind, a replace by its order.
 *
 * @example const look: StepLook = step.deleteFirst ? "replace-delete-first" : "replace-create-first";
 */
export type StepLook = "create" | "update" | "replace-create-first" | "replace-delete-first" | "delete" | "read" | "wait" | "same";
