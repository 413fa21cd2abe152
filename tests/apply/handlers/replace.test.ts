import { describe, expect, it } from "vitest";
import { IncompleteCreateError, TransientError } from "../../../src/core/errors.js";
import { deleteReplaced as deleteReplacedHandler, replace as replaceHandler } from "../../../src/apply/handlers/replace.js";
import type { Action } from "../../../src/plan/actions.js";
import type { DeposedObject } from "../../../src/state/types.js";
import { changesFrom, fakeContext, META, recorded, stateWith, urnOf, asRun } from "./fake-context.js";

const deleteReplaced = asRun(deleteReplacedHandler);
const replace = asRun(replaceHandler);

type ReplaceStep = Extract<Action, { kind: "replace" }>["step"];

function replaceStep(over: Partial<ReplaceStep> = {}): ReplaceStep {
  return {
    kind: "replace", urn: urnOf("db"), type: "test:Db", deps: [], id: "db-1",
    olds: { name: "a", password: "old-pw" }, news: { name: "b", password: "old-pw" }, outputs: { host: "h1" },
    changed: ["name"], drift: [], replaceKeys: ["name"], reason: "attributes", deleteFirst: false,
    secretKeys: ["password"], meta: META, prior: { deps: [urnOf("net", "test:Net")] },
    ...over,
  };
}
const replaceAction = (over: Partial<ReplaceStep> = {}) => ({ id: "r1", kind: "replace" as const, index: 0, step: replaceStep(over) });
const deleteAction = (over: Partial<ReplaceStep> = {}) => ({ id: "r2", kind: "delete-replaced" as const, index: 0, step: replaceStep(over) });

/** The old object as a create-first replace keeps it until its delete. */
const OLD: DeposedObject = { id: "db-1", inputs: { name: "a", password: "old-pw" }, outputs: { host: "h1" }, deps: [urnOf("net", "test:Net")], secretKeys: ["password"] };

describe("the replace handler (the new object)", () => {
  it("create first: records the replacement and keeps the old object as deposed until its delete succeeds", async () => {
    const run = fakeContext({ provider: { create: async () => ({ id: "db-2", outputs: { host: "h2" } }) } });
    const result = await replace(replaceAction(), run.ctx);

    expect(run.journal.entries).toEqual([{ t: "begin", op: 1, kind: "replace-create", urn: urnOf("db") }]);
    expect(changesFrom(result, stateWith(recorded("db", { id: "db-1" })))).toEqual([
      { kind: "upsert", resource: { urn: urnOf("db"), type: "test:Db", id: "db-2", inputs: { name: "b", password: "old-pw" }, outputs: { host: "h2" }, deps: [], secretKeys: ["password"], deposed: [OLD] } },
    ]);
    expect(result.value).toMatchObject({ id: "db-2" });
  });

  it("keeps objects deposed earlier, and never lists the one being replaced twice", async () => {
    const run = fakeContext({ provider: { create: async () => ({ id: "db-2", outputs: {} }) } });
    const result = await replace(replaceAction(), run.ctx);
    const earlier: DeposedObject = { id: "db-0", inputs: {}, outputs: {}, deps: [] };
    const changes = changesFrom(result, stateWith(recorded("db", { deposed: [earlier, OLD] })));
    expect(changes[0]).toMatchObject({ resource: { deposed: [earlier, OLD] } });
  });

  it("delete first: the old object is already gone, so nothing is kept deposed", async () => {
    const run = fakeContext({ provider: { create: async () => ({ id: "db-2", outputs: {} }) } });
    const result = await replace(replaceAction({ deleteFirst: true }), run.ctx);
    expect(changesFrom(result, stateWith(recorded("db")))[0]).not.toHaveProperty("resource.deposed");
  });

  it("refuses a create that hands back the id of the object it replaces: nothing is recorded, nothing deleted", async () => {
    const run = fakeContext({ provider: { create: async () => ({ id: "db-1", outputs: {} }) } });
    await expect(replace(replaceAction(), run.ctx)).rejects.toThrow('returned the id of the object it was replacing ("db-1")');
    expect(run.journal.entries).toEqual([{ t: "begin", op: 1, kind: "replace-create", urn: urnOf("db") }, { t: "abort", op: 1, m: [] }]);
  });

  it("a replacement made but not finished is recorded tainted, the old object still kept deposed", async () => {
    const run = fakeContext({ provider: { create: async () => Promise.reject(new IncompleteCreateError("db-2", {}, new Error("no tags"))) } });
    await expect(replace(replaceAction(), run.ctx)).rejects.toThrow("created db-2 but could not finish");
    expect(run.journal.entries[1]).toMatchObject({ t: "abort", m: [{ kind: "upsert", resource: { id: "db-2", tainted: true, deposed: [OLD] } }] });
  });
});

describe("the delete-replaced handler (the old object)", () => {
  it("deletes the old object where it lives and drops it from the deposed list", async () => {
    const deleted: unknown[] = [];
    const run = fakeContext({ provider: { delete: async ({ id, inputs, outputs }) => void deleted.push({ id, inputs, outputs }) }, state: stateWith(recorded("db", { id: "db-2" })) });
    const result = await deleteReplaced(deleteAction(), run.ctx);

    expect(deleted).toEqual([{ id: "db-1", inputs: { name: "a", password: "old-pw" }, outputs: { host: "h1" } }]);
    expect(run.journal.entries).toEqual([{ t: "begin", op: 1, kind: "replace-delete", urn: urnOf("db"), id: "db-1" }]);
    const earlier: DeposedObject = { id: "db-0", inputs: {}, outputs: {}, deps: [] };
    expect(changesFrom(result, stateWith(recorded("db", { id: "db-2", deposed: [earlier, OLD] })))).toEqual([{ kind: "upsert", resource: recorded("db", { id: "db-2", deposed: [earlier] }) }]);
  });

  it("the old object's delete takes the program's delete budget, else the one recorded with the object", async () => {
    const run = fakeContext({ state: stateWith(recorded("db", { id: "db-2" })) });
    await deleteReplaced(deleteAction({ meta: { ...META, timeouts: { delete: 7_000 } }, prior: { deps: [], timeouts: { delete: 9_000 } } }), run.ctx);
    await deleteReplaced(deleteAction({ prior: { deps: [], timeouts: { delete: 9_000 } } }), run.ctx);
    expect(run.budgets).toEqual([7_000, 9_000]);
  });

  it("delete first: removes the record, under its old URN when the resource was renamed", async () => {
    const run = fakeContext({ state: stateWith(recorded("old-db")) });
    const result = await deleteReplaced(deleteAction({ deleteFirst: true, movedFrom: urnOf("old-db") }), run.ctx);
    expect(changesFrom(result)).toEqual([{ kind: "remove", urn: urnOf("old-db") }]);
  });

  it("retainOnDelete: forgets the old object without calling its provider", async () => {
    const run = fakeContext({ provider: { delete: async () => Promise.reject(new Error("must not be called")) }, state: stateWith(recorded("db", { id: "db-2" })) });
    const result = await deleteReplaced(deleteAction({ meta: { ...META, retainOnDelete: true } }), run.ctx);
    expect(run.journal.entries).toEqual([]);
    expect(changesFrom(result, stateWith(recorded("db", { id: "db-2", deposed: [OLD] })))).toEqual([{ kind: "upsert", resource: recorded("db", { id: "db-2" }) }]);
  });

  it("does nothing when the replacement turned out to be the very object (nothing old to delete)", async () => {
    const run = fakeContext({ provider: { delete: async () => Promise.reject(new Error("must not be called")) }, state: stateWith(recorded("db", { id: "db-1" })) });
    const result = await deleteReplaced(deleteAction(), run.ctx);
    expect(run.journal.entries).toEqual([]);
    expect(changesFrom(result, stateWith(recorded("db", { id: "db-1" })))).toEqual([]);
  });

  it("a failed delete keeps the old object recorded (nothing removed) and masks the step's secrets in retries", async () => {
    let attempts = 0;
    const run = fakeContext({
      provider: { delete: async () => Promise.reject(++attempts === 1 ? new TransientError("busy: old-pw in use") : new Error("object is in use")) },
      state: stateWith(recorded("db", { id: "db-2" })),
    });
    await expect(deleteReplaced(deleteAction(), run.ctx)).rejects.toThrow("object is in use");
    expect(run.journal.entries.at(-1)).toEqual({ t: "abort", op: 1, m: [] });
    expect(run.events).toContainEqual(expect.objectContaining({ type: "step-retrying", kind: "delete-replaced", error: "busy: [secret] in use" }));
  });
});
