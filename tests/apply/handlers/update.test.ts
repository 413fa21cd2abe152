import { describe, expect, it } from "vitest";
import { TransientError } from "../../../src/core/errors.js";
import { update } from "../../../src/apply/handlers/update.js";
import type { EngineEvent } from "../../../src/apply/events.js";
import type { Action } from "../../../src/plan/actions.js";
import type { Props } from "../../../src/state/types.js";
import { changesFrom, fakeContext, META, recorded, stateWith, urnOf } from "./fake-context.js";

type UpdateAction = Extract<Action, { kind: "update" }>;

function updateAction(over: Partial<UpdateAction["step"]> = {}): UpdateAction {
  return {
    id: "u1", kind: "update",
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
