import type { Urn } from "../program/urn.js";
import type { Duration } from "../program/duration.js";

/** A problem found by `check`, reported before planning. */
export interface Diagnostic {
  severity: "error" | "warning";
  message: string;
  /** The input attribute concerned, if any. */
  attribute?: string;
}

/**
 * A provider's verdict on an existing resource's new inputs.
 * - `same`: nothing to do (also how a provider says a textual change is only normalisation).
 * - `update`: change in place; `changed` lists the attributes that differ.
 * - `replace`: the object must be recreated; `replaceKeys` says which attributes force it.
 */
export type Diff =
  | { kind: "same" }
  | { kind: "update"; changed: string[]; stables?: string[] }
  | { kind: "replace"; changed: string[]; replaceKeys: string[]; deleteBeforeReplace?: boolean };

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
}

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
  /** Validates inputs before planning. */
  check?(args: { urn: Urn; inputs: I }): Diagnostic[] | Promise<Diagnostic[]>;
  /** Compares old and new inputs; without it the engine compares values and uses the schema's force-new list. */
  diff?(args: { urn: Urn; id: string; olds: I; news: I; outputs: O }): Diff | Promise<Diff>;
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
}
