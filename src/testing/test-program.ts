import type { EngineEvent } from "../apply/events.js";
import type { Program } from "../entry/program.js";
import type { Urn } from "../core/urn.js";
import type { Stack } from "../stack/stack.js";
import { MemoryBackend } from "../state/memory-backend.js";
import { emptyState, type StackState } from "../state/types.js";
import { FakeClock } from "./fake-clock.js";
import { MissingMockError, MockProviders, type MockCall, type MockTable, type Needed } from "./mock-table.js";
import type { MockEnv } from "./mocks.js";
import { toTestPlan, toTestUpResult, type TestPlan, type TestUpResult } from "./results.js";
import { UserError } from "../core/diagnostic.js";

/** A configuration value for a test run: plain (numbers and booleans are stored as text), or `{ secret: "…" }`. */
export type TestConfigValue = string | number | boolean | { secret: string };

/** Options of {@link testProgram}. */
export interface TestProgramOptions {
  /** The mocked providers, by type token or resource name. Every resource the program reaches must have one. */
  mocks?: MockTable;
  /** Stack configuration (`config.get(key)` in the program). */
  config?: Record<string, TestConfigValue>;
  /** The stack name the program sees (default `test`). */
  stack?: string;
  /**
   * The clock waits, retries and timeouts run by. Default: a `FakeClock` in auto mode, so a 75-minute wait
   * ends in milliseconds; pass `new FakeClock()` to move time by hand with `run.clock.advance(...)`.
   */
  clock?: FakeClock;
  /** The state to start from (e.g. `earlier.state` of another run): to test updates, replacements and deletes. */
  from?: StackState;
  /** Provider operations at once (default 10). */
  parallel?: number;
  /** The passphrase secrets are encrypted with in the run's in-memory state (default: a fixed test one). */
  passphrase?: string;
  /**
   * The seed of the names Cairn makes for objects the program does not name (`jobs-1a2b3c4`): fixed by
   * default (`cairn-testing`), so every run of a test sees the same names.
   */
  nameSeed?: string;
}

/** Options of one operation of a test run. */
export interface TestOpOptions {
  /** Replace the run's state with this one first (e.g. `first.state`), to chain runs. */
  from?: StackState;
  /** Configuration to set first (added to what the run has). */
  config?: Record<string, TestConfigValue>;
  /** Read every resource before planning (as `up --refresh`). */
  refresh?: boolean;
  /** Plan only these resources (names or URNs) and what they depend on. */
  targets?: readonly string[];
  /** Replace these resources (names or URNs) even if nothing changed. */
  replace?: readonly string[];
  /** `up` only: let these resources (names or URNs) lose a stateful object's data, as `--allow-data-loss`. */
  allowDataLoss?: readonly string[];
}

/**
 * A program under test: the real engine (plan, apply, waits, planning options) against mocked providers, with
 * state in memory and a fake clock. Made by {@link testProgram}; each run is independent of every other.
 */
export class TestRun {
  /** Every engine event of this run so far (all operations), in order. */
  readonly events: EngineEvent[] = [];
  /** Every mocked provider call of this run so far (all operations), in order. */
  readonly calls: MockCall[] = [];
  /** The stack underneath, for anything the helpers do not cover (`run.stack.apply(plan)`, `run.stack.history()`). */
  readonly stack: Stack;
  private readonly backend: MemoryBackend;
  private readonly mocks: MockProviders;
  private readonly env: MockEnv = { ids: new Set() };
  private current: StackState;

  /** @internal Use {@link testProgram}. */
  constructor(
    readonly program: Program,
    /** The clock of this run: `await run.clock.advance(seconds(30))` moves a manual one. */
    readonly clock: FakeClock,
    opts: TestProgramOptions,
  ) {
    const stack = opts.stack ?? "test";
    this.mocks = new MockProviders(opts.mocks, this.calls, this.env);
    const passphrase = opts.passphrase ?? "cairn-testing-passphrase";
    this.backend = new MemoryBackend({ stack, project: program.name, passphrase });
    this.stack = program.stack({
      stack, backend: this.backend, clock, passphrase, providers: this.mocks.provider, nameSeed: opts.nameSeed ?? "cairn-testing",
      ...(opts.parallel !== undefined ? { parallel: opts.parallel } : {}),
    });
    this.stack.events.subscribe((e) => this.events.push(e));
    this.current = emptyState(program.name, stack);
  }

  /** The state after the last operation (or the starting state): pass it as `from` to chain runs. */
  get state(): StackState {
    return this.current;
  }

  /** Plans against the run's state and returns the plan as data; changes nothing. */
  async preview(opts: TestOpOptions = {}): Promise<TestPlan> {
    await this.prepare(opts, true);
    const plan = await this.stack.preview(await this.planOptions(opts));
    return toTestPlan(plan);
  }

  /** Plans and applies, as `up`; resolves even when steps fail (`ok: false`, `failures`), rejects when the plan has errors. */
  async up(opts: TestOpOptions = {}): Promise<TestUpResult> {
    await this.prepare(opts, true);
    const from = this.mark();
    const r = await this.stack.up({ ...(await this.planOptions(opts)), ...(opts.allowDataLoss ? { allowDataLoss: opts.allowDataLoss } : {}) });
    return this.result(r.plan, r.summary, from);
  }

  /** Deletes everything in the run's state, as `destroy`. */
  async destroy(opts: Pick<TestOpOptions, "from"> = {}): Promise<TestUpResult> {
    await this.prepare(opts, false);
    const from = this.mark();
    const r = await this.stack.destroy();
    return this.result(r.plan, r.summary, from);
  }

  /** Reads every resource through the mocks and records what changed, as `refresh`. */
  async refresh(opts: Pick<TestOpOptions, "from"> = {}): Promise<TestUpResult> {
    await this.prepare(opts, false);
    const from = this.mark();
    const r = await this.stack.up({ refreshOnly: true });
    return this.result(r.plan, r.summary, from);
  }

  /**
   * Resolves with the first event of this run (already emitted, or still to come) that `match` accepts: for
   * step-by-step tests with a manual clock, to know the engine got somewhere before moving time on.
   *
   * @example
   * const up = run.up();
   * await run.until((e) => e.type === "step-started" && e.kind === "wait");
   * await run.clock.advance(minutes(5));
   */
  until(match: (e: EngineEvent) => boolean): Promise<EngineEvent> {
    const seen = this.events.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => {
      const sub = this.stack.events.subscribe((e) => {
        if (!match(e)) return;
        sub.unsubscribe();
        resolve(e);
      });
    });
  }

  /** Sets configuration values (as `config set`); secrets with `{ secret: "…" }`. */
  async setConfig(values: Record<string, TestConfigValue>): Promise<void> {
    for (const [key, v] of Object.entries(values)) {
      const secret = typeof v === "object";
      await this.stack.setConfig(key, secret ? v.secret : String(v), { secret });
    }
  }

  /** Replaces the run's state with `state` (of this program and stack). */
  async setState(state: StackState): Promise<void> {
    if (state.project !== this.program.name || state.stack !== this.stack.name) {
      throw new UserError(`This state is of stack "${state.stack}" of project "${state.project}", but the run is stack "${this.stack.name}" of "${this.program.name}": pass stack: "${state.stack}" to testProgram, or use a state of this program.`);
    }
    const { state: now } = await this.backend.load();
    const written = await this.backend.compact({ ...structuredClone(state), serial: now.serial });
    for (const r of Object.values(written.resources)) this.env.ids.add(r.id);
    this.current = written;
  }

  private async prepare(opts: Pick<TestOpOptions, "from" | "config">, program: boolean): Promise<void> {
    if (opts.from) await this.setState(opts.from);
    if (opts.config) await this.setConfig(opts.config);
    const missing = this.mocks.missing(await this.needed(program));
    if (missing.length) throw new MissingMockError(missing);
  }

  /** The resources and lookups the program declares (when it evaluates) and those the state holds. */
  private async needed(program: boolean): Promise<Needed[]> {
    const out = new Map<Urn, Needed>();
    if (program) {
      try {
        const ev = await this.program.evaluate({ stack: this.stack.name, config: await this.stack.config() });
        for (const n of ev.nodes) if (n.kind === "custom" || n.kind === "lookup") out.set(n.urn, { type: n.type, urn: n.urn, kind: n.kind === "custom" ? "resource" : "lookup" });
      } catch {
        // The operation reports the program's own error.
      }
    }
    for (const r of Object.values(this.current.resources)) if (!out.has(r.urn)) out.set(r.urn, { type: r.type, urn: r.urn, kind: "resource" });
    return [...out.values()];
  }

  /** Resource names in `targets`/`replace` as URNs (a name the program does not declare is kept as given). */
  private async planOptions(opts: TestOpOptions) {
    const wanted = [...(opts.targets ?? []), ...(opts.replace ?? [])];
    const byName = new Map<string, Urn>();
    if (wanted.some((w) => !w.startsWith("urn:"))) {
      const ev = await this.program.evaluate({ stack: this.stack.name, config: await this.stack.config() });
      for (const n of ev.nodes) byName.set(n.name, n.urn);
    }
    const urn = (w: string): Urn => {
      if (w.startsWith("urn:")) return w as Urn;
      const found = byName.get(w);
      if (!found) throw new UserError(`"${w}" is not a resource of program "${this.program.name}"; its resources: ${[...byName.keys()].join(", ") || "none"}.`);
      return found;
    };
    return {
      ...(opts.refresh ? { refresh: true } : {}),
      ...(opts.targets ? { targets: opts.targets.map(urn) } : {}),
      ...(opts.replace ? { replace: opts.replace.map(urn) } : {}),
    };
  }

  private mark() {
    return { events: this.events.length, calls: this.calls.length };
  }

  private async result(plan: Parameters<typeof toTestUpResult>[0], summary: Parameters<typeof toTestUpResult>[1], from: { events: number; calls: number }): Promise<TestUpResult> {
    this.current = (await this.backend.load()).state;
    return toTestUpResult(plan, summary, this.events.slice(from.events), this.calls.slice(from.calls), this.current);
  }
}

/**
 * Runs a program under test: the real engine (plan, apply, waits, planning behaviours) against mocked providers,
 * with state in memory and a fake clock, so a 75-minute wait takes milliseconds. No global state: every call
 * makes an independent run, so tests in one file and in parallel files never see each other's mocks.
 *
 * @example
 * import { expect, it } from "vitest";
 * import { testProgram, mocks } from "cairn-iac/testing";
 * import app from "./infra.js";
 *
 * it("waits for the certificate before publishing its ARN", async () => {
 *   const run = await testProgram(app, {
 *     mocks: {
 *       "aws:acm:Certificate": mocks.resource({ outputs: { arn: "arn:aws:acm:us-east-1:1:certificate/abc" },
 *                                               reads: [{ status: "PENDING_VALIDATION" }, { status: "ISSUED" }] }),
 *       "aws:route53:HostedZone": mocks.lookup({ zoneId: "Z1", name: "example.dev." }),
 *       "aws:route53:RecordSet": mocks.resource(),
 *     },
 *   });
 *   const result = await run.up();
 *   expect(result.waits.issued).toMatchObject({ outcome: "satisfied", reads: 2 });
 *   expect(result.outputs.certificateArn).toBe("arn:aws:acm:us-east-1:1:certificate/abc");
 * });
 */
export async function testProgram(program: Program, opts: TestProgramOptions = {}): Promise<TestRun> {
  const run = new TestRun(program, opts.clock ?? new FakeClock({ auto: true }), opts);
  if (opts.from) await run.setState(opts.from);
  if (opts.config) await run.setConfig(opts.config);
  return run;
}
