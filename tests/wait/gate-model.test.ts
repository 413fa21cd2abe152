import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { program } from "../../src/entry/program.js";
import { defineResource } from "../../src/program/define.js";
import { wait } from "../../src/wait/wait.js";
import { seconds, type Duration } from "../../src/core/duration.js";
import { stackOutputs } from "../../src/program/stack-outputs.js";
import { FakeClock } from "../../src/testing/fake-clock.js";
import type { Clock } from "../../src/provider/provider.js";
import type { Stack } from "../../src/stack/stack.js";
import type { Plan } from "../../src/plan/plan.js";

/*
 * A model-based test of gating (issue 40). fast-check generates small programs — targets whose reads move
 * through states, waits on them (or on each other) that hold, fail or time out, and users of each gated
 * value (stack outputs, resources, a second stack reading the outputs) — and sequences of runs: up,
 * preview, a saved plan applied, refresh, replace, Ctrl-C and kill -9 in the middle of a wait.
 *
 * Every gated value carries its wait and its object: a user of wait 1 on object o3 sees "W1|u-o3". The
 * reference model is one set: the objects on which some read has shown `status = "ready"` (the predicate
 * of every wait). The invariant, checked at every provider call, every engine event, every saved plan,
 * and on the outputs and state after every step: a gated token appears only for an object in that set.
 */

type Status = "starting" | "ready" | "failed";

/** What a case's targets do; reset for each case. */
interface World {
  /** Each target's reads, by target name: the n-th read of an object shows the n-th status (the last repeats). */
  scripts: Record<string, Status[]>;
  objects: Map<string, { script: Status[]; reads: number }>;
  nextId: number;
  /** The reference model: urls of objects a read has shown ready. */
  held: Set<string>;
  violations: string[];
}

let world: World;
/** Gated tokens seen (of held objects) over all cases: shows the cases are not vacuous. */
let published = 0;
/** How waits ended and runs were interrupted over all cases: every kind must occur. */
const seen = new Map<string, number>();
const count = (what: string) => seen.set(what, (seen.get(what) ?? 0) + 1);

/** A clock that stops for good when its run is killed: sleeps and provider calls of that run never end. */
class FreezableClock implements Clock {
  frozen = false;
  constructor(private readonly base: FakeClock) {}
  now(): number {
    return this.base.now();
  }
  sleep(d: Duration, signal?: AbortSignal): Promise<void> {
    return this.frozen ? new Promise<void>(() => {}) : this.base.sleep(d, signal);
  }
}
const halt = (clock: Clock) => (clock instanceof FreezableClock && clock.frozen ? new Promise<never>(() => {}) : Promise.resolve());

const TOKEN = /W(\d+)\|(u-o\d+)/g;

/** Records a violation for every gated token in `text` whose object no read has shown ready yet. */
function check(text: string, where: string): void {
  for (const m of text.matchAll(TOKEN)) {
    if (world.held.has(m[2]!)) published++;
    else world.violations.push(`${where}: ${m[0]} is observable, but no read of ${m[2]} has shown status "ready"`);
  }
}

const Target = defineResource<{ name: string }, { url: string; status: Status }>("test:gatemodel:Target", {
  provider: {
    async create({ inputs, ctx }) {
      await halt(ctx.clock);
      const id = `o${++world.nextId}`;
      world.objects.set(id, { script: world.scripts[inputs.name] ?? ["starting"], reads: 0 });
      return { id, outputs: { url: `u-${id}`, status: "starting" } };
    },
    async read({ id, ctx }) {
      await halt(ctx.clock);
      const o = world.objects.get(id);
      if (!o) return undefined;
      const status = o.script[Math.min(o.reads++, o.script.length - 1)]!;
      if (status === "ready") world.held.add(`u-${id}`);
      return { url: `u-${id}`, status };
    },
    async delete({ id }) {
      world.objects.delete(id);
    },
  },
  schema: { inputs: { name: {} }, outputs: { url: {}, status: {} } },
});

const User = defineResource<{ v: string }, { v: string }>("test:gatemodel:User", {
  provider: {
    async create({ urn, inputs, ctx }) {
      await halt(ctx.clock);
      check(JSON.stringify(inputs), `create of ${urn}`);
      if (urn.includes("::reader::")) count("read by the second stack");
      return { id: `user-${++world.nextId}`, outputs: inputs };
    },
    async update({ urn, news, ctx }) {
      await halt(ctx.clock);
      check(JSON.stringify(news), `update of ${urn}`);
      return news;
    },
    async read({ outputs }) {
      return outputs;
    },
    async delete() {},
  },
  schema: { inputs: { v: {} }, outputs: { v: {} } },
});

/** A generated program: targets with their read scripts, and waits with their users. */
interface Model {
  targets: Status[][];
  waits: { on: number; chain: boolean; timeoutS: number; failWhen: boolean; output: boolean; user: boolean }[];
}

type Op =
  | { kind: "up" }
  | { kind: "preview" }
  | { kind: "saved" }
  | { kind: "refresh" }
  | { kind: "replace"; target: number }
  | { kind: "cancel"; afterPolls: number }
  | { kind: "kill"; afterPolls: number }
  | { kind: "reader" };

const statusArb = fc.constantFrom<Status>("starting", "ready", "failed");
const modelArb: fc.Arbitrary<Model> = fc.record({
  targets: fc.array(fc.array(statusArb, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 2 }),
  waits: fc.array(
    fc.record({ on: fc.nat(3), chain: fc.boolean(), timeoutS: fc.constantFrom(1, 4, 30), failWhen: fc.boolean(), output: fc.boolean(), user: fc.boolean() }),
    { minLength: 1, maxLength: 3 },
  ),
});
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.constant<Op>({ kind: "up" }),
  fc.constant<Op>({ kind: "preview" }),
  fc.constant<Op>({ kind: "saved" }),
  fc.constant<Op>({ kind: "refresh" }),
  fc.nat(1).map((target): Op => ({ kind: "replace", target })),
  fc.integer({ min: 1, max: 3 }).map((afterPolls): Op => ({ kind: "cancel", afterPolls })),
  fc.integer({ min: 1, max: 3 }).map((afterPolls): Op => ({ kind: "kill", afterPolls })),
  fc.constant<Op>({ kind: "reader" }),
);

/** The program of a model: each wait's gated url goes, as "W<i>|<url>", to the users it has. */
function appOf(m: Model) {
  return program("app", () => {
    const targets = m.targets.map((_, i) => new Target(`t${i}`, { name: `t${i}` }));
    const handles: any[] = [];
    const outputs: Record<string, unknown> = {};
    m.waits.forEach((w, i) => {
      const on = w.chain && i > 0 ? handles[w.on % i] : targets[w.on % targets.length];
      const h: any = wait(on, {
        name: `W${i}`,
        until: (x: any) => x.status.eq("ready"),
        ...(w.failWhen ? { failWhen: (x: any) => x.status.eq("failed") } : {}),
        timeout: seconds(w.timeoutS),
        interval: seconds(1),
      });
      handles.push(h);
      const token = h.url.apply((u: string) => `W${i}|${u}`);
      if (w.output) outputs[`w${i}`] = token;
      if (w.user) new User(`user${i}`, { v: token });
    });
    return outputs;
  });
}

/** The second stack: a user of each output of the first. */
function readerOf(m: Model) {
  return program("reader", () => {
    const app = stackOutputs<Record<string, string>>("app", { stack: "s" });
    m.waits.forEach((w, i) => w.output && new User(`r${i}`, { v: app.outputs[`w${i}`]! }));
  });
}

/** One case's stacks: each run gets its own stack object (and clock), as each command is its own process. */
class Harness {
  readonly clock = new FakeClock({ auto: true });
  private readonly space = `gatemodel-${Math.random().toString(36).slice(2)}`;
  constructor(private readonly m: Model) {}

  /** A stack of the app (or the reader) for one run, every event checked as it is emitted. */
  open(which: "app" | "reader"): { stack: Stack; clock: FreezableClock } {
    const clock = new FreezableClock(this.clock);
    const prog = which === "app" ? appOf(this.m) : readerOf(this.m);
    const stack = prog.stack({ stack: "s", backend: `memory://${this.space}`, passphrase: "p", clock });
    stack.events.subscribe((e) => {
      check(JSON.stringify(e), `${which} event ${e.type}`);
      if (e.type === "wait-ended") count(e.outcome.kind);
    });
    return { stack, clock };
  }

  async step(op: Op): Promise<void> {
    const { stack, clock } = this.open(op.kind === "reader" ? "reader" : "app");
    await stack.unlock({ force: true }); // a killed run left its lock
    try {
      await this.run(op, stack, clock);
    } catch {
      // A run may fail (a plan error such as the reader missing an output, a recovery refused): the
      // invariant is about what it let out, checked below either way.
    }
    await this.observe();
  }

  private async run(op: Op, stack: Stack, clock: FreezableClock): Promise<void> {
    switch (op.kind) {
      case "up":
      case "reader":
        await stack.up();
        return;
      case "preview":
        check(JSON.stringify(await stack.preview()), "preview");
        return;
      case "saved": {
        const plan: Plan = JSON.parse(JSON.stringify(await stack.preview()));
        check(JSON.stringify(plan), "saved plan");
        await stack.apply(plan);
        return;
      }
      case "refresh":
        await stack.up({ refreshOnly: true });
        return;
      case "replace":
        await stack.up({ replace: [`urn:cairn:s::app::test:gatemodel:Target::t${op.target % this.m.targets.length}` as never] });
        return;
      case "cancel": {
        const ctl = new AbortController();
        let polls = 0;
        const sub = stack.events.subscribe((e) => {
          if (e.type !== "wait-polled" || ++polls < op.afterPolls || ctl.signal.aborted) return;
          count("Ctrl-C");
          ctl.abort(new Error("Ctrl-C"));
        });
        await stack.up({ signal: ctl.signal }).finally(() => sub.unsubscribe());
        return;
      }
      case "kill": {
        let polls = 0;
        let killed!: () => void;
        const dead = new Promise<void>((r) => (killed = r));
        const sub = stack.events.subscribe((e) => {
          if (e.type !== "wait-polled" || ++polls < op.afterPolls) return;
          if (clock.frozen) return;
          clock.frozen = true; // kill -9: nothing of this run moves on; what it wrote stays
          count("kill -9");
          killed();
        });
        await Promise.race([stack.up(), dead]);
        sub.unsubscribe();
        // Let what the run had already handed over land, as the journal had written it before the kill.
        for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
        return;
      }
      default: {
        const never: never = op;
        throw new Error(String(never));
      }
    }
  }

  /** Outputs (as `outputs` shows them) and the whole state of both stacks. */
  private async observe(): Promise<void> {
    for (const which of ["app", "reader"] as const) {
      const { stack } = this.open(which);
      check(JSON.stringify((await stack.outputs()).values), `${which} outputs`);
      check(JSON.stringify(await stack.resources()), `${which} state`);
    }
  }
}

/** Runs one case; resolves with the violations found. */
async function runCase(m: Model, ops: Op[]): Promise<string[]> {
  world = { scripts: Object.fromEntries(m.targets.map((s, i) => [`t${i}`, s])), objects: new Map(), nextId: 0, held: new Set(), violations: [] };
  const h = new Harness(m);
  for (const op of ops) {
    await h.step(op);
    if (world.violations.length) return world.violations;
  }
  return [];
}

describe("gating, model-based", () => {
  it("no gated value, nor anything derived from it, is observable before its predicate held on a read", async () => {
    // Fixed in CI; another seed (CAIRN_GATE_SEED) or more cases (CAIRN_GATE_RUNS) explore further.
    const seed = Number(process.env.CAIRN_GATE_SEED ?? 402026);
    const numRuns = Number(process.env.CAIRN_GATE_RUNS ?? 200);
    published = 0;
    seen.clear();
    try {
      await fc.assert(
        fc.asyncProperty(modelArb, fc.array(opArb, { minLength: 1, maxLength: 6 }), async (m, ops) => {
          expect(await runCase(m, ops)).toEqual([]);
        }),
        { seed, numRuns },
      );
    } catch (e) {
      console.error(`The gate model failed with seed ${seed}: replay it with CAIRN_GATE_SEED=${seed}. The shrunk program and runs are in the error below.`);
      throw e;
    }
    // Not vacuous: waits held and their values went out, many times over, and every end and interruption occurred.
    expect(published).toBeGreaterThan(numRuns);
    if (process.env.CAIRN_GATE_STATS) console.log(`gate model: ${numRuns} cases, ${published} gated values seen after their predicate held, ${JSON.stringify(Object.fromEntries(seen))}`);
    for (const what of ["satisfied", "timed-out", "failed", "cancelled", "Ctrl-C", "kill -9", "read by the second stack"]) expect(seen.get(what) ?? 0, what).toBeGreaterThan(0);
  }, 120_000);
});
