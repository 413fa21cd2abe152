import { Subject, type Observable } from "rxjs";
import type { ProgramSpec } from "../program/evaluate.js";
import type { Urn } from "../core/urn.js";
import type { ConfigValue } from "../program/config.js";
import type { Plan } from "../plan/plan.js";
import { permissionsFrom, planPermissions, type PermissionOptions, type PlanPermissions } from "../plan/permissions.js";
import type { EngineEvent } from "../apply/events.js";
import type { HistoryEntry, OutputReader, RollbackResult, StackExport, StackSummary, StateBackend } from "../state/backend.js";
import type { UnlockResult } from "../state/lock-holder.js";
import type { RecoveryPlan, RecoveryResult } from "../state/recover.js";
import type { MigrateResult } from "../state/migrate.js";
import type { Props, ResourceState } from "../state/types.js";
import type { ForgetPlan, ImportPlan, RenamePlan, StateEdit, UnprotectPlan } from "./state-edit.js";
import type { RestoredStack, StackRemoval } from "./stack-backup.js";
import { adminTarget, removeStack, restoreStack, stackSummaries } from "./stack-admin.js";
import { stackGraph, type StackGraph } from "./readers.js";
import type { CallSignals, Confirm, DataLossOptions, RefreshChange, RunOptions, StackOptions, UpResult } from "./options.js";
import { runContext, type RunContext } from "./run-context.js";
import * as runs from "./run-commands.js";
import * as edits from "./state-commands.js";

export type { CallSignals, Confirm, DataLossOptions, RefreshChange, RunOptions, StackOptions, UpResult } from "./options.js";

/**
 * One stack of a program: everything the CLI can do, as methods returning typed results, with engine
 * events on `events`. The CLI is a thin layer over this.
 *
 * @example
 * const stack = myProgram.stack({ stack: "test", stateDir: tmp });
 * stack.events.subscribe(e => console.log(e.type));
 * const plan = await stack.preview();
 * const result = await stack.up({ confirm: async () => true });
 */
export class Stack {
  readonly name: string;
  private readonly subject = new Subject<EngineEvent>();
  /** Engine events of every operation on this stack. */
  readonly events: Observable<EngineEvent> = this.subject.asObservable();
  /** What the commands work with: the backend, clock, secrets, providers and the program's evaluations. */
  private readonly run: RunContext;

  constructor(
    readonly program: ProgramSpec,
    readonly options: StackOptions = {},
  ) {
    this.run = runContext(program, options, (e) => this.subject.next(e));
    this.name = this.run.name;
  }

  /** Plans without changing anything. The plan can be given to {@link apply} (or saved, and applied by `up --plan`). */
  async preview(opts: RunOptions = {}): Promise<Plan> {
    return runs.preview(this.run, opts);
  }

  /**
   * Plans, asks `confirm` (default: yes), and applies exactly that plan, all under one lock. A plan that
   * replaces or deletes a stateful object with its data is refused (`DataLossError`, before anything is
   * applied or confirmed) unless the resource has `allowDataLoss: true` or `allowDataLoss` names it.
   */
  async up(opts: RunOptions & DataLossOptions & { confirm?: Confirm } = {}): Promise<UpResult> {
    return runs.up(this.run, opts);
  }

  /**
   * Applies a plan made earlier by {@link preview} (in this process, or saved with `preview --out` and read
   * back): exactly its steps. Refuses if the state changed since, or if the program now declares something
   * else than the program the plan was made from; and, as {@link up} does, a plan that loses data not allowed.
   */
  async apply(plan: Plan, opts: { confirm?: Confirm } & DataLossOptions & CallSignals = {}): Promise<UpResult> {
    return runs.apply(this.run, plan, opts);
  }

  /**
   * Plans the deletion of every resource in state (no program run needed), confirms and applies it. Refused
   * while another stack of the backend reads this one's outputs (`stackOutputs`), unless `force`.
   */
  async destroy(opts: { targets?: readonly Urn[]; confirm?: Confirm; force?: boolean } & CallSignals = {}): Promise<UpResult> {
    return runs.destroy(this.run, opts);
  }

  /**
   * Reads every resource and reports drift; with `confirm` returning true, records it in state (changes
   * nothing in the cloud). The same as `up --refresh-only`.
   */
  async refresh(opts: { confirm?: (changes: RefreshChange[]) => Promise<boolean> } = {}): Promise<{ changes: RefreshChange[]; applied: boolean }> {
    // What changed of undeclared properties only (a status) is recorded without asking: it is not drift.
    const result = await this.up({ refreshOnly: true, confirm: async (plan) => plan.refresh.length > 0 && (plan.drift.length === 0 || !opts.confirm || (await opts.confirm(plan.drift))) });
    return { changes: result.plan.drift, applied: result.summary !== undefined };
  }

  /** The stack outputs from the last apply (read without the resources: as quick for 100,000 as for 10). */
  async outputs(): Promise<{ values: Props; secretKeys: string[] }> {
    return outputsOf(this.run.backend);
  }

  /** Every resource in state. */
  async resources(): Promise<ResourceState[]> {
    const { state } = await this.run.backend.load();
    return Object.values(state.resources);
  }

  /** Removes the stack's lock if its holder is gone; `force` removes it even if the holder may still run (with a warning). */
  async unlock(opts: { force?: boolean } = {}): Promise<UnlockResult> {
    return this.run.backend.forceUnlock(opts);
  }

  /** The stack's configuration values (secrets decrypted: handle with care). */
  async config(): Promise<Record<string, ConfigValue>> {
    return this.run.backend.readConfig();
  }

  /** Sets a configuration value; secret values are encrypted at rest. */
  async setConfig(key: string, value: string, opts: { secret?: boolean } = {}): Promise<void> {
    await this.run.backend.setConfig(key, value, { secret: opts.secret ?? false });
  }

  /** Removes a configuration value. */
  async removeConfig(key: string): Promise<boolean> {
    return this.run.backend.removeConfig(key);
  }

  /**
   * `text` with every secret value this stack has seen masked (and their JSON-escaped and base64 forms): the
   * CLI passes all it prints through it, as the stack does its events and errors.
   *
   * @example stack.redact(`url: ${url}`) // "url: db://admin:[secret]@host"
   */
  redact(text: string): string {
    return this.run.secrets.redact(text);
  }

  /**
   * The cloud permissions a plan needs, as a least-privilege IAM policy for the role that applies it, from
   * each type's own provider (never a test's mock); `refreshed` when the plan was made with `refresh`.
   *
   * @example JSON.stringify(stack.permissions(await stack.preview()).policy)
   */
  permissions(plan: Plan, opts: PermissionOptions = {}): PlanPermissions {
    return planPermissions(plan.steps, permissionsFrom((type) => this.run.definitions.find(type)?.provider), opts);
  }

  /** Which stacks of this stack's backend read which (`stack graph`), from the references in their states. */
  async stackGraph(): Promise<StackGraph> {
    return stackGraph(this.run.backend, this.run.access);
  }

  /** The project's stacks in this stack's backend, sorted. */
  async stacks(): Promise<string[]> {
    return this.run.backend.listStacks();
  }

  /** Where the stack's state lives (a URL without credentials). */
  get stateUrl(): string {
    return this.run.backend.url;
  }

  /** The stored versions of the stack's state, oldest first. */
  async history(): Promise<HistoryEntry[]> {
    return this.run.backend.history();
  }

  /** Makes stored version `version` current again (as a new version), under the lock; changes nothing in the cloud. */
  async rollback(version: number): Promise<RollbackResult> {
    return this.run.backend.rollback(version);
  }

  /**
   * Rebuilds the newest state from the journal and the stored versions when the snapshot is damaged (or
   * behind its journal), under the lock; `confirm` sees what was recovered, and nothing is written unless it
   * agrees. Works from the stored state alone: the program is not evaluated. Changes nothing in the cloud.
   */
  async recoverState(opts: { confirm?: (plan: RecoveryPlan) => Promise<boolean> } = {}): Promise<RecoveryResult> {
    return this.run.backend.recover(opts);
  }

  /** Copies the stack (state, journal, config, history) to another backend under both locks, and verifies the copy. */
  async migrate(to: string | StateBackend): Promise<MigrateResult> {
    return edits.migrate(this.run, to);
  }

  // State surgery: `state show/rm/mv/import/unprotect`, `stack ls/rm/restore`. Each change is made under the
  // lock, after `confirm`, on a state whose previous version is kept in history (`state rollback` undoes it).

  /** A recorded resource by URN or name (unique), with the recorded resources that depend on it. */
  async showResource(ref: string): Promise<{ resource: ResourceState; dependents: Urn[] }> {
    return edits.showResource(this.run, ref);
  }

  /**
   * Forgets resources (URNs or names) without deleting their cloud objects. Refuses one that another
   * recorded resource depends on, or that is protected, unless `force`.
   */
  async forget(refs: readonly string[], opts: { force?: boolean; confirm?: (plan: ForgetPlan) => Promise<boolean> } = {}): Promise<StateEdit<ForgetPlan>> {
    return edits.forget(this.run, refs, opts);
  }

  /**
   * Renames a recorded resource (`to`: a new name, or a whole URN to move it under other parents) without
   * replacing its object; records that point at it, and its descendants, follow.
   */
  async rename(from: string, to: string, opts: { confirm?: (plan: RenamePlan) => Promise<boolean> } = {}): Promise<StateEdit<RenamePlan>> {
    return edits.rename(this.run, from, to, opts);
  }

  /**
   * Reads an existing object through its type's provider and adopts it as the program's resource `name`
   * (which the program must declare): the next preview shows no change if the program declares the
   * object's values.
   */
  async importResource(type: string, name: string, id: string, opts: { confirm?: (plan: ImportPlan) => Promise<boolean> } = {}): Promise<StateEdit<ImportPlan>> {
    return edits.importResource(this.run, type, name, id, opts);
  }

  /** Clears `protect` on a recorded resource, so it may be deleted or replaced (if the program no longer sets it). */
  async unprotect(ref: string, opts: { confirm?: (plan: UnprotectPlan) => Promise<boolean> } = {}): Promise<StateEdit<UnprotectPlan>> {
    return edits.unprotect(this.run, ref, opts);
  }

  /** The project's stacks in this backend, at a glance: resources, last update, lock holder. */
  async stackSummaries(): Promise<StackSummary[]> {
    return stackSummaries(adminTarget(this.run));
  }

  /**
   * Deletes the stack from its backend (changes nothing in the cloud), keeping a copy in a backup file
   * that {@link restoreStack} reads back. Refuses while resources remain in it, unless `force`.
   */
  async removeStack(opts: { force?: boolean; confirm?: (found: StackSummary) => Promise<boolean>; backupDir?: string } = {}): Promise<StackRemoval> {
    return removeStack(adminTarget(this.run), opts);
  }

  /** Writes a stack removed by {@link removeStack} back into this backend, which must hold nothing of it. */
  async restoreStack(data: StackExport, opts: { confirm?: (data: StackExport) => Promise<boolean> } = {}): Promise<RestoredStack> {
    return restoreStack(adminTarget(this.run), data, opts);
  }
}

/** A stack's outputs as last committed, through the one role that reads them. */
async function outputsOf(reader: OutputReader): Promise<{ values: Props; secretKeys: string[] }> {
  const read = await reader.readOutputs();
  return { values: read.outputs, secretKeys: read.secretOutputs };
}
