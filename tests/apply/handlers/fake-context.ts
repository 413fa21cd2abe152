// A HandlerContext for calling one action handler directly: a journal that records what it is told, one
// provider for every type, the program's nodes when a test has any, and a real value resolver, secret
// registry and call slots.
import type { Urn } from "../../../src/core/urn.js";
import type { ActionResult, CallContext, HandlerContext, Handler } from "../../../src/apply/context.js";
import type { EngineEvent } from "../../../src/apply/events.js";
import { InFlight } from "../../../src/apply/in-flight.js";
import { SecretRegistry } from "../../../src/apply/secret-registry.js";
import type { Action } from "../../../src/plan/actions.js";
import type { StepMeta } from "../../../src/plan/plan.js";
import type { GraphNode } from "../../../src/program/node.js";
import type { Clock, Provider } from "../../../src/provider/provider.js";
import { ValueResolver } from "../../../src/runtime/values.js";
import type { JournalWriter } from "../../../src/state/journal-writer.js";
import type { OperationKind, Props, ResourceState, StackState, StateMutation } from "../../../src/state/types.js";
import type { WaitPoller, WaitResult, WaitRun } from "../../../src/wait/waiter.js";

/** What the journal was told, in order. */
export type JournalEntry =
  | { t: "begin"; op: number; kind: OperationKind; urn: Urn; id?: string }
  | { t: "end" | "abort"; op: number; m: StateMutation[] }
  | { t: "mutate"; m: StateMutation[] };

/** A journal that keeps its records in a list; its state is the one the test gives. */
export class RecordingJournal implements JournalWriter {
  readonly entries: JournalEntry[] = [];
  private next = 1;
  constructor(public state: StackState) {}
  async begin(op: { kind: OperationKind; urn: Urn; type: string; id?: string }): Promise<number> {
    const n = this.next++;
    this.entries.push({ t: "begin", op: n, kind: op.kind, urn: op.urn, ...(op.id !== undefined ? { id: op.id } : {}) });
    return n;
  }
  async confirm(): Promise<void> {}
  operationId(op: number): string {
    return `op-${op}`;
  }
  async note(): Promise<void> {}
  end(op: number, m: StateMutation[]): void {
    this.entries.push({ t: "end", op, m });
  }
  abort(op: number, m: StateMutation[]): void {
    this.entries.push({ t: "abort", op, m });
  }
  mutate(m: StateMutation[]): void {
    this.entries.push({ t: "mutate", m });
  }
}

export const urnOf = (name: string, type = "test:Db") => `urn:cairn:dev::web::${type}::${name}` as Urn;
export const META: StepMeta = { deps: [], protect: false, retainOnDelete: false };

/** A state holding `resources`. */
export function stateWith(...resources: ResourceState[]): StackState {
  return { version: 1, project: "web", stack: "dev", serial: 1, resources: Object.fromEntries(resources.map((r) => [r.urn, r])), outputs: {} };
}

/** A recorded resource with sensible defaults. */
export function recorded(name: string, over: Partial<ResourceState> = {}): ResourceState {
  return { urn: urnOf(name), type: "test:Db", id: `${name}-1`, inputs: {}, outputs: {}, deps: [], ...over };
}

/** A handler's context, with the lookup of the program's nodes the executor makes for each action. */
export type TestContext = HandlerContext & { node(urn: Urn): GraphNode | undefined };

export interface FakeRun {
  ctx: TestContext;
  journal: RecordingJournal;
  events: EngineEvent[];
  values: ValueResolver;
  /** Actions reported as calling their provider, by id. */
  calling: string[];
  /** The time budget of each provider call made (ms), in order. */
  budgets: (number | undefined)[];
}

/**
 * A HandlerContext around `provider` (used for every type). `poller` answers waits; `nodes` are the
 * program's (a read and a wait need theirs).
 */
export function fakeContext(opts: { provider?: Partial<Provider<Props, Props>>; state?: StackState; nodes?: readonly GraphNode[]; poller?: (run: WaitRun) => Promise<WaitResult> } = {}): FakeRun {
  const journal = new RecordingJournal(opts.state ?? stateWith());
  const events: EngineEvent[] = [];
  const calling: string[] = [];
  const budgets: (number | undefined)[] = [];
  const values = new ValueResolver();
  const clock: Clock = { now: () => Date.now(), sleep: async () => {} };
  const provider = { read: async () => undefined, delete: async () => {}, create: async () => ({ id: "made", outputs: {} }), ...opts.provider } as Provider<Props, Props>;
  const sink = { next: (e: EngineEvent) => void events.push(e) };
  const calls: CallContext = {
    journal,
    events: sink,
    clock,
    signals: {},
    opContext: (_urn, o) => (budgets.push(o.timeoutMs), {
      signal: o.signal === undefined || o.signal instanceof AbortSignal ? (o.signal as AbortSignal) : o.signal.signal,
      log: { info: () => {}, warn: () => {} },
      clock,
      workDir: process.cwd(),
      ...(o.provider ? { provider: o.provider } : {}),
      ...(o.operation ? { operation: o.operation } : {}),
      ...(o.pause ? { pause: o.pause } : {}),
    }),
    retryDeadlineMs: 60_000,
    lateResults: [],
    inFlight: new InFlight([], 4),
    calling: (a: Action) => void calling.push(a.id),
    waiting: () => {},
  };
  const ctx: TestContext = {
    calls,
    journal,
    events: sink,
    secrets: new SecretRegistry(),
    poller: { wait: opts.poller ?? (() => Promise.reject(new Error("no poller in this test"))) } as unknown as WaitPoller,
    node: (urn) => opts.nodes?.find((n) => n.urn === urn),
    provider: () => provider,
    instance: () => undefined,
    scope: () => values.scope(),
  };
  return { ctx, journal, events, values, calling, budgets };
}

/** The state changes a handler's result makes from `state`. */
export function changesFrom(result: { changes: StateMutation[] | ((s: StackState) => StateMutation[]) }, state: StackState = stateWith()): StateMutation[] {
  return typeof result.changes === "function" ? result.changes(state) : result.changes;
}

/**
 * A handler as the executor calls it: given the action's node, which the executor looks up once per action
 * (here, the test context's own lookup).
 *
 * @example const create = asRun(createHandler); await create(action, run.ctx);
 */
export function asRun<A extends Action>(handler: Handler<A>): (action: A, ctx: TestContext) => Promise<ActionResult> {
  return (action, ctx) => handler(action, ctx, ctx.node(action.step.urn));
}
