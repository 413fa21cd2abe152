import { describe, expect, it } from "vitest";
import { TransientError } from "../../../src/core/errors.js";
import { deleteObject as deleteObjectHandler, forget as forgetHandler } from "../../../src/apply/handlers/delete.js";
import type { Action } from "../../../src/plan/actions.js";
import type { DeposedObject } from "../../../src/state/types.js";
import { changesFrom, fakeContext, recorded, stateWith, urnOf, asRun } from "./fake-context.js";

const deleteObject = asRun(deleteObjectHandler);
const forget = asRun(forgetHandler);

type DeleteStep = Extract<Action, { kind: "delete" }>["step"];

function deleteStep(over: Partial<DeleteStep> = {}): DeleteStep {
  return {
    kind: "delete", urn: urnOf("db"), type: "test:Db", deps: [], id: "db-1",
    olds: { name: "a", password: "pw-old-1" }, outputs: { host: "h1" }, retain: false, deposed: false,
    secretKeys: ["password"], prior: { deps: [], timeouts: { delete: 5_000 } },
    ...over,
  };
}

describe("the delete handler", () => {
  it("deletes the object with its recorded inputs and outputs, then removes its record", async () => {
    const deleted: unknown[] = [];
    const run = fakeContext({ provider: { delete: async ({ urn, id, inputs, outputs }) => void deleted.push({ urn, id, inputs, outputs }) } });
    const result = await deleteObject({ id: "d1", kind: "delete", index: 0, step: deleteStep() }, run.ctx);

    expect(deleted).toEqual([{ urn: urnOf("db"), id: "db-1", inputs: { name: "a", password: "pw-old-1" }, outputs: { host: "h1" } }]);
    expect(run.journal.entries).toEqual([{ t: "begin", op: 1, kind: "delete", urn: urnOf("db"), id: "db-1" }]);
    expect(result.op).toBe(1);
    expect(changesFrom(result, stateWith(recorded("db")))).toEqual([{ kind: "remove", urn: urnOf("db") }]);
  });

  it("a deposed object: deleted as such, and only it leaves the resource's record", async () => {
    const run = fakeContext();
    const result = await deleteObject({ id: "d1", kind: "delete", index: 0, step: deleteStep({ id: "db-0", deposed: true }) }, run.ctx);
    expect(run.journal.entries[0]).toEqual({ t: "begin", op: 1, kind: "delete-deposed", urn: urnOf("db"), id: "db-0" });
    const other: DeposedObject = { id: "db-00", inputs: {}, outputs: {}, deps: [] };
    const gone: DeposedObject = { id: "db-0", inputs: {}, outputs: {}, deps: [] };
    expect(changesFrom(result, stateWith(recorded("db", { id: "db-1", deposed: [gone, other] })))).toEqual([{ kind: "upsert", resource: recorded("db", { id: "db-1", deposed: [other] }) }]);
    // The resource itself was removed meanwhile: nothing is left to edit.
    expect(changesFrom(result, stateWith())).toEqual([]);
  });

  it("gives the call the delete time budget the state recorded (the program may no longer declare it)", async () => {
    const run = fakeContext();
    await deleteObject({ id: "d1", kind: "delete", index: 0, step: deleteStep() }, run.ctx);
    expect(run.calling).toEqual(["d1"]);
    expect(run.budgets).toEqual([5_000]);
  });

  it("a failed delete changes nothing in state, and its retry messages mask the secrets it was given", async () => {
    let n = 0;
    const run = fakeContext({ provider: { delete: async () => Promise.reject(++n === 1 ? new TransientError("slow down (pw-old-1)") : new Error("access denied")) } });
    await expect(deleteObject({ id: "d1", kind: "delete", index: 0, step: deleteStep() }, run.ctx)).rejects.toThrow("access denied");
    expect(run.journal.entries.at(-1)).toEqual({ t: "abort", op: 1, m: [] });
    expect(run.events).toContainEqual(expect.objectContaining({ type: "step-retrying", kind: "delete", error: "slow down ([secret])" }));
  });
});

describe("the forget handler (retainOnDelete)", () => {
  it("removes the record and leaves the object in the cloud: no provider call, no journaled operation", async () => {
    const run = fakeContext({ provider: { delete: async () => Promise.reject(new Error("must not be called")) } });
    const result = await forget({ id: "f1", kind: "forget", index: 0, step: deleteStep({ retain: true }) }, run.ctx);
    expect(result.op).toBeUndefined();
    expect(run.journal.entries).toEqual([]);
    expect(run.calling).toEqual([]);
    expect(changesFrom(result, stateWith(recorded("db")))).toEqual([{ kind: "remove", urn: urnOf("db") }]);
  });
});
