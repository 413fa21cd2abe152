import type { Resolvable } from "../program/resolver.js";
import { outputProblems } from "../runtime/json-values.js";
import { setMaxListeners } from "node:events";
import type { Graph } from "../graph/graph.js";
import { isPartial, type Plan } from "../plan/plan.js";
import { resolveStackOutputs } from "../runtime/stack-output-values.js";
import { ValueResolver, unknownValue } from "../runtime/values.js";
import type { GraphNode } from "../program/node.js";
import type { Urn } from "../core/urn.js";
import { containsUnknown } from "../core/unknown.js";
import type { Clock, Provider, ProviderInstance } from "../provider/provider.js";
import { instanceKey, providerInstanceFor } from "../provider/instance.js";
import type { ProviderSource } from "../program/registry.js";
import type { Props } from "../state/types.js";
import { buildActionGraph, type Action } from "../plan/actions.js";
import { actionKindOf } from "../plan/steps/index.js";
import type { CallContext, HandlerContext, OpContextFactory } from "./context.js";
import type { ApplySummary, EventSink } from "./events.js";
import { SecretRegistry } from "./secret-registry.js";
import type { JournalWriter } from "../state/journal-writer.js";
import { runAction } from "./handlers/index.js";
import { publishWithoutActions, recordPrelude } from "./prelude.js";
import { Scheduler } from "./scheduler.js";
import { reportStall } from "./stall-report.js";
import { emptySummary, reportingHooks } from "./reporting.js";
import { allSignals, endingCalls, type RunSignals } from "./run-signals.js";
import { WaitPoller } from "../wait/waiter.js";
import { DEFAULT_RETRY_DEADLINE_MS } from "../core/retry-policy.js";
import { InFlight } from "./in-flight.js";
import { ActionRuns } from "./action-runs.js";
import { NodeTable } from "../program/node-table.js";

/** The evaluated program behind a plan: what unknown inputs are resolved against at apply. */
export interface ProgramRuntime {
  graph: Graph;
  nodeByUrn: ReadonlyMap<Urn, GraphNode>;
  programOutputs: Record<string, unknown>;
  /** The outputs the program made with `apply` (planning runs those nothing used). */
  applies?: readonly Resolvable[];
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
  /** What stops the run: start nothing new, abandon calls in flight, or the process going idle (see {@link RunSignals}). */
  signals?: RunSignals;
  /** The clock waits poll and retries back off by (tests pass a fake one). */
  clock: Clock;
  /** Where providers come from (definitions, or a test's mocks). */
  providers: ProviderSource;
  /** How long a provider call keeps retrying transient failures, from its first failure. Default 5 minutes. */
  retryDeadlineMs?: number;
}

/** What a provider call uses of the run: the slots, the journal, the signals; and how it tells it started or paused. */
function callContextFor(input: ExecuteInput, signals: RunSignals, inFlight: InFlight, runs: ActionRuns, scheduler: Scheduler<Action>): CallContext {
  return {
    journal: input.journal, events: input.events, clock: input.clock, signals, opContext: input.opContext,
    retryDeadlineMs: input.retryDeadlineMs ?? DEFAULT_RETRY_DEADLINE_MS,
    lateResults: [],
    inFlight,
    calling: (action) => runs.report(action),
    waiting: (action, paused) => (paused ? scheduler.pause(action.id) : scheduler.resume(action.id)),
  };
}

/** What handlers read of the run: providers and their instances, secrets, the poller, and each action's resolver. */
function handlerContextFor(input: ExecuteInput, calls: CallContext, values: ValueResolver, runs: ActionRuns): HandlerContext {
  const { signals } = calls;
  return {
    calls, journal: input.journal, events: input.events, secrets: input.secrets ?? new SecretRegistry(),
    poller: new WaitPoller({
      clock: input.clock,
      opContext: (urn, timeoutMs, provider) => {
        const signal = AbortSignal.any([AbortSignal.timeout(timeoutMs), ...allSignals(signals)]);
        return input.opContext(urn, { signal, timeoutMs, ...(provider ? { provider } : {}) });
      },
      ...(signals.stopStarting ? { signal: signals.stopStarting } : {}),
    }),
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
 * calls before them run, so one durable write covers several rounds of fast calls (without, fast calls
 * spend most of their time waiting for fsync). As many as the
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
 * The executor asks the step and action kinds' specs and handlers; it never switches on a kind itself.
 *
 * @example const { summary } = await execute({ plan, journal, parallel: 10, events, opContext, clock, providers });
 */
export async function execute(input: ExecuteInput): Promise<{ summary: ApplySummary; outputs?: { values: Props; secretKeys: string[] } }> {
  const { plan, journal, signals = {} } = input;
  const started = Date.now();
  // Poll rounds and calls listen to these while they run: many at once is expected, not a leak.
  for (const s of allSignals(signals)) setMaxListeners(0, s);
  recordPrelude(plan, journal);
  const { actions, deps } = buildActionGraph(plan);
  const inFlight = new InFlight(endingCalls(signals), input.parallel);
  // More actions run than there are slots: those ahead journal their calls while the slots' calls run.
  const runningAtMost = () => input.parallel + stagedAhead(inFlight.callsPerSecond());
  const slot = (a: Action) => actionKindOf(a).slot;
  const scheduler = new Scheduler(actions, deps, { parallel: runningAtMost, slot, stopStarting: signals.stopStarting });
  const values = new ValueResolver(() => scheduler.poke(), undefined, input.program?.graph.order.length);
  const runs = new ActionRuns(actions.length, input.events);
  const calls = callContextFor(input, signals, inFlight, runs, scheduler);
  const ctx = handlerContextFor(input, calls, values, runs);
  const nodes = input.program?.nodeByUrn;
  const node = (urn: Urn) => nodes?.get(urn);
  // Each action's node, found once (handlers read it several times, and in a large stack each lookup in
  // the map by URN is a cache miss or two).
  const nodeAt = actions.map((a) => node(a.step.urn));
  if (input.program) publishWithoutActions(input.program.graph.order, plan, producedBy(actions, nodeAt, input.program.graph.order.length), journal, values);
  const summary = emptySummary();
  const report = reportingHooks({ events: input.events, node }, summary, runs);
  // A failed or skipped action's value is published as unknown, so what still reads it (the stack's
  // outputs, an `apply` callback) resolves instead of waiting for ever.
  const unknownAfter = (a: Action) => {
    const n = nodeAt[a.index];
    if (n && actionKindOf(a).makesValue) values.publish(n, unknownValue());
  };
  await scheduler.run({
    ...report,
    run: async (action, i) => {
      const n = nodeAt[i];
      const r = await runAction(action, ctx, n);
      const mutations = typeof r.changes === "function" ? r.changes(journal.state) : r.changes;
      if (r.op !== undefined) journal.end(r.op, mutations);
      else if (mutations.length) journal.mutate(mutations);
      if (r.value && n) values.publish(n, r.value);
    },
    failed: (action, e) => {
      report.failed(action, e);
      unknownAfter(action);
    },
    skipped: (action, reason) => {
      report.skipped(action, reason);
      unknownAfter(action);
    },
    blocked: (action) => (runs.scopeOf(action)?.awaiting.size ?? 0) > 0,
    stalled: (running) => reportStall(running, (a) => runs.scopeOf(a), scheduler, { events: input.events, node }),
  });
  await lateAnswers(calls.lateResults);
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
      input.events.next({ type: "diagnostic", severity: "error", summary: notJson.get(k)!, attribute: k });
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
