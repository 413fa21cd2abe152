import { describe, expect, it } from "vitest";
import { TransientError } from "../../../src/core/errors.js";
import { update as updateHandler } from "../../../src/apply/handlers/update.js";
import type { EngineEvent } from "../../../src/apply/events.js";
import type { Action } from "../../../src/plan/actions.js";
import type { Props } from "../../../src/state/types.js";
import { UNKNOWN } from "../../../src/core/unknown.js";
import { Program } from "../../../src/entry/program.js";
import { defineResource } from "../../../src/program/define.js";
import type { GraphNode } from "../../../src/program/node.js";
import { knownValue } from "../../../src/runtime/values.js";
import { changesFrom, fakeContext, META, recorded, stateWith, urnOf, asRun } from "./fake-context.js";

const update = asRun(updateHandler);

const Net = defineResource<{ cidr: string }, { cidr: string }>("test:update:Net", {
  provider: { create: async ({ inputs }) => ({ id: "net-1", outputs: inputs }), read: async ({ outputs }) => outputs, delete: async () => {} },
  schema: { inputs: { cidr: {} }, outputs: { cidr: {} } },
});
const Server = defineResource<{ netId: string }, { ip: string }>("test:update:Server", {
  provider: { create: async () => ({ id: "s", outputs: { ip: "" } }), read: async ({ outputs }) => outputs, delete: async () => {} },
  schema: { inputs: { netId: {} }, outputs: { ip: {} } },
});

type UpdateAction = Extract<Action, { kind: "update" }>;

function updateAction(over: Partial<UpdateAction["step"]> = {}): UpdateAction {
  return {
    id: "u1", kind: "update", index: 0,
    step: {
      kind: "update", urn: urnOf("db"), type: "test:Db", deps: [], id: "db-1",
      olds: { size: 1 }, news: { size: 2 }, outputs: { host: "h1" },
      changed: ["size"], drift: [], secretKeys: [], meta: META, prior: { deps: [] },
      ...over,
    },
  };
}

describe("the update handler", () => {
  it("sends the object's id, old and new inputs and prior outputs, and records the outputs it answers", async () => {
    const calls: unknown[] = [];
    const run = fakeContext({ provider: { update: async ({ id, olds, news, outputs }) => (calls.push({ id, olds, news, outputs }), { host: "h2" }) } });
    const result = await update(updateAction(), run.ctx);

    expect(calls).toEqual([{ id: "db-1", olds: { size: 1 }, news: { size: 2 }, outputs: { host: "h1" } }]);
    expect(run.journal.entries).toEqual([{ t: "begin", op: 1, kind: "update", urn: urnOf("db"), id: "db-1" }]);
    expect(changesFrom(result)).toEqual([{ kind: "upsert", resource: { urn: urnOf("db"), type: "test:Db", id: "db-1", inputs: { size: 2 }, outputs: { host: "h2" }, deps: [] } }]);
    expect(result.value).toMatchObject({ id: "db-1", outputs: { host: "h2" } });
  });

  it("keeps the deposed objects the record holds when the changes are recorded (not when the step was planned)", async () => {
    const run = fakeContext({ provider: { update: async () => ({}) } });
    const result = await update(updateAction(), run.ctx);
    const deposed = [{ id: "db-0", inputs: {}, outputs: {}, deps: [] }];
    expect(changesFrom(result, stateWith(recorded("db", { deposed })))[0]).toMatchObject({ resource: { id: "db-1", deposed } });
    expect(changesFrom(result, stateWith())[0]).not.toHaveProperty("resource.deposed");
  });

  it("a renamed resource drops its old record, and keeps the deposed objects recorded under the old URN", async () => {
    const run = fakeContext({ provider: { update: async () => ({}) } });
    const result = await update(updateAction({ movedFrom: urnOf("old-db") }), run.ctx);
    const deposed = [{ id: "db-0", inputs: {}, outputs: {}, deps: [] }];
    const changes = changesFrom(result, stateWith(recorded("old-db", { deposed })));
    expect(changes[0]).toEqual({ kind: "remove", urn: urnOf("old-db") });
    expect(changes[1]).toMatchObject({ resource: { urn: urnOf("db"), deposed } });
  });

  it("inputs unknown while planning that turn out unchanged: no provider call, the object recorded as it was", async () => {
    // GIVEN a server whose network was replaced in this plan: its netId was unknown when planned
    const ev = await new Program("web", () => void new Server("srv", { netId: new Net("net", { cidr: "10.0.0.0/16" }).id })).evaluate({ stack: "dev" });
    const [net, srv] = ["net", "srv"].map((name) => ev.nodes.find((n) => n.name === name) as GraphNode);
    const run = fakeContext({ provider: { update: async () => Promise.reject(new Error("must not be called")) }, nodes: ev.nodes as GraphNode[] });
    // WHEN the network's new object turns out to have the id the server already uses
    run.values.publish(net!, knownValue("net-1", { cidr: "10.0.0.0/16" }, new Set()));
    const action = updateAction({ urn: srv!.urn, type: srv!.type, id: "srv-1", olds: { netId: "net-1" }, news: { netId: UNKNOWN }, outputs: { ip: "10.0.0.5" }, changed: ["netId"] });
    const result = await update(action, run.ctx);
    // THEN nothing is sent, and the record keeps the object's outputs with the inputs resolved now
    expect(run.journal.entries).toEqual([]);
    expect(result.op).toBeUndefined();
    expect(changesFrom(result)).toEqual([{ kind: "upsert", resource: { urn: srv!.urn, type: srv!.type, id: "srv-1", inputs: { netId: "net-1" }, outputs: { ip: "10.0.0.5" }, deps: [] } }]);
    expect(result.value).toMatchObject({ id: "srv-1", outputs: { ip: "10.0.0.5" } });
  });

  it("refuses a provider that cannot update in place before anything is journaled", async () => {
    const run = fakeContext({ provider: { update: undefined } });
    await expect(update(updateAction(), run.ctx)).rejects.toThrow("the provider of test:Db cannot update in place (it has no update)");
    expect(run.journal.entries).toEqual([]);
  });

  it("retries a transient failure, masking the step's secret values (old and new) in the retry event", async () => {
    let attempts = 0;
    const run = fakeContext({
      provider: {
        update: async ({ news }: { news: Props }) => {
          if (++attempts === 1) throw new TransientError(`throttled while setting password ${String(news.password)} (was old-pw-77)`);
          return {};
        },
      },
    });
    await update(updateAction({ olds: { password: "old-pw-77" }, news: { password: "new-pw-88" }, changed: ["password"], secretKeys: ["password"] }), run.ctx);
    const retry = run.events.find((e): e is Extract<EngineEvent, { type: "step-retrying" }> => e.type === "step-retrying");
    expect(attempts).toBe(2);
    expect(retry?.error).toBe("throttled while setting password [secret] (was [secret])");
    expect(retry).toMatchObject({ urn: urnOf("db"), kind: "update", attempt: 1 });
  });

  it("a result that is not a plain JSON object is refused: nothing is recorded for it", async () => {
    const run = fakeContext({ provider: { update: async () => "not an object" as unknown as Props } });
    await expect(update(updateAction(), run.ctx)).rejects.toThrow(/Nothing was recorded for this update/);
    expect(run.journal.entries.map((e) => e.t)).toEqual(["begin"]);
  });
});
