import type { Duration } from "../core/duration.js";
import type { ApplySummary } from "../apply/events.js";
import type { PlanOptions } from "../plan/context.js";
import type { DriftFinding, Plan } from "../plan/plan.js";
import type { Clock, ProviderInstance } from "../provider/provider.js";
import type { ProviderOverrides } from "../program/registry.js";
import type { DebugLog } from "../provider/trace.js";
import type { StateBackend } from "../state/backend.js";
import type { Props } from "../state/types.js";

/**
 * How many provider calls run at once when `parallel` is not given (`--parallel`).
 * @example const limit = options.parallel ?? DEFAULT_PARALLEL; // 10
 */
export const DEFAULT_PARALLEL = 10;

/** How to reach a stack's state and run its operations. */
export interface StackOptions {
  /** Stack name (default `dev`). */
  stack?: string;
  /** State folder (default `CAIRN_STATE_DIR`, else `.cairn` beside the program). */
  stateDir?: string;
  /**
   * Where the state lives, when not in `stateDir`: `file://<dir>`, `postgres://…`, `s3://bucket/prefix?region=…`,
   * `memory://[name]`, or a backend instance (default `CAIRN_BACKEND`, unless `stateDir` is given).
   */
  backend?: string | StateBackend;
  /** Passphrase for secrets at rest (default `CAIRN_PASSPHRASE`). */
  passphrase?: string;
  /**
   * When the state's snapshot is damaged, use its previous version (`--from-backup`); by default a damaged
   * snapshot is refused, naming {@link Stack.recoverState} (`state recover`) and this option.
   */
  fromBackup?: boolean;
  /**
   * Interrupted operations (by URN) to forget instead of settling them (`--forget-interrupted`): for one its
   * provider cannot settle safely (a create whose answer was lost), once the user has found out what became
   * of it. Nothing is recorded for it; adopt an object it made with the `import` option.
   */
  forgetInterrupted?: readonly string[];
  /** Provider operations at once, refresh reads included (default 10). */
  parallel?: number;
  /**
   * How long a provider call keeps retrying transient failures (throttling, 5xx, dropped connections),
   * counted from its first failure; a failure that is not transient is never retried. Default 5 minutes.
   *
   * @example prog.stack({ retryDeadline: minutes(2) })
   */
  retryDeadline?: Duration;
  /** The clock waits poll by; tests pass a `FakeClock` from `cairn-iac/testing`. */
  clock?: Clock;
  /** Cancels the run (like a first Ctrl-C): nothing new starts; running provider calls finish and are saved. */
  signal?: AbortSignal;
  /** Abandons provider calls in flight (like a second Ctrl-C): they are recorded as uncertain for the next run. */
  abortSignal?: AbortSignal;
  /**
   * Providers to use instead of the types' own, per type token and URN (return undefined to keep the
   * type's): how tests mock a cloud without touching the program. `cairn-iac/testing` builds on it.
   *
   * `own` is the type's own provider for this stack (from its program), for an override that wraps it.
   *
   * @example providers: (type) => (type === "aws:acm:Certificate" ? fakeAcm : undefined)
   */
  providers?: ProviderOverrides;
  /**
   * The provider instance, per package, of every resource that names none (nor its parents): e.g. point a
   * whole program at another region, account or a local emulator without editing it.
   *
   * @example prog.stack({ defaultProviders: { aws: new aws.Provider("local", { region: "us-east-1", endpoint: "http://127.0.0.1:4566" }) } })
   */
  defaultProviders?: Readonly<Record<string, ProviderInstance>>;
  /**
   * Receives the debug trace (the CLI's `--debug` and `CAIRN_LOG=debug`), a line at a time with secrets
   * redacted: every provider call with its duration and outcome, and every plan decision with its reason.
   * Without it nothing is traced, and nothing is built to be.
   *
   * @example prog.stack({ debug: (line) => process.stderr.write(`[debug] ${line}\n`) })
   */
  debug?: DebugLog;
  /**
   * The seed of the random suffixes of names Cairn makes (`jobs-1a2b3c4`, see `ResourceOptions.autoName`):
   * the same seed names the same new objects alike. Default: random for each stack object; `cairn-iac/testing`
   * fixes it, so tests see the same names every run.
   */
  nameSeed?: string;
}

/** Cancellation of one call (`up`, `apply`, `destroy`), in addition to the stack's own signals. */
export interface CallSignals {
  /** Like a first Ctrl-C: nothing new starts; running provider calls finish and are saved. */
  signal?: AbortSignal;
  /** Like a second Ctrl-C: provider calls in flight are abandoned and recorded as uncertain. */
  abortSignal?: AbortSignal;
}

/** Options for `preview` and `up`. */
export interface RunOptions extends PlanOptions, CallSignals {
  /** Read every resource from the cloud before planning (drift is then reverted, vanished objects re-created). */
  refresh?: boolean;
  /** Only read every resource and record what changed; plan no changes to the cloud. */
  refreshOnly?: boolean;
  /**
   * Plans of stacks this one reads (`stackOutputs`), made in the same preview: their planned outputs are
   * read instead of the committed ones (what `runStacks(…, "preview")` does). Preview only.
   */
  upstream?: readonly Plan[];
}

/**
 * What a run of `up` (or `apply` of a saved plan) allows beyond what the program says.
 * @example const opts: DataLossOptions = { allowDataLoss: ["db", "urn:cairn:dev::shop::aws:s3:Bucket::uploads"] };
 */
export interface DataLossOptions {
  /**
   * Resources (names or URNs) whose replace or delete may lose a stateful object's data (`--allow-data-loss`):
   * without it `up` refuses such a plan before anything is applied, unless the resource has `allowDataLoss: true`.
   *
   * @example await stack.up({ allowDataLoss: ["db"] })
   */
  allowDataLoss?: readonly string[];
}

/** What `up` and `destroy` return. */
export interface UpResult {
  plan: Plan;
  /** Absent when the plan was not confirmed. */
  summary?: ApplySummary;
  outputs?: Props;
  /** Which stack outputs are secret (known after the apply: a value built from a secret is secret too). */
  secretOutputs?: string[];
  /** Bytes this apply wrote to state (journal records and the compacted snapshot). */
  stateBytesWritten?: number;
  /**
   * Set when `up` ran in rounds (its first plan left parts for later, see `Plan.deferred`): each round's plan
   * and summary. `plan` is then the first round's, and `summary` adds them up.
   */
  rounds?: { plan: Plan; summary?: ApplySummary }[];
}

/** A difference a refresh found between state and reality. */
export type RefreshChange = DriftFinding;

/** Decides whether to go ahead with a plan (the CLI asks on a TTY, or takes `--yes`). */
export type Confirm = (plan: Plan, info?: RoundInfo) => Promise<boolean>;

/** Which round of `up` a plan is (`round` 1 is the first; later ones plan what the earlier ones made known). */
export interface RoundInfo {
  round: number;
}
