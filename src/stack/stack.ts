import { Subject, type Observable } from "rxjs";
import { isAbsolute, join, resolve } from "node:path";
import { evaluateProgram, type Evaluation, type ProgramSpec } from "../program/evaluate.js";
import type { Urn } from "../core/urn.js";
import type { ConfigValue } from "../program/config.js";
import type { GraphNode, ResourceNode } from "../program/node.js";
import { buildGraph } from "../graph/graph.js";
import { makePlan } from "../plan/planner.js";
import type { Plan } from "../plan/plan.js";
import { fingerprint } from "../plan/fingerprint.js";
import { execute, type ProgramRuntime } from "../apply/executor.js";
import type { EngineEvent, EventSink } from "../apply/events.js";
import { SecretRegistry } from "../apply/secret-registry.js";
import type { Clock, OpContext, ProviderInstance } from "../provider/provider.js";
import { instanceKey, providerInstanceFor } from "../provider/instance.js";
import { tracedProviders, type ProviderSource } from "../program/registry.js";
import { RunDefinitions } from "../program/run-definitions.js";
import type { DebugLog } from "../provider/trace.js";
import { decisionLine } from "../plan/steps/index.js";
import { openBackend } from "../state/open-backend.js";
import type { HistoryEntry, RollbackResult, StateBackend } from "../state/backend.js";
import type { UnlockResult } from "../state/lock-holder.js";
import type { RecoveryPlan, RecoveryResult } from "../state/recover.js";
import { migrateStack, type MigrateResult } from "../state/migrate.js";
import type { Props, ProviderRecord, ResourceState, StackState } from "../state/types.js";
import { realClock } from "./clock.js";
import { CairnError } from "./errors.js";
import { watchIdle } from "./liveness.js";
import { afterRefresh, readAll } from "./refresh.js";
import { reconcile } from "./reconcile.js";
import { loadTypeModules } from "../program/load-types.js";
import { dependentsOf, findResource, planForget, planRename, type ForgetPlan, type ImportPlan, type RenamePlan, type StateEdit, type UnprotectPlan } from "./state-edit.js";
import { declaredResource, planImport } from "./import.js";
import type { RestoredStack, StackRemoval } from "./stack-backup.js";
import { removeStack, restoreStack, stackSummaries, type AdminTarget } from "./stack-admin.js";
import type { StackExport, StackSummary } from "../state/backend.js";
import type { PendingOperation, StateMutation } from "../state/types.js";
import { thrownMessage } from "../core/thrown.js";
import { stackAccess, withPlannedOutputs, type StackAccess } from "../state/stack-access.js";
import { destroyVerdict, stackGraph, type StackGraph } from "./readers.js";
import type { CallSignals, Confirm, RefreshChange, RunOptions, StackOptions, UpResult } from "./options.js";
import { anySignal, signalsOf, type ApplyControl } from "./signals.js";
import { planHasSecrets, planSecrets } from "./plan-secrets.js";
import { destroyPlan, refreshOnlyPlan, type PlanFor } from "./special-plans.js";
import { refuseUnfitPlan } from "./plan-fits.js";
import { runRounds, type Round, type RoundSteps } from "./rounds.js";
import type { Declarations } from "../program/evaluate.js";

export type { CallSignals, Confirm, RefreshChange, RunOptions, StackOptions, UpResult } from "./options.js";


/** An evaluated program, ready to plan or to apply a plan made from it. */
interface Prepared {
  runtime: ProgramRuntime;
  /** Resources the evaluation's callbacks declare while planning (they join `runtime`'s graph). */
  declarations: Declarations;
  /** The program's fingerprint (computed when first asked: `up` applies its own plan and needs none). */
  fingerprint(): string;
}

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
  private readonly backend: StateBackend;
  private readonly clock: Clock;
  /** The program's provider instances by package and name, from its latest evaluation. */
  private readonly live = new Map<string, ProviderInstance>();
  /** The latest evaluation: applying a plan this process just made needs no second one. */
  private prepared: Prepared | undefined;
  /** The type definitions of this stack's program: an object it no longer declares is reached through them. */
  private readonly definitions = new RunDefinitions();
  /** Where every provider call gets its provider (traced ones with `debug`). */
  private readonly providers: ProviderSource;
  /** The debug trace, redacted; undefined when off. */
  private readonly debug: DebugLog | undefined;

  constructor(
    readonly program: ProgramSpec,
    readonly options: StackOptions = {},
  ) {
    this.name = options.stack ?? "dev";
    this.clock = options.clock ?? realClock;
    const log = options.debug;
    // Redacted at the last moment: the registry learns secrets as the run meets them.
    this.debug = log && ((line) => log(this.secrets.redact(line)));
    const source = this.definitions.source(options.providers);
    this.providers = this.debug ? tracedProviders(source, this.debug) : source;
    const dir = options.stateDir ?? process.env.CAIRN_STATE_DIR ?? join(program.location.dir, ".cairn");
    const given = options.backend ?? (options.stateDir === undefined ? process.env.CAIRN_BACKEND : undefined);
    const stateDir = isAbsolute(dir) ? dir : resolve(dir);
    const passphrase = options.passphrase ?? process.env.CAIRN_PASSPHRASE;
    this.backend = openBackend({ backend: given, stateDir, stack: this.name, project: program.name, passphrase, programHint: program.location.command, fromBackup: options.fromBackup });
    this.access = stackAccess({ backend: this.backend, given, stateDir, passphrase });
  }

  /** How `stackOutputs`, `stack graph` and `destroy` reach the other stacks of this backend. */
  private readonly access: StackAccess;

  /** Every secret value this stack has seen (config, state, plans, applies): nothing it emits shows one. */
  private readonly secrets = new SecretRegistry();

  /** The one way events leave the stack: through the secret redaction pass. */
  private readonly sink: EventSink = { next: (e) => this.subject.next(this.secrets.redactEvent(e)) };

  private note(severity: "info" | "warning" | "error", message: string, urn?: Urn) {
    this.sink.next({ type: "diagnostic", severity, message, ...(urn ? { urn } : {}) });
  }

  /** The context of one provider call; `signal` bounds it (a timeout, an abandoned run). A function is asked only if the provider reads it. */
  private opContext = (urn: Urn, opts: { signal?: AbortSignal | (() => AbortSignal); timeoutMs?: number; provider?: ProviderInstance } = {}): OpContext => {
    const given = opts.signal;
    let signal: AbortSignal | undefined = typeof given === "function" ? undefined : given;
    let log: OpContext["log"] | undefined;
    const stack = this; // the getters below are the context's own
    // The signal and the logger are made when a provider first reads them (most calls read neither).
    const lazy = {
      get signal(): AbortSignal {
        return (signal ??= typeof given === "function" ? given() : (stack.options.abortSignal ?? new AbortController().signal));
      },
      get log(): OpContext["log"] {
        return (log ??= { info: (m) => stack.note("info", m, urn), warn: (m) => stack.note("warning", m, urn) });
      },
    };
    return Object.assign(lazy, {
      clock: this.clock,
      workDir: this.program.location.dir,
      ...(opts.timeoutMs ? { timeout: opts.timeoutMs as OpContext["timeout"] } : {}),
      ...(opts.provider ? { provider: opts.provider } : {}),
    });
  };

  /** Reads and lookups outside an apply: bounded by `timeout` (and a second Ctrl-C). */
  private readContext = (urn: Urn, timeout?: number, provider?: ProviderInstance): OpContext => {
    const signals = [this.options.abortSignal, timeout ? AbortSignal.timeout(Math.ceil(timeout)) : undefined].filter((s): s is AbortSignal => !!s);
    return this.opContext(urn, { ...(signals.length ? { signal: AbortSignal.any(signals) } : {}), ...(timeout ? { timeoutMs: timeout } : {}), ...(provider ? { provider } : {}) });
  };

  private env() {
    return {
      opContext: (urn: Urn, provider?: ProviderInstance) => this.readContext(urn, undefined, provider),
      instanceFor: (type: string, r: ProviderRecord | undefined) => this.instanceFor(type, r),
      warn: (m: string, urn: Urn) => this.note("warning", m, urn),
      providers: this.providers,
      definitionOf: (type: string) => this.definitions.find(type),
    };
  }

  /**
   * Runs `fn` holding the stack's lock, with the state loaded and interrupted operations reconciled. If the
   * process would go idle before `fn` ends (a promise that never settles), `fn`'s work is told to stop.
   */
  private async locked<T>(command: string, fn: (state: StackState, idle: AbortSignal) => Promise<T>): Promise<T> {
    const lock = await this.backend.lock({ command });
    const idle = watchIdle();
    try {
      for (const n of lock.notes) this.note("warning", n);
      const loaded = await this.backend.load();
      for (const n of loaded.notes) this.note("warning", n);
      await this.learnSecrets(loaded.state);
      let state = loaded.state;
      await loadTypeModules([...Object.values(state.resources).map((r) => r.type), ...loaded.pending.map((p) => p.type)]);
      if (loaded.pending.length) {
        const journal = await this.backend.openJournal(state);
        await reconcile(journal, this.forgotten(journal, loaded.pending), this.env());
        state = await journal.compact();
        await journal.close();
      }
      return await fn(state, idle.signal);
    } catch (e) {
      // Errors reach people too: the same redaction as events (a provider may quote a secret in its message).
      if (e instanceof Error) e.message = this.secrets.redact(e.message);
      throw e;
    } finally {
      idle.dispose();
      await lock.release();
    }
  }

  /** Closes the interrupted operations `forgetInterrupted` names (saying so) and returns the others, to settle. */
  private forgotten(journal: { end(op: number, m: StateMutation[]): void }, pending: readonly PendingOperation[]): PendingOperation[] {
    const forget = new Set(this.options.forgetInterrupted ?? []);
    const rest: PendingOperation[] = [];
    for (const p of pending) {
      if (!forget.has(p.urn)) {
        rest.push(p);
        continue;
      }
      this.note("warning", `The interrupted ${p.kind} of ${p.urn} (started ${p.since}) was forgotten, as --forget-interrupted asked: nothing was recorded for it. If it made an object, adopt it with the resource's import option (or state import), or delete it by hand.`, p.urn);
      journal.end(p.op, []);
    }
    return rest;
  }

  /** Remembers the secrets of the loaded state and of the stack's config, so no event or error shows them. */
  private async learnSecrets(state: StackState): Promise<void> {
    this.secrets.addState(state);
    try {
      for (const v of Object.values(await this.backend.readConfig())) if (v.secret) this.secrets.add(v.value);
    } catch {
      // Without the passphrase secret config cannot be read; nothing of it can be shown either.
    }
  }

  private evalDefaults(upstream?: readonly Plan[]): { providers?: Readonly<Record<string, ProviderInstance>>; stacks: StackAccess } {
    const stacks = upstream?.length ? withPlannedOutputs(this.access, new Map(upstream.map((p) => [`${p.project}/${p.stack}`, { values: p.outputs, secretKeys: p.secretOutputs }]))) : this.access;
    return { stacks, ...(this.options.defaultProviders ? { providers: this.options.defaultProviders } : {}) };
  }

  private remember(ev: { nodes: readonly ResourceNode[] }): void {
    this.definitions.learn(ev.nodes);
    for (const n of ev.nodes) if (n.provider) this.live.set(instanceKey(n.provider.package, n.provider.name), n.provider);
  }

  /**
   * Evaluates the program, best effort, to learn its provider instances: destroy, refresh and crash recovery
   * must reach each object with the credentials of the instance that made it, yet still work when the
   * program no longer evaluates (then the recorded region/endpoint and the default credentials are used).
   */
  private async declareProviders(): Promise<void> {
    try {
      this.remember(await evaluateProgram(this.program, { stack: this.name, config: await this.backend.readConfig(), ...this.evalDefaults() }));
    } catch (e) {
      this.note("warning", `The program could not be evaluated (${thrownMessage(e, "the program")}); resources with a named provider instance are reached with their recorded settings and the default credentials.`);
    }
  }

  /** The instance for an object recorded with `record`: the program's live one of that name, else the record. */
  private instanceFor(type: string, record: ProviderRecord | undefined): ProviderInstance | undefined {
    // No record: the package's default, which is the stack's `defaultProviders` instance when it names one
    // (as for a resource the program declares without a provider).
    if (!record) return this.options.defaultProviders?.[type.split(":")[0]!];
    return providerInstanceFor(type, record, this.live.get(instanceKey(type, record.name)));
  }

  /** Evaluates the program into a graph, with its fingerprint. */
  private async prepare(upstream?: readonly Plan[]): Promise<Prepared> {
    const config = await this.backend.readConfig();
    let ev: Evaluation;
    try {
      ev = await evaluateProgram(this.program, { stack: this.name, config, ...this.evalDefaults(upstream) });
    } catch (e) {
      if (e instanceof CairnError) throw e;
      throw new CairnError(`The program "${this.program.name}" failed while declaring its resources: ${thrownMessage(e, "the program")}`);
    }
    if (ev.diagnostics.length) throw new CairnError(`The program "${this.program.name}" has ${ev.diagnostics.length} problem(s):`, ev.diagnostics.map((d) => d.message));
    this.remember(ev);
    let graph;
    try {
      graph = buildGraph(ev.nodes);
    } catch (e) {
      throw new CairnError((e as Error).message);
    }
    const nodeByUrn = new Map<Urn, GraphNode>(graph.order.map((n) => [n.urn, n]));
    const values = Object.fromEntries(Object.entries(config).map(([k, v]) => [k, v.value]));
    // Computed again once planning has grown the graph (resources callbacks declared are part of the program).
    let fp: { nodes: number; value: string } | undefined;
    const fingerprintNow = () => {
      if (fp?.nodes !== graph.order.length) fp = { nodes: graph.order.length, value: fingerprint(graph, ev.outputs, values) };
      return fp.value;
    };
    const p: Prepared = { runtime: { graph, nodeByUrn, programOutputs: ev.outputs, applies: ev.applies }, declarations: ev.declarations, fingerprint: fingerprintNow };
    this.prepared = p;
    return p;
  }

  /** Plans; `fingerprinted` when the plan leaves this call (preview), so it can be applied later. */
  private async planAgainst(state: StackState, opts: RunOptions, idle: AbortSignal, fingerprinted: boolean): Promise<Plan> {
    const refreshing = opts.refresh || opts.refreshOnly;
    if (opts.refreshOnly) await this.declareProviders();
    const found = refreshing ? await readAll(state, this.env()) : { findings: [], mutations: [] };
    if (opts.refreshOnly) {
      return refreshOnlyPlan(this.planFor, state, found);
    }
    const { runtime, fingerprint: fp, declarations } = await this.prepare(opts.upstream);
    const plan = await makePlan(
      {
        project: this.program.name, stack: this.name, graph: runtime.graph, programOutputs: runtime.programOutputs, state: afterRefresh(state, found.mutations),
        opContext: this.readContext, providers: this.providers, stuck: idle, growth: declarations, ...(runtime.applies ? { applies: runtime.applies } : {}),
      },
      opts,
    );
    // Callbacks declared resources while planning: they are in the graph now, and none may be declared after.
    declarations.seal();
    if (runtime.nodeByUrn.size !== runtime.graph.order.length) {
      this.remember({ nodes: runtime.graph.order.slice(runtime.nodeByUrn.size) }); // the nodes added (appended)
      runtime.nodeByUrn = new Map(runtime.graph.order.map((n) => [n.urn, n]));
    }
    // After planning: the resources callbacks declared while planning are part of what the plan was made from.
    const fingerprint = fingerprinted ? fp() : "";
    return this.traced(this.scrubbed({ ...plan, baseSerial: state.serial, fingerprint, refresh: found.mutations, drift: found.findings }));
  }

  /** Plans without changing anything. The plan can be given to {@link apply} (or saved, and applied by `up --plan`). */
  async preview(opts: RunOptions = {}): Promise<Plan> {
    return this.locked("preview", (state, idle) => this.planAgainst(state, opts, idle, true));
  }

  /** Plans, asks `confirm` (default: yes), and applies exactly that plan, all under one lock. */
  async up(opts: RunOptions & { confirm?: Confirm } = {}): Promise<UpResult> {
    if (opts.upstream?.length) throw new CairnError("up reads the outputs other stacks have committed: `upstream` plans are for preview only.");
    return this.locked("up", async (state, idle) => {
      const plan = await this.planAgainst(state, opts, idle, false);
      return runRounds(plan, state, this.roundSteps(opts, idle));
    });
  }

  /**
   * How `up` runs its rounds: each later round plans against the state the last one left (no refresh: it
   * was just applied) and is confirmed as a round of its own.
   */
  private roundSteps(opts: RunOptions & { confirm?: Confirm } & CallSignals, idle: AbortSignal, madeHere = true): RoundSteps {
    const later: RunOptions = opts.targets ? { targets: opts.targets } : {};
    return {
      plan: (state) => this.planAgainst(state, later, idle, false),
      apply: (plan, state, round) => {
        const confirm = opts.confirm && ((p: Plan) => opts.confirm!(p, { round }));
        // A plan given to `apply` is matched to the program by its fingerprint; the rounds after it were planned here.
        const made = madeHere || round > 1 ? this.prepared?.runtime : undefined;
        return this.confirmAndApply(plan, state, { confirm, idle, made, ...signalsOf(opts) });
      },
      note: (m) => this.note("info", m),
      stopped: () => !!(this.options.signal?.aborted || opts.signal?.aborted),
      // A later round plans what earlier ones made known, which --target may leave out: one round only.
      ...(opts.targets?.length ? { oneRound: "Parts of the program wait for values known only during apply; with --target up runs one round: run up without --target to apply them." } : {}),
    };
  }

  /**
   * Applies a plan made earlier by {@link preview} (in this process, or saved with `preview --out` and read
   * back): exactly its steps. Refuses if the state changed since, or if the program now declares something
   * else than the program the plan was made from.
   */
  async apply(plan: Plan, opts: { confirm?: Confirm } & CallSignals = {}): Promise<UpResult> {
    return this.locked("up", (state, idle) => {
      const later = (plan.deferred ?? []).filter((p) => p.kind !== "kept").length;
      if (later) this.note("info", `This plan left ${later} part(s) for a later round (they wait for values known only during apply): after applying it, up plans and applies them in this run.`);
      return runRounds(plan, state, this.roundSteps({ ...opts, ...(plan.targets ? { targets: plan.targets } : {}) }, idle, false));
    });
  }

  /**
   * Plans the deletion of every resource in state (no program run needed), confirms and applies it. Refused
   * while another stack of the backend reads this one's outputs (`stackOutputs`), unless `force`.
   */
  async destroy(opts: { targets?: readonly Urn[]; confirm?: Confirm; force?: boolean } & CallSignals = {}): Promise<UpResult> {
    if (!opts.targets?.length) {
      const verdict = destroyVerdict(await this.stackGraph(), { project: this.program.name, stack: this.name }, this.backend.url, opts.force ?? false);
      for (const w of verdict.warnings) this.note("warning", w);
      if (verdict.error) throw new CairnError(verdict.error);
    }
    await this.declareProviders();
    return this.locked("destroy", async (state, idle) => {
      const plan = destroyPlan(this.planFor, state, opts.targets ?? [], (t, urn) => this.providers(t, urn) !== undefined);
      this.traced(plan);
      return (await this.confirmAndApply(plan, state, { confirm: opts.confirm, idle, ...signalsOf(opts) })).result;
    });
  }

  /** The plan, its decisions written to the debug trace (when on). */
  private traced(plan: Plan): Plan {
    if (this.debug) for (const step of plan.steps) this.debug(decisionLine(step));
    return plan;
  }

  /** The plan with its secrets remembered and its diagnostics (a provider's check may quote a value) redacted. */
  private scrubbed(plan: Plan): Plan {
    planSecrets(plan, this.secrets);
    return { ...plan, diagnostics: plan.diagnostics.map((d) => ({ ...d, message: this.secrets.redact(d.message) })) };
  }

  /** The evaluated program a plan was made from: this process's, or a fresh evaluation that must match. */
  private async runtimeFor(plan: Plan, state: StackState, idle: AbortSignal): Promise<ProgramRuntime | undefined> {
    if (plan.mode !== "update") return undefined;
    let known = this.prepared?.fingerprint() === plan.fingerprint ? this.prepared : await this.prepare();
    if (plan.steps.some((s) => s.kind !== "delete" && !known.runtime.nodeByUrn.has(s.urn))) {
      // Steps of resources `apply` callbacks declare: planning again (nothing is applied) lets the callbacks
      // declare them, so they are compared with the plan, and their values resolved like any other's.
      await this.planAgainst(state, {}, idle, false);
      known = this.prepared!;
    }
    if (known.fingerprint() !== plan.fingerprint) {
      throw new CairnError(`The program changed since this plan was made (its resources, options, inputs or config differ); nothing was applied. Run preview again and apply the new plan.`);
    }
    return known.runtime;
  }

  /**
   * Checks, confirms and applies a plan, with the state it leaves (for the next round of `up`); `made` is
   * the evaluation it was just made from (else found by fingerprint).
   */
  private async confirmAndApply(plan: Plan, state: StackState, run: ApplyControl): Promise<Round> {
    const { confirm, idle, made } = run;
    const cancel = anySignal(this.options.signal, run.signal);
    const abort = anySignal(this.options.abortSignal, run.abortSignal);
    planSecrets(plan, this.secrets);
    refuseUnfitPlan(plan, state, this.planFor);
    const program = plan.mode === "update" && made ? made : await this.runtimeFor(plan, state, idle);
    if (confirm && !(await confirm(plan))) return { result: { plan }, state };
    if (cancel?.aborted) {
      this.note("warning", "Cancelled before anything was applied: nothing was changed.");
      return { result: { plan }, state };
    }
    if (planHasSecrets(plan)) await this.backend.requirePassphrase();
    const journal = await this.backend.openJournal(state);
    const { summary, outputs } = await execute({
      plan, journal, clock: this.clock, events: this.sink, secrets: this.secrets, opContext: this.opContext, instances: this.live,
      parallel: this.options.parallel ?? 10, stuck: idle, providers: this.providers,
      ...(this.options.retryDeadline !== undefined ? { retryDeadlineMs: this.options.retryDeadline } : {}),
      ...(program ? { program } : {}),
      ...(cancel ? { cancel } : {}),
      ...(abort ? { abort } : {}),
    });
    const after = await journal.compact();
    await journal.close();
    return { result: { plan, summary, stateBytesWritten: journal.bytesWritten, ...(outputs ? { outputs: outputs.values, secretOutputs: outputs.secretKeys } : {}) }, state: after };
  }

  /**
   * Reads every resource and reports drift; with `confirm` returning true, records it in state (changes
   * nothing in the cloud). The same as `up --refresh-only`.
   */
  async refresh(opts: { confirm?: (changes: RefreshChange[]) => Promise<boolean> } = {}): Promise<{ changes: RefreshChange[]; applied: boolean }> {
    const result = await this.up({ refreshOnly: true, confirm: async (plan) => plan.drift.length > 0 && (!opts.confirm || (await opts.confirm(plan.drift))) });
    return { changes: result.plan.drift, applied: result.summary !== undefined };
  }

  /** The stack outputs from the last apply. */
  async outputs(): Promise<{ values: Props; secretKeys: string[] }> {
    const { state } = await this.backend.load();
    return { values: state.outputs, secretKeys: state.secretOutputs ?? [] };
  }

  /** Every resource in state. */
  async resources(): Promise<ResourceState[]> {
    const { state } = await this.backend.load();
    return Object.values(state.resources);
  }

  /** Removes the stack's lock if its holder is gone; `force` removes it even if the holder may still run (with a warning). */
  async unlock(opts: { force?: boolean } = {}): Promise<UnlockResult> {
    return this.backend.forceUnlock(opts);
  }

  /** The stack's configuration values (secrets decrypted: handle with care). */
  async config(): Promise<Record<string, ConfigValue>> {
    return this.backend.readConfig();
  }

  /** Sets a configuration value; secret values are encrypted at rest. */
  async setConfig(key: string, value: string, opts: { secret?: boolean } = {}): Promise<void> {
    await this.backend.setConfig(key, value, { secret: opts.secret ?? false });
  }

  /** Removes a configuration value. */
  async removeConfig(key: string): Promise<boolean> {
    return this.backend.removeConfig(key);
  }

  /**
   * `text` with every secret value this stack has seen masked (and their JSON-escaped and base64 forms): the
   * CLI passes all it prints through it, as the stack does its events and errors.
   *
   * @example stack.redact(`url: ${url}`) // "url: db://admin:[secret]@host"
   */
  redact(text: string): string {
    return this.secrets.redact(text);
  }

  /** Which stacks of this stack's backend read which (`stack graph`), from the references in their states. */
  async stackGraph(): Promise<StackGraph> {
    return stackGraph(this.backend, this.access);
  }

  /** The project's stacks in this stack's backend, sorted. */
  async stacks(): Promise<string[]> {
    return this.backend.listStacks();
  }

  /** Where the stack's state lives (a URL without credentials). */
  get stateUrl(): string {
    return this.backend.url;
  }

  /** The stored versions of the stack's state, oldest first. */
  async history(): Promise<HistoryEntry[]> {
    return this.backend.history();
  }

  /** Makes stored version `version` current again (as a new version), under the lock; changes nothing in the cloud. */
  async rollback(version: number): Promise<RollbackResult> {
    return this.backend.rollback(version);
  }

  /**
   * Rebuilds the newest state from the journal and the stored versions when the snapshot is damaged (or
   * behind its journal), under the lock; `confirm` sees what was recovered, and nothing is written unless it
   * agrees. Works from the stored state alone: the program is not evaluated. Changes nothing in the cloud.
   */
  async recoverState(opts: { confirm?: (plan: RecoveryPlan) => Promise<boolean> } = {}): Promise<RecoveryResult> {
    return this.backend.recover(opts);
  }

  /** Copies the stack (state, journal, config, history) to another backend under both locks, and verifies the copy. */
  async migrate(to: string | StateBackend): Promise<MigrateResult> {
    const target =
      typeof to === "string"
        ? openBackend({ backend: to, stack: this.name, project: this.program.name, passphrase: this.options.passphrase ?? process.env.CAIRN_PASSPHRASE })
        : to;
    return migrateStack(this.backend, target);
  }

  // State surgery: `state show/rm/mv/import/unprotect`, `stack ls/rm/restore`. Each change is made under the
  // lock, after `confirm`, on a state whose previous version is kept in history (`state rollback` undoes it).

  /** A recorded resource by URN or name (unique), with the recorded resources that depend on it. */
  async showResource(ref: string): Promise<{ resource: ResourceState; dependents: Urn[] }> {
    const { state } = await this.backend.load();
    const resource = findResource(state, ref);
    return { resource, dependents: dependentsOf(state, resource.urn).map((r) => r.urn) };
  }

  /**
   * Forgets resources (URNs or names) without deleting their cloud objects. Refuses one that another
   * recorded resource depends on, or that is protected, unless `force`.
   */
  async forget(refs: readonly string[], opts: { force?: boolean; confirm?: (plan: ForgetPlan) => Promise<boolean> } = {}): Promise<StateEdit<ForgetPlan>> {
    return this.editState("state rm", (state) => planForget(state, refs, { force: opts.force ?? false }), opts.confirm);
  }

  /**
   * Renames a recorded resource (`to`: a new name, or a whole URN to move it under other parents) without
   * replacing its object; records that point at it, and its descendants, follow.
   */
  async rename(from: string, to: string, opts: { confirm?: (plan: RenamePlan) => Promise<boolean> } = {}): Promise<StateEdit<RenamePlan>> {
    const declared = new Map<Urn, Urn | undefined>();
    try {
      const ev = await evaluateProgram(this.program, { stack: this.name, config: await this.backend.readConfig(), ...this.evalDefaults() });
      for (const n of ev.nodes) declared.set(n.urn, n.parent?.urn);
    } catch {
      // Parents are then kept or dropped by their types; the next up records the program's.
    }
    return this.editState("state mv", (state) => planRename(state, from, to, declared), opts.confirm);
  }

  /**
   * Reads an existing object through its type's provider and adopts it as the program's resource `name`
   * (which the program must declare): the next preview shows no change if the program declares the
   * object's values.
   */
  async importResource(type: string, name: string, id: string, opts: { confirm?: (plan: ImportPlan) => Promise<boolean> } = {}): Promise<StateEdit<ImportPlan>> {
    const { runtime } = await this.prepare();
    const node = declaredResource(runtime.graph.order, type, name, this.program.name);
    const provider = this.providers(type, node.urn, node.definition);
    const read = provider && (() => provider.read({ urn: node.urn, id, inputs: {}, outputs: {}, ctx: this.readContext(node.urn, undefined, node.provider) }) as Promise<Props | undefined>);
    return this.editState<ImportPlan>("state import", (state) => planImport(state, { node, graph: runtime.graph, type, id, read }), opts.confirm, { create: true });
  }

  /** Clears `protect` on a recorded resource, so it may be deleted or replaced (if the program no longer sets it). */
  async unprotect(ref: string, opts: { confirm?: (plan: UnprotectPlan) => Promise<boolean> } = {}): Promise<StateEdit<UnprotectPlan>> {
    return this.editState<UnprotectPlan>("state unprotect", (state) => {
      const resource = findResource(state, ref);
      const { protect: _was, ...rest } = resource;
      return { resource, mutations: resource.protect ? [{ kind: "upsert", resource: rest }] : [] };
    }, opts.confirm);
  }

  /** The project's stacks in this backend, at a glance: resources, last update, lock holder. */
  async stackSummaries(): Promise<StackSummary[]> {
    return stackSummaries(this.admin);
  }

  /**
   * Deletes the stack from its backend (changes nothing in the cloud), keeping a copy in a backup file
   * that {@link restoreStack} reads back. Refuses while resources remain in it, unless `force`.
   */
  async removeStack(opts: { force?: boolean; confirm?: (found: StackSummary) => Promise<boolean>; backupDir?: string } = {}): Promise<StackRemoval> {
    return removeStack(this.admin, opts);
  }

  /** Writes a stack removed by {@link removeStack} back into this backend, which must hold nothing of it. */
  async restoreStack(data: StackExport, opts: { confirm?: (data: StackExport) => Promise<boolean> } = {}): Promise<RestoredStack> {
    return restoreStack(this.admin, data, opts);
  }

  /** This stack as the stack administration commands see it. */
  private get admin(): AdminTarget {
    const objectBackend = typeof this.options.backend === "object";
    return {
      backend: this.backend, project: this.program.name, stack: this.name, programDir: this.program.location.dir,
      sibling: (name) => (objectBackend ? undefined : this.sibling(name).backend),
    };
  }

  /** Which stack plans are made for, and applied to. */
  private get planFor(): PlanFor {
    return { project: this.program.name, stack: this.name };
  }

  /** The same program's stack `name`, in the same backend. */
  private sibling(name: string): Stack {
    return new Stack(this.program, { ...this.options, stack: name });
  }

  /** Plans a state change, confirms it, and writes it as a new version after the current one is kept. */
  private async editState<P extends { mutations: StateMutation[] }>(
    command: string,
    plan: (state: StackState) => P | Promise<P>,
    confirm?: (plan: P) => Promise<boolean>,
    opts: { create?: boolean } = {},
  ): Promise<StateEdit<P>> {
    return this.locked(command, async (state) => {
      if (!opts.create && state.serial === 0 && !(await this.backend.summary()).exists) throw new CairnError(`Stack "${this.name}" does not exist in ${this.backend.url}; nothing was changed.`);
      const p = await plan(state);
      if (p.mutations.length === 0 || (confirm && !(await confirm(p)))) return { ...p, applied: false };
      const journal = this.backend.openJournal(state);
      // The state before the change must be a stored version, so `state rollback` can bring it back.
      const kept = (await this.backend.history()).some((h) => h.version === state.serial);
      const before = kept ? state : await journal.compact();
      journal.mutate(p.mutations);
      const saved = await journal.compact();
      await journal.close();
      return { ...p, applied: true, previousVersion: before.serial, version: saved.serial };
    });
  }
}
