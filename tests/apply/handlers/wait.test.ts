import { describe, expect, it } from "vitest";
import { waitFor as waitForHandler } from "../../../src/apply/handlers/wait.js";
import { labelOf } from "../../../src/apply/handlers/wait-ended.js";
import { Cancelled } from "../../../src/apply/scheduler.js";
import type { EngineEvent } from "../../../src/apply/events.js";
import { Program } from "../../../src/entry/program.js";
import type { Action } from "../../../src/plan/actions.js";
import { defineResource } from "../../../src/program/define.js";
import type { GraphNode } from "../../../src/program/node.js";
import { knownValue } from "../../../src/runtime/values.js";
import type { Props } from "../../../src/state/types.js";
import { wait } from "../../../src/wait/wait.js";
import type { WaitResult, WaitRun } from "../../../src/wait/waiter.js";
import { changesFrom, fakeContext, recorded, stateWith, asRun } from "./fake-context.js";
import { heldMark } from "../../../src/wait/held.js";

const waitFor = asRun(waitForHandler);

type Db = { status: string; password: string };
const Database = defineResource<{ password: string }, Db>("test:wait:Database", {
  provider: { create: async () => ({ id: "x", outputs: { status: "", password: "" } }), read: async ({ outputs }) => outputs, delete: async () => {} },
  schema: { inputs: { password: { secret: true } }, outputs: { status: {}, password: { secret: true } } },
});

type WaitAction = Extract<Action, { kind: "wait" }>;

/** A program with a database and a wait on it; the wait's action; the database's value as published by its create. */
async function setup(poll: (run: WaitRun) => Promise<WaitResult>, outputs: Props = { status: "creating", password: "pw-secret-9" }) {
  const ev = await new Program("web", () => void wait(new Database("db", { password: "pw-secret-9" }), { name: "ready", until: (d) => d.status.eq("ready") })).evaluate({ stack: "dev" });
  const db = ev.nodes.find((n) => n.kind === "custom") as GraphNode;
  const node = ev.nodes.find((n) => n.kind === "wait") as GraphNode & { kind: "wait" };
  const action: WaitAction = {
    id: "w1", kind: "wait", index: 0,
    step: {
      kind: "wait", urn: node.urn, type: node.type, deps: [db.urn], name: "ready", named: true, target: db.urn, subject: "db",
      until: node.wait.until, untilText: "db.status == \"ready\"", timeoutMs: 60_000, intervalMs: 1_000, defaultTimeout: true, needed: true, why: "db is created", readyNow: null,
    },
  };
  const run = fakeContext({ nodes: ev.nodes as GraphNode[], poller: poll, state: stateWith(recorded("db", { urn: db.urn, type: db.type, id: "db-1", inputs: { password: "pw-secret-9" }, outputs, secretKeys: ["password"] })) });
  run.values.publish(db, knownValue("db-1", outputs, new Set(["password"])));
  return { run, action, db };
}

const satisfied = (snapshot: Props): WaitResult => ({ outcome: { kind: "satisfied", reads: 2, elapsedMs: 1500, observed: [] }, snapshot });

describe("the wait handler", () => {
  it("polls the target as it is now, and records the read that satisfied the wait as the target's outputs", async () => {
    const runs: WaitRun[] = [];
    const { run, action, db } = await setup(async (r) => (runs.push(r), satisfied({ status: "ready", password: "pw-secret-9" })));
    const result = await waitFor(action, run.ctx);

    expect(runs[0]).toMatchObject({ urn: action.step.urn, subject: "db", target: { urn: db.urn, id: "db-1", inputs: { password: "pw-secret-9" }, outputs: { status: "creating" } }, timeoutMs: 60_000, intervalMs: 1_000 });
    expect(result.value).toMatchObject({ id: "db-1", outputs: { status: "ready" } });
    expect([...result.value!.secretKeys]).toEqual(["password"]);
    const current = stateWith(recorded("db", { urn: db.urn, id: "db-1", outputs: { status: "creating" } }));
    const mark = heldMark(action.step.urn, action.step.untilText);
    expect(changesFrom(result, current)).toEqual([{ kind: "upsert", resource: { ...current.resources[db.urn], outputs: { status: "ready", password: "pw-secret-9" }, waitsHeld: [mark] } }]);
    expect(run.events).toContainEqual(expect.objectContaining({ type: "wait-ended", urn: action.step.urn, name: "ready", outcome: expect.objectContaining({ kind: "satisfied" }) }));
  });

  it("records only its mark when the read shows what is recorded, and changes nothing once marked or when the target was replaced meanwhile", async () => {
    const { run, action, db } = await setup(async () => satisfied({ status: "ready" }));
    const result = await waitFor(action, run.ctx);
    const mark = heldMark(action.step.urn, action.step.untilText);
    const same = recorded("db", { urn: db.urn, id: "db-1", outputs: { status: "ready" } });
    expect(changesFrom(result, stateWith(same))).toEqual([{ kind: "upsert", resource: { ...same, waitsHeld: [mark] } }]);
    expect(changesFrom(result, stateWith({ ...same, waitsHeld: [mark] }))).toEqual([]);
    expect(changesFrom(result, stateWith(recorded("db", { urn: db.urn, id: "db-2", outputs: {} })))).toEqual([]);
    expect(changesFrom(result, stateWith())).toEqual([]);
  });

  it("fails with the outcome's message, the provider's reason masked for the target's secret values", async () => {
    const { run, action } = await setup(async () => ({ outcome: { kind: "failed", reads: 3, elapsedMs: 9000, observed: [], condition: 'db.status == "failed"', reason: "bad password pw-secret-9" } }));
    const err = (await waitFor(action, run.ctx).catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toContain('wait "ready"');
    expect(err.message).toContain("bad password [secret]");
    expect(err.message).not.toContain("pw-secret-9");
    const ended = run.events.find((e): e is Extract<EngineEvent, { type: "wait-ended" }> => e.type === "wait-ended");
    expect(ended?.message).toBe(err.message);
    expect(ended?.outcome).toMatchObject({ kind: "failed", reason: "bad password [secret]" });
  });

  it("clears its mark from the target as it starts, so one that ends without holding leaves none", async () => {
    const { run, action, db } = await setup(async () => ({ outcome: { kind: "timed-out", reads: 4, elapsedMs: 60_000, observed: [{ path: "status", value: "creating" }] } }));
    const mark = heldMark(action.step.urn, action.step.untilText);
    const before = run.journal.state.resources[db.urn]!;
    run.journal.state = stateWith({ ...before, waitsHeld: [mark, "w:other"] });
    await expect(waitFor(action, run.ctx)).rejects.toThrow(/timed out after 1m0s/);
    expect(run.journal.entries).toEqual([{ t: "mutate", m: [{ kind: "upsert", resource: { ...before, waitsHeld: ["w:other"] } }] }]);
  });

  it("masks a read error's text too, and ends cancelled (not failed) when the run is cancelled", async () => {
    const readError = await setup(async () => ({ outcome: { kind: "read-error", reads: 1, elapsedMs: 10, error: "denied for pw-secret-9", transient: false } }));
    await expect(waitFor(readError.action, readError.run.ctx)).rejects.toThrow(/denied for \[secret\]/);
    const cancelled = await setup(async () => ({ outcome: { kind: "cancelled", reads: 1, elapsedMs: 10, observed: undefined } }));
    await expect(waitFor(cancelled.action, cancelled.run.ctx)).rejects.toBeInstanceOf(Cancelled);
  });

  it("needs the program that declares the wait", async () => {
    const { action } = await setup(async () => satisfied({}));
    await expect(waitFor(action, fakeContext().ctx)).rejects.toThrow("a wait needs the program that declares it");
  });

  it("is named in messages by its name, target, condition and timeout", async () => {
    const { action } = await setup(async () => satisfied({}));
    expect(labelOf(action.step)).toEqual({ label: 'wait "ready"', subject: "db", until: 'db.status == "ready"', timeoutMs: 60_000 });
  });
});
