import type { Settleable } from "../program/resolver.js";
import { outputProblems } from "../runtime/json-values.js";
import { setMaxListeners } from "node:events";
import type { Graph } from "../graph/graph.js";
import { isPartial, type Plan } from "../plan/plan.js";
import { resolveStackOutputs } from "../runtime/stack-output-values.js";
import { ValueResolver, unknownValue, type ScopedResolver } from "../runtime/values.js";
import type { GraphNode } from "../program/node.js";
import type { Urn } from "../core/urn.js";
import { containsUnknown } from "../core/unknown.js";
import type { Clock, Provider, ProviderInstance } from "../provider/provider.js";
import { instanceKey, providerInstanceFor } from "../provider/instance.js";
import type { ProviderSource } from "../program/registry.js";
import type { Props } from "../state/types.js";
import { buildActionGraph, callsProvider, type Action } from "../plan/actions.js";
import type { ApplyContext, OpContextFactory } from "./context.js";
import type { ApplySummary, EventSink } from "./events.js";
import { SecretRegistry } from "./secret-registry.js";
import type { JournalWriter } from "../state/journal-writer.js";
import { runAction } from "./handlers/index.js";
import { actionKindOf } from "../plan/steps/index.js";
import { labelOf } from "./handlers/wait.js";
import { redactorFor } from "./handlers/common.js";
import { withSite } from "../core/declaration-site.js";
import { publishSettled, recordPrelude } from "./prelude.js";
import { Scheduler, type SchedulerHooks } from "./scheduler.js";
import { reportStall } from "./stall-report.js";
import { WaitPoller } from "../wait/waiter.js";
import { DEFAULT_RETRY_DEADLINE_MS } from "../core/retry-policy.js";
import { InFlight } from "./in-flight.js";
import { ActionRuns } from "./action-runs.js";
import { NodeTable } from "../program/node-table.js";
import { describeWaitOutcome, type WaitOutcome } from "../wait/outcome.js";
import { thrownMessage } from "../core/thrown.js";
import { isLateDeclaration } from "../program/deferral/late-declaration.js";

/** The evaluated program behind a plan: what unknown inputs are resolved against at apply. */
export interface ProgramRuntime {
  graph: Graph;
  nodeByUrn: ReadonlyMap<Urn, GraphNode>;
  programOutputs: Record<string, unknown>;
  /** The outputs the program made with `apply` (planning runs those nothing used). */
  applies?: readonly Settleable[];
}

/** What the executor needs to carry out a plan. */
export interface ExecuteInput {
  plan: Plan;
  /** The evaluated program (absent for `destroy` and `--refresh-only`, which need none). */
  program?: ProgramRuntime;
  journal: JournalWriter;
  /** How many provider operations may run at once. */
  parallel: number;
  events: EventSink;
  /** Secret values seen so far; the apply adds what it meets (events are redacted against it by the sink). */
  secrets?: SecretRegistry;
  opContext: OpContextFactory;
  /** The program's provider instances, keyed by {@link instanceKey}. */
  instances?: ReadonlyMap<string, ProviderInstance>;
  /** Stops starting new work; running provider calls finish and are saved (waits stop polling). */
  cancel?: AbortSignal;
  /** Abandons provider calls in flight (they stay recorded as uncertain). */
  abort?: AbortSignal;
  /** Aborted when the process would go idle with calls unsettled. */
  stuck?: AbortSignal;
  /** The clock waits poll and retries back off by (tests pass a fake one). */
  clock: Clock;
  /** Where providers come from (definitions, or a test's mocks). */
  providers: ProviderSource;
  /** How long a provider call keeps retrying transient failures, from its first failure. Default 5 minutes. */
  retryDeadlineMs?: number;
}

function contextFor(input: ExecuteInput, values: ValueResolver, runs: ActionRuns, scheduling: () => Scheduler<Action>): ApplyContext {
  const nodes = input.program?.nodeByUrn;
  return {
    plan: input.plan, journal: input.journal, values, events: input.events, clock: input.clock, secrets: input.secrets ?? new SecretRegistry(),
    cancel: input.cancel, abort: input.abort, stuck: input.stuck, opContext: input.opContext,
    retryDeadlineMs: input.retryDeadlineMs ?? DEFAULT_RETRY_DEADLINE_MS,
    lateResults: [],
    inFlight: new InFlight([input.abort, input.stuck], input.parallel),
    calling: (action) => runs.report(action),
    waiting: (action, paused) => (paused ? scheduling().pause(action.id) : scheduling().resume(action.id)),
    poller: new WaitPoller({
      clock: input.clock,
      opContext: (urn, timeoutMs, provider) => {
        const signal = AbortSignal.any([AbortSignal.timeout(timeoutMs), ...[input.cancel, input.abort, input.stuck].filter((x): x is AbortSignal => x !== undefined)]);
        return input.opContext(urn, { signal, timeoutMs, ...(provider ? { provider } : {}) });
      },
      ...(input.cancel ? { signal: input.cancel } : {}),
    }),
    node: (urn) => nodes?.get(urn),
    provider: (type, urn, node) => {
      const p = input.providers(type, urn, node && node.kind !== "wait" ? node.definition : undefined);
      if (!p) throw new Error(`no resource type "${type}" is defined in this program, so its provider is unknown`);
      return p as Provider<Props, Props>;
    },
    // An object recorded under other settings (the old half of a replace, a resource removed from the program)
    // is reached where state says it lives, with the credentials of the program's instance of that name.
    instance: (node, recorded) => {
      if (!recorded) return node?.provider;
      const live = recorded.provider ? input.instances?.get(instanceKey(recorded.type, recorded.provider.name)) : undefined;
      return providerInstanceFor(recorded.type, recorded.provider, live);
    },
    scope: (action) => {
      const s = values.scope();
      runs.setScope(action, s);
      return s;
    },
  };
}

/** The scheduler's hooks: events, the summary, and values for dependents as actions end. */
function hooksFor(ctx: ApplyContext, summary: ApplySummary, runs: ActionRuns, nodeAt: readonly (GraphNode | undefined)[], scheduler: () => Scheduler<Action>): SchedulerHooks<Action> {
  const { events, journal } = ctx;
  // Steps deferred to the next round (see `LateDeclarationError`), with what depends on them.
  const deferred = new Set<string>();
  const defer = (action: Action, why: string) => {
    deferred.add(action.id);
    summary.deferred = (summary.deferred ?? 0) + 1;
    events.next({ type: "step-skipped", urn: action.step.urn, kind: action.kind, reason: `deferred to the next round: ${why}` });
  };
  const lose = (a: Action) => {
    const node = ctx.node(a.step.urn);
    if (node && actionKindOf(a).makesValue) ctx.values.publish(node, unknownValue());
  };
  return {
    run: async (action, i) => {
      const node = nodeAt[i];
      const r = await runAction(action, ctx, node);
      const mutations = typeof r.changes === "function" ? r.changes(journal.state) : r.changes;
      if (r.op !== undefined) journal.end(r.op, mutations);
      else if (mutations.length) journal.mutate(mutations);
      if (r.value && node) ctx.values.publish(node, r.value);
    },
    started: (action) => {
      if (!callsProvider(action.kind)) runs.report(action);
    },
    succeeded: (action) => {
      const durationMs = runs.finished(action); // only running actions are asked what they wait for
      summary.succeeded++;
      summary.done[action.kind] = (summary.done[action.kind] ?? 0) + 1;
      events.next({ type: "step-succeeded", urn: action.step.urn, kind: action.kind, durationMs });
    },
    failed: (action, e) => {
      runs.report(action); // a failure is always reported after its start, even one before its call
      runs.drop(action);
      if (isLateDeclaration(e)) return defer(action, "a value it reads declares resources no plan included"), lose(action);
      summary.failed++;
      events.next({ type: "step-failed", urn: action.step.urn, kind: action.kind, error: withSite(redactorFor(action.step)(thrownMessage(e, `the provider of ${action.step.type}`)), ctx.node(action.step.urn)?.site) });
      lose(action);
    },
    skipped: (action, reason) => {
      if (reason.kind === "dependency-failed" && deferred.has(reason.dependency)) {
        return defer(action, `it follows ${reason.dependency.split("#")[0]}`), lose(action);
      }
      summary.skipped++;
      const text = reason.kind === "cancelled" ? "cancelled" : `dependency failed: ${reason.dependency.split("#")[0]}`;
      events.next({ type: "step-skipped", urn: action.step.urn, kind: action.kind, reason: text });
      if (action.kind === "wait") {
        const outcome: WaitOutcome = reason.kind === "dependency-failed" ? { kind: "dependency-failed", dependency: reason.dependency.split("#")[0] as Urn } : { kind: "cancelled", reads: 0, elapsedMs: 0, observed: undefined };
        // A wait cancelled while polling has already reported how it ended.
        if (!runs.reported(action)) events.next({ type: "wait-ended", urn: action.step.urn, name: action.step.name, outcome, message: describeWaitOutcome(labelOf(action.step), outcome) });
      }
      lose(action);
    },
    blocked: (action) => (runs.scopeOf(action)?.awaiting.size ?? 0) > 0,
    stalled: (running) => reportStall(running, (a) => runs.scopeOf(a), scheduler(), ctx),
  };
}

/** The program nodes whose value an action makes (the rest are published before the walk starts). */
function producedBy(actions: readonly Action[], nodeAt: readonly (GraphNode | undefined)[], nodes: number): NodeTable<true, GraphNode> {
  const out = new NodeTable<true, GraphNode>(nodes);
  for (let i = 0; i < actions.length; i++) {
    const node = nodeAt[i];
    if (node && actionKindOf(actions[i]!).makesValue) out.set(node, true);
  }
  return out;
}

/**
 * How many more actions than `parallel` may run: they journal their call and wait for a slot while the
 * calls before them run, so one durable write covers several rounds of fast calls (10,000 zero-latency
 * creates at 10 in parallel spent two thirds of their time waiting for fsync without). As many as the
 * provider is answering in {@link STAGED_FOR_MS}, up to {@link MAX_STAGED}: records written ahead of calls
 * that would start soon anyway. After a crash (not a Ctrl-C, which closes them) their records read as
 * interrupted operations, so for slow providers (a cloud answering ten calls a second) there are none.
 *
 * @example stagedAhead(10_000) // 256: an in-memory provider; stagedAhead(10) // 0
 */
export function stagedAhead(callsPerSecond: number): number {
  return Math.min(MAX_STAGED, Math.floor((callsPerSecond * STAGED_FOR_MS) / 1000));
}

/** Records are written ahead for the calls expected to start within this many milliseconds. */
export const STAGED_FOR_MS = 50;
/** At most this many records ahead of their calls. */
export const MAX_STAGED = 256;

/**
 * Applies a plan: builds its action graph (the order is a property of the graph), then walks it with the
 * scheduler, each action carried out by the handler of its kind. A failure skips only its dependents;
 * every provider call is journaled as pending first and resolved after, so a crash loses nothing.
 */
export async function execute(input: ExecuteInput): Promise<{ summary: ApplySummary; outputs?: { values: Props; secretKeys: string[] } }> {
  const { plan, journal } = input;
  const started = Date.now();
  // Poll rounds and calls listen to these while they run: many at once is expected, not a leak.
  for (const s of [input.cancel, input.abort, input.stuck]) if (s) setMaxListeners(0, s);
  let scheduler: Scheduler<Action> | undefined;
  const values = new ValueResolver(() => scheduler?.poke(), undefined, input.program?.graph.order.length);
  recordPrelude(plan, journal);
  const { actions, deps } = buildActionGraph(plan);
  const runs = new ActionRuns(actions.length, input.events);
  const ctx = contextFor(input, values, runs, () => scheduler!);
  // Each action's node, found once (a handler used to ask for it four or five times; at 100,000 resources
  // each lookup in the map by URN is a cache miss or two).
  const nodeAt = actions.map((a) => ctx.node(a.step.urn));
  if (input.program) publishSettled(input.program.graph.order, plan, producedBy(actions, nodeAt, input.program.graph.order.length), journal, values);
  const summary: ApplySummary = { ok: true, succeeded: 0, failed: 0, skipped: 0, done: {}, durationMs: 0 };
  const window = () => input.parallel + stagedAhead(ctx.inFlight.callsPerSecond());
  const slot = (a: Action) => actionKindOf(a).slot;
  const hooks = hooksFor(ctx, summary, runs, nodeAt, () => scheduler!);
  scheduler = new Scheduler(actions, deps, { parallel: window, slot, ...(input.cancel ? { cancel: input.cancel } : {}), hooks });
  await scheduler.run();
  await lateAnswers(ctx.lateResults);
  summary.ok = summary.failed === 0 && summary.skipped === 0;
  // Parts left for a later round (a partial plan, deferred steps): the outputs may read what only that
  // round declares, and it records them.
  const outputs = isPartial(plan) || summary.deferred ? undefined : await recordOutputs(input, values);
  if (outputs?.unstorable) summary.ok = false; // said as an error diagnostic; the run must not look clean
  summary.durationMs = Date.now() - started;
  input.events.next({ type: "summary", summary });
  return { summary, ...(outputs ? { outputs: { values: outputs.values, secretKeys: outputs.secretKeys } } : {}) };
}

/**
 * How long a run stopped by a second Ctrl-C waits for the answers of the calls it abandoned, to record them.
 * @example setTimeout(giveUp, LATE_ANSWER_GRACE_MS)
 */
const LATE_ANSWER_GRACE_MS = 1000;

/** Waits (briefly) for abandoned calls to answer: whatever arrives before the run ends is journaled, not lost. */
async function lateAnswers(late: readonly Promise<unknown>[]): Promise<void> {
  if (!late.length) return;
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<void>((r) => (timer = setTimeout(r, LATE_ANSWER_GRACE_MS)));
  await Promise.race([Promise.allSettled(late), grace]);
  clearTimeout(timer);
}


/** The stack outputs after the apply: what is known now, else what was recorded before. */
async function recordOutputs(input: ExecuteInput, values: ValueResolver): Promise<{ values: Props; secretKeys: string[]; unstorable: number } | undefined> {
  const { plan, journal } = input;
  if (plan.mode === "destroy") {
    if (plan.outputsChanged) journal.mutate([{ kind: "outputs", outputs: {}, secretOutputs: [] }]);
    return undefined;
  }
  if (!input.program || plan.mode === "refresh-only") return undefined;
  const r = await resolveStackOutputs(input.program.programOutputs, values);
  const prior = journal.state.outputs;
  const priorSecret = new Set(journal.state.secretOutputs ?? []);
  const known: Props = {};
  const secretKeys = new Set(r.secretKeys);
  const notJson = outputProblems(r.values);
  for (const [k, v] of Object.entries(r.values)) {
    if (notJson.has(k)) {
      // Not storable (NaN, a bigint, a function): the recorded value stays, and the problem is said once.
      input.events.next({ type: "diagnostic", severity: "error", message: notJson.get(k)! });
      known[k] = prior[k];
    } else if (!containsUnknown(v)) known[k] = v;
    else {
      // Not known (its resource failed): the recorded value stays, and so does its secrecy.
      known[k] = prior[k];
      if (priorSecret.has(k)) secretKeys.add(k);
    }
  }
  journal.mutate([{ kind: "outputs", outputs: known, secretOutputs: [...secretKeys] }]);
  return { values: known, secretKeys: [...secretKeys], unstorable: notJson.size };
}
