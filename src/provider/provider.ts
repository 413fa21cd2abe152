import type { Urn } from "../core/urn.js";
import type { Duration } from "../core/duration.js";
import type { Diagnostic } from "../core/diagnostic.js";

export type { Diagnostic };

/**
 * A problem a provider's `check` found, in the shape of earlier versions (`message` for `summary`).
 * @deprecated Return a {@link Diagnostic} (`summary`, and `detail` for what to do): this shape is still read.
 * @example const d: LegacyCheckDiagnostic = { severity: "error", message: "must be positive", attribute: "size" };
 */
export interface LegacyCheckDiagnostic {
  severity: "error" | "warning";
  message: string;
  /** The input attribute concerned, if any. */
  attribute?: string;
}

/**
 * A problem `check` found, as the one {@link Diagnostic} shape (a legacy `message` read as its summary).
 * @example checkDiagnostic({ severity: "error", message: "must be positive" }).summary // "must be positive"
 */
export function checkDiagnostic(d: Diagnostic | LegacyCheckDiagnostic): Diagnostic {
  if ("summary" in d) return d;
  const { message, ...rest } = d;
  return { ...rest, summary: message };
}

/**
 * What `check` returns: every problem found (none when the inputs are good).
 * @example const found: CheckResult = [{ severity: "error", summary: "must be positive", attribute: "size" }];
 */
export type CheckResult = readonly (Diagnostic | LegacyCheckDiagnostic)[];

/**
 * A provider's verdict on an existing resource's new inputs.
 * - `same`: nothing to do (also how a provider says a textual change is only normalisation).
 * - `update`: change in place; `changed` lists the attributes that differ.
 * - `replace`: the object must be recreated; `replaceKeys` says which attributes force it, and `cause` why,
 *   when the keys alone do not say (`AWS::Lex::BotVersion cannot be updated through Cloud Control`).
 */
export type Diff =
  | { kind: "same" }
  | { kind: "update"; changed: string[]; stables?: string[] }
  | { kind: "replace"; changed: string[]; replaceKeys: string[]; deleteBeforeReplace?: boolean; cause?: string };

/** A clock the engine and providers share, so tests can fake time. */
export interface Clock {
  /** The current time, in ms since the epoch. */
  now(): number;
  /** Resolves after `d`; rejects with the signal's reason if `signal` aborts first. */
  sleep(d: Duration, signal?: AbortSignal): Promise<void>;
}

/** Where a provider reports progress of a long operation. */
export interface Logger {
  /** Progress worth showing (`waiting for the change to be INSYNC`). */
  info(message: string): void;
  /** Something the user should know about (a retry, a slow service). */
  warn(message: string): void;
}

/**
 * A configured instance of a provider package, given to a resource with `opts.provider`
 * (e.g. `new aws.Provider("use1", { region: "us-east-1" })`).
 *
 * `settings` say *where* the resource's object lives (region, endpoint): they are recorded in state with
 * the resource, so it can still be read and deleted there after the program stops declaring it, and a
 * change of settings replaces the resource. Credentials and profiles say *who* acts: they stay in the
 * instance and are never stored.
 *
 * @example
 * const use1: ProviderInstance = { package: "aws", name: "use1", settings: { region: "us-east-1" } };
 */
export interface ProviderInstance {
  /** The first segment of the type tokens it serves, e.g. `aws` for `aws:acm:Certificate`. */
  readonly package: string;
  /** Names the instance in state and messages. */
  readonly name: string;
  /** Where objects live; recorded in state. Plain strings only. */
  readonly settings: Readonly<Record<string, string>>;
}

/**
 * The journal's record of the operation a provider call belongs to: an identity that is the same should a
 * later run pick the operation up again, and a way to attach what the provider learns (a request token) to
 * the record before it goes on, so a crash loses nothing the cloud has said.
 *
 * @example
 * const token = `cairn-${ctx.operation?.id}`;
 * await ctx.operation?.note({ clientToken: token });
 */
export interface OperationRecord {
  /** Unique to this operation and stable across runs (derived from its journal record): a seed for idempotency tokens. */
  readonly id: string;
  /** Durably adds `data` to the operation's pending record; resolves once written. */
  note(data: Readonly<Record<string, string>>): Promise<void>;
}

/** Passed to every provider operation. */
export interface OpContext {
  /** Aborted when the user cancels (Ctrl-C) or the operation's timeout passes. */
  signal: AbortSignal;
  log: Logger;
  clock: Clock;
  /** The operation's time budget (from `customTimeouts`), if any. */
  timeout?: Duration;
  /** The directory of the program file: relative paths are resolved against it. */
  workDir: string;
  /**
   * The provider instance the resource uses (`opts.provider`), or the one recorded in state for a resource
   * the program no longer declares; absent for the package's default.
   */
  provider?: ProviderInstance;
  /** The journaled operation of a create, update or delete (absent for reads). */
  operation?: OperationRecord;
  /**
   * Waits for `p` without holding one of the run's `--parallel` call slots: for a provider that has made its
   * request and now only waits for the cloud to finish it (a Cloud Control request), so other calls can
   * start meanwhile. The slot is taken again before `pause` resolves. Absent outside an apply.
   *
   * @example const done = await (ctx.pause ? ctx.pause(finished) : finished);
   */
  pause?<T>(p: Promise<T>): Promise<T>;
}

/**
 * What became of an operation a crash (or a lost connection) interrupted, as {@link Provider.resume} found
 * out from what it noted:
 * - `created`: the object exists (a create finished): its id and outputs;
 * - `present`: the object the operation acted on exists, with these outputs;
 * - `absent`: there is no object (a create never happened, or a delete finished);
 * - `unknown`: the provider cannot tell: the run stops, with `message` saying what to check and do.
 */
export type ResumeResult =
  | { kind: "created"; id: string; outputs: Record<string, unknown> }
  | { kind: "present"; outputs: Record<string, unknown> }
  | { kind: "absent" }
  | { kind: "unknown"; message: string };

/**
 * A provider operation as a plan needs it, to say what permissions it takes: `list` reads many objects of a
 * type at once (waits on several objects of one type, {@link Provider.readMany}).
 */
export type ProviderOperation = "create" | "read" | "update" | "delete" | "list";

/**
 * The lifecycle every resource type implements: built-in, AWS, mock and user-defined alike.
 * Every method takes one object with named fields.
 *
 * @example
 * const provider: Provider<{ n: number }, { doubled: number }> = {
 *   async create({ inputs }) { return { id: String(inputs.n), outputs: { doubled: inputs.n * 2 } }; },
 *   async read({ outputs }) { return outputs; },
 *   async delete() {},
 * };
 */
export interface Provider<I = Record<string, unknown>, O = Record<string, unknown>, Q = never> {
  /**
   * Validates inputs before planning: each problem a {@link Diagnostic} naming the input in `attribute`
   * (the engine adds the resource's URN and the user's line).
   */
  check?(args: { urn: Urn; inputs: I }): CheckResult | Promise<CheckResult>;
  /**
   * `check` accepts inputs that still hold values known only at apply (`UNKNOWN` markers, to be skipped), so
   * it is asked even then: a missing required input is reported at preview, not when the create fails.
   */
  checksUnknown?: boolean;
  /**
   * What is known of a new object's outputs before it exists, unknown parts as `UNKNOWN` (a certificate
   * has one validation option per domain, each with a record still unknown). Optional: it only lets
   * preview foresee what `apply()` callbacks on those outputs declare (their resources' names and number).
   */
  planOutputs?(args: { inputs: I }): Partial<Record<keyof O, unknown>> | undefined;
  /** Compares old and new inputs; without it the engine compares values and uses the schema's force-new list. */
  diff?(args: { urn: Urn; id: string; olds: I; news: I; outputs: O }): Diff | Promise<Diff>;
  /**
   * True when creating a resource again cannot make a second object: the create finds what an earlier
   * create of the same resource made (a token or name derived from its URN and inputs), writes the same
   * object in place (a file at its path), or makes nothing outside the state. A create interrupted before its
   * id was recorded (kill -9) is then simply made again by the next `up`. Without it, and without `resume`,
   * that `up` stops, naming the resource, until told what became of it (`--forget-interrupted`, `state import`).
   */
  idempotentCreate?: boolean;
  /** Creates the object; resolves with its cloud id and outputs. */
  create(args: { urn: Urn; inputs: I; ctx: OpContext }): Promise<{ id: string; outputs: O }>;
  /** Reads the object's current outputs; `undefined` means it is gone. */
  read(args: { urn: Urn; id: string; inputs: I; outputs: O; ctx: OpContext }): Promise<O | undefined>;
  /**
   * Finds an existing object by a query instead of an id (`Type.get(name, { name: "example.dev" })`);
   * `undefined` means nothing matches.
   */
  lookup?(args: { urn: Urn; query: Q; ctx: OpContext }): Promise<{ id: string; outputs: O } | undefined>;
  /** Reads many objects of this type at once (batched waits); keyed by id. */
  readMany?(args: { targets: { urn: Urn; id: string; inputs: I; outputs: O }[]; ctx: OpContext }): Promise<Map<string, O | undefined>>;
  /** Changes the object in place; without it every change is a replace. */
  update?(args: { urn: Urn; id: string; olds: I; news: I; outputs: O; ctx: OpContext }): Promise<O>;
  /** Deletes the object; deleting something already gone must succeed. */
  delete(args: { urn: Urn; id: string; inputs: I; outputs: O; ctx: OpContext }): Promise<void>;
  /**
   * Finds out how an operation interrupted in an earlier run ended, from what it noted
   * (with `ctx.operation.note`): asked before the next plan for every pending operation that has notes.
   * Without it, the object is read back by id (creates without an id cannot be). A provider with `resume`
   * notes before it sends a create: an interrupted create that noted nothing never reached the cloud.
   */
  resume?(args: { urn: Urn; kind: "create" | "update" | "delete"; id?: string; note: Readonly<Record<string, string>>; ctx: OpContext }): Promise<ResumeResult>;
  /**
   * The cloud permissions (IAM actions such as `sqs:CreateQueue`) one operation of this type needs, every
   * call it makes included (a create's read back), for `preview --permissions`; undefined when it cannot say.
   */
  permissions?(operation: ProviderOperation): readonly string[] | undefined;
}
