import { Subject, type Observable } from "rxjs";
import { isAbsolute, join, resolve } from "node:path";
import { isDeepStrictEqual } from "node:util";
import type { Program, Evaluation } from "../program/program.js";
import type { Urn } from "../program/urn.js";
import type { ConfigValue } from "../program/config.js";
import { buildGraph } from "../graph/graph.js";
import { makePlan, planDeletes, type PlanOptions, type PlanRuntime } from "../plan/planner.js";
import type { Plan } from "../plan/plan.js";
import { execute } from "../apply/executor.js";
import type { ApplySummary, EngineEvent } from "../apply/events.js";
import type { Clock, OpContext, ProviderInstance } from "../provider/provider.js";
import { instanceKey, providerInstanceFor } from "../provider/instance.js";
import { findDefinition } from "../provider/registry.js";
import { openBackend } from "../state/open-backend.js";
import type { HistoryEntry, RollbackResult, StateBackend } from "../state/backend.js";
import type { UnlockResult } from "../state/lock-holder.js";
import { migrateStack, type MigrateResult } from "../state/migrate.js";
import type { PendingOperation, Props, ProviderRecord, ResourceState, StackState, StateMutation } from "../state/types.js";
import { realClock } from "./clock.js";
import { CairnError } from "./errors.js";

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
  /** Provider operations at once (default 10). */
  parallel?: number;
  /** The clock waits poll by; tests pass a `FakeClock` from `cairn/testing`. */
  clock?: Clock;
  /** Cancels the run: no new operations start; running ones finish and are saved. */
  signal?: AbortSignal;
}

/** Options for `preview` and `up`. */
export interface RunOptions extends PlanOptions {
  /** Read every resource from the cloud before planning. */
  refresh?: boolean;
}

/** What `up` and `destroy` return. */
export interface UpResult {
  plan: Plan;
  /** Absent when the plan was not confirmed. */
  summary?: ApplySummary;
  outputs?: Props;
  /** Bytes this apply wrote to state (journal records and the compacted snapshot). */
  stateBytesWritten?: number;
}

/** A difference a refresh found between state and reality. */
export type RefreshChange =
  | { kind: "gone"; urn: Urn; type: string }
  | { kind: "drift"; urn: Urn; type: string; changed: string[] };

/** Decides whether to go ahead with a plan (the CLI asks on a TTY, or takes `--yes`). */
export type Confirm = (plan: Plan) => Promise<boolean>;

const runtimes = new WeakMap<Plan, { runtime?: PlanRuntime; refresh: StateMutation[] }>();

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

  constructor(
    readonly program: Program,
    readonly options: StackOptions = {},
  ) {
    this.name = options.stack ?? "dev";
    this.clock = options.clock ?? realClock;
    const dir = options.stateDir ?? process.env.CAIRN_STATE_DIR ?? join(program.location.dir, ".cairn");
    this.backend = openBackend({
      backend: options.backend ?? (options.stateDir === undefined ? process.env.CAIRN_BACKEND : undefined),
      stateDir: isAbsolute(dir) ? dir : resolve(dir),
      stack: this.name,
      project: program.name,
      passphrase: options.passphrase ?? process.env.CAIRN_PASSPHRASE,
      programHint: program.location.command.replace(/^npx tsx /, ""),
    });
  }

  private note(severity: "info" | "warning" | "error", message: string, urn?: Urn) {
    this.subject.next({ type: "diagnostic", severity, message, ...(urn ? { urn } : {}) });
  }

  private opContext = (urn: Urn, timeout?: number, provider?: ProviderInstance): OpContext => {
    const signals = [this.options.signal, timeout ? AbortSignal.timeout(Math.ceil(timeout)) : undefined].filter((s): s is AbortSignal => !!s);
    return {
      signal: signals.length ? AbortSignal.any(signals) : new AbortController().signal,
      log: { info: (m) => this.note("info", m, urn), warn: (m) => this.note("warning", m, urn) },
      clock: this.clock,
      workDir: this.program.location.dir,
      ...(timeout ? { timeout: timeout as OpContext["timeout"] } : {}),
      ...(provider ? { provider } : {}),
    };
  };

  /** Runs `fn` holding the stack's lock, with the state loaded and interrupted operations reconciled. */
  private async locked<T>(command: string, fn: (state: StackState) => Promise<T>): Promise<T> {
    const lock = await this.backend.lock({ command });
    try {
      for (const n of lock.notes) this.note("warning", n);
      const loaded = await this.backend.load();
      for (const n of loaded.notes) this.note("warning", n);
      let state = loaded.state;
      if (loaded.pending.length) state = await this.reconcile(state, loaded.pending);
      return await fn(state);
    } finally {
      await lock.release();
    }
  }

  /** Settles operations a crash left pending: reads each object, then adopts or discards it. */
  private async reconcile(state: StackState, pending: PendingOperation[]): Promise<StackState> {
    const journal = await this.backend.openJournal(state);
    for (const p of pending) {
      const what = `${p.kind} of ${p.urn} (started ${p.since})`;
      const current = journal.state.resources[p.urn];
      const def = findDefinition(p.type);
      if (p.id === undefined || !def) {
        this.note("warning", `An interrupted ${what} was found. ${p.id === undefined ? "Its object id was never recorded, so it cannot be read back; the next plan creates it again (providers make creates idempotent where the cloud allows). If an object was left behind, delete it by hand." : `No provider for type ${p.type} is loaded, so it cannot be checked.`}`, p.urn);
        journal.end(p.op, []);
        continue;
      }
      const inputs = current?.id === p.id ? current.inputs : (current?.deposed?.find((d: { id: string }) => d.id === p.id)?.inputs ?? {});
      const outputs = current?.id === p.id ? current.outputs : (current?.deposed?.find((d: { id: string }) => d.id === p.id)?.outputs ?? {});
      let read: Props | undefined;
      try {
        const recorded = current?.id === p.id ? current.provider : (current?.deposed?.find((d) => d.id === p.id)?.provider ?? current?.provider);
        read = await def.provider.read({ urn: p.urn, id: p.id, inputs, outputs, ctx: this.opContext(p.urn, undefined, this.instanceFor(p.type, recorded)) });
      } catch (e) {
        throw new CairnError(`An interrupted ${what} could not be checked: ${(e as Error).message}. Nothing was changed; run again when the provider is reachable.`);
      }
      const mutations: StateMutation[] = [];
      if (current && current.id === p.id) {
        if (read === undefined) mutations.push({ kind: "remove", urn: p.urn });
        else mutations.push({ kind: "upsert", resource: { ...current, outputs: read } });
      } else if (current?.deposed?.some((d: { id: string }) => d.id === p.id) && read === undefined) {
        const rest = current.deposed.filter((d: { id: string }) => d.id !== p.id);
        const next: ResourceState = { ...current };
        if (rest.length) next.deposed = rest;
        else delete next.deposed;
        mutations.push({ kind: "upsert", resource: next });
      }
      this.note("warning", `An interrupted ${what} was found: the object ${read === undefined ? "is gone; it was removed from state" : "exists; its current attributes were adopted"}.`, p.urn);
      journal.end(p.op, mutations);
    }
    const saved = await journal.compact();
    await journal.close();
    return saved;
  }

  // The program's provider instances by package and name, from its latest evaluation.
  private live = new Map<string, ProviderInstance>();

  private remember(ev: Evaluation): void {
    for (const n of ev.nodes) if (n.provider) this.live.set(instanceKey(n.provider.package, n.provider.name), n.provider);
  }

  /**
   * Evaluates the program, best effort, to learn its provider instances: destroy, refresh and crash recovery
   * must reach each object with the credentials of the instance that made it, yet still work when the
   * program no longer evaluates (then the recorded region/endpoint and the default credentials are used).
   */
  private async declareProviders(): Promise<void> {
    try {
      this.remember(await this.program.evaluate({ stack: this.name, config: await this.backend.readConfig() }));
    } catch (e) {
      this.note("warning", `The program could not be evaluated (${(e as Error).message}); resources with a named provider instance are reached with their recorded settings and the default credentials.`);
    }
  }

  /** The instance for an object recorded with `record`: the program's live one of that name, else the record. */
  private instanceFor(type: string, record: ProviderRecord | undefined): ProviderInstance | undefined {
    return providerInstanceFor(type, record, record ? this.live.get(instanceKey(type, record.name)) : undefined);
  }

  private async evaluate(): Promise<Evaluation> {
    const config = await this.backend.readConfig();
    let ev: Evaluation;
    try {
      ev = await this.program.evaluate({ stack: this.name, config });
    } catch (e) {
      if (e instanceof CairnError) throw e;
      throw new CairnError(`The program "${this.program.name}" failed while declaring its resources: ${(e as Error).message}`);
    }
    if (ev.diagnostics.length) throw new CairnError(`The program "${this.program.name}" has ${ev.diagnostics.length} problem(s):`, ev.diagnostics.map((d) => d.message));
    this.remember(ev);
    return ev;
  }

  /** Reads every resource in state; returns the changes found and the state mutations recording them. */
  private async readAll(state: StackState): Promise<{ changes: RefreshChange[]; mutations: StateMutation[] }> {
    const changes: RefreshChange[] = [];
    const mutations: StateMutation[] = [];
    await Promise.all(
      Object.values(state.resources).map(async (r) => {
        const def = findDefinition(r.type);
        if (!def) {
          this.note("warning", `Cannot refresh ${r.urn}: no provider for type ${r.type} is loaded.`, r.urn);
          return;
        }
        const read = await def.provider.read({ urn: r.urn, id: r.id, inputs: r.inputs, outputs: r.outputs, ctx: this.opContext(r.urn, undefined, this.instanceFor(r.type, r.provider)) });
        if (read === undefined) {
          changes.push({ kind: "gone", urn: r.urn, type: r.type });
          mutations.push({ kind: "remove", urn: r.urn });
        } else if (!isDeepStrictEqual(read, r.outputs)) {
          const keys = new Set([...Object.keys(read), ...Object.keys(r.outputs)]);
          changes.push({ kind: "drift", urn: r.urn, type: r.type, changed: [...keys].filter((k) => !isDeepStrictEqual(read[k], r.outputs[k])) });
          mutations.push({ kind: "upsert", resource: { ...r, outputs: read } });
        }
      }),
    );
    return { changes, mutations };
  }

  private async planAgainst(state: StackState, opts: RunOptions): Promise<Plan> {
    const ev = await this.evaluate();
    let graph;
    try {
      graph = buildGraph(ev.nodes);
    } catch (e) {
      throw new CairnError((e as Error).message);
    }
    let refresh: StateMutation[] = [];
    let drifted = new Set<string>();
    let prior = state;
    if (opts.refresh) {
      const r = await this.readAll(state);
      refresh = r.mutations;
      drifted = new Set(r.changes.filter((c) => c.kind === "drift").map((c) => c.urn));
      prior = structuredClone(state);
      for (const m of refresh) {
        if (m.kind === "remove") delete prior.resources[m.urn];
        else if (m.kind === "upsert") prior.resources[m.resource.urn] = m.resource;
      }
    }
    const { plan, runtime } = await makePlan(
      { project: this.program.name, stack: this.name, graph, programOutputs: ev.outputs, state: prior, drifted, opContext: this.opContext },
      opts,
    );
    plan.baseSerial = state.serial;
    runtimes.set(plan, { runtime, refresh });
    return plan;
  }

  /** Plans without changing anything. The plan can be given to {@link apply} (same state serial required). */
  async preview(opts: RunOptions = {}): Promise<Plan> {
    return this.locked("preview", (state) => this.planAgainst(state, opts));
  }

  /** Plans, asks `confirm` (default: yes), and applies exactly that plan, all under one lock. */
  async up(opts: RunOptions & { confirm?: Confirm } = {}): Promise<UpResult> {
    return this.locked("up", async (state) => {
      const plan = await this.planAgainst(state, opts);
      return this.confirmAndApply(plan, state, opts.confirm);
    });
  }

  /** Applies a plan made earlier by {@link preview}; refuses if the state changed since. */
  async apply(plan: Plan): Promise<UpResult> {
    return this.locked("up", (state) => this.confirmAndApply(plan, state, undefined));
  }

  /** Plans the deletion of every resource in state (no program run needed), confirms and applies it. */
  async destroy(opts: { targets?: readonly Urn[]; confirm?: Confirm } = {}): Promise<UpResult> {
    await this.declareProviders();
    return this.locked("destroy", async (state) => {
      const diagnostics: Plan["diagnostics"] = [];
      const targets = opts.targets?.length ? new Set<string>(opts.targets) : undefined;
      const steps = planDeletes(state, new Set(), [], targets, diagnostics);
      const plan: Plan = { project: this.program.name, stack: this.name, baseSerial: state.serial, destroy: true, steps, outputs: {}, secretOutputs: [], outputsChanged: Object.keys(state.outputs).length > 0, diagnostics };
      runtimes.set(plan, { refresh: [] });
      return this.confirmAndApply(plan, state, opts.confirm);
    });
  }

  private async confirmAndApply(plan: Plan, state: StackState, confirm: Confirm | undefined): Promise<UpResult> {
    const errors = plan.diagnostics.filter((d) => d.severity === "error");
    if (errors.length) throw new CairnError(`The plan has ${errors.length} error(s); nothing was changed:`, errors.map((d) => d.message));
    if (plan.baseSerial !== state.serial) {
      throw new CairnError(
        `The state of stack "${this.name}" changed since this plan was made (serial ${plan.baseSerial} → ${state.serial}); nothing was applied. Run preview again and apply the new plan.`,
      );
    }
    const extra = runtimes.get(plan);
    if (!extra) throw new CairnError("This plan was not made by this process's preview(); plans carry the evaluated program and cannot be applied from JSON.");
    if (confirm && !(await confirm(plan))) return { plan };
    if (planHasSecrets(plan)) await this.backend.requirePassphrase();
    const journal = await this.backend.openJournal(state);
    if (extra.refresh.length) journal.mutate(extra.refresh);
    const { summary, outputs } = await execute({
      plan,
      runtime: extra.runtime,
      instances: this.live,
      journal,
      parallel: this.options.parallel ?? 10,
      events: this.subject,
      opContext: this.opContext,
      clock: this.clock,
      ...(this.options.signal ? { signal: this.options.signal } : {}),
    });
    await journal.compact();
    await journal.close();
    return { plan, summary, stateBytesWritten: journal.bytesWritten, ...(outputs ? { outputs: outputs.values } : {}) };
  }

  /** Reads every resource and reports drift; with `confirm` returning true, records it in state (changes nothing in the cloud). */
  async refresh(opts: { confirm?: (changes: RefreshChange[]) => Promise<boolean> } = {}): Promise<{ changes: RefreshChange[]; applied: boolean }> {
    await this.declareProviders();
    return this.locked("refresh", async (state) => {
      const { changes, mutations } = await this.readAll(state);
      if (changes.length === 0) return { changes, applied: false };
      if (opts.confirm && !(await opts.confirm(changes))) return { changes, applied: false };
      const journal = await this.backend.openJournal(state);
      journal.mutate(mutations);
      await journal.compact();
      await journal.close();
      return { changes, applied: true };
    });
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

  /** Copies the stack (state, journal, config, history) to another backend under both locks, and verifies the copy. */
  async migrate(to: string | StateBackend): Promise<MigrateResult> {
    const target =
      typeof to === "string"
        ? openBackend({ backend: to, stack: this.name, project: this.program.name, passphrase: this.options.passphrase ?? process.env.CAIRN_PASSPHRASE })
        : to;
    return migrateStack(this.backend, target);
  }
}

/** True when applying the plan writes secret values to state (so a passphrase is needed first). */
function planHasSecrets(plan: Plan): boolean {
  return plan.secretOutputs.length > 0 || plan.steps.some((s) => "secretKeys" in s && s.secretKeys.length > 0 && s.kind !== "delete");
}
