import { describe, expect, it } from "vitest";
import { IncompleteCreateError } from "../../../src/core/errors.js";
import { create as createHandler } from "../../../src/apply/handlers/create.js";
import { UncertainCall } from "../../../src/apply/invoke.js";
import type { Action } from "../../../src/plan/actions.js";
import type { Props } from "../../../src/state/types.js";
import { changesFrom, fakeContext, META, urnOf, asRun } from "./fake-context.js";

const create = asRun(createHandler);

type CreateAction = Extract<Action, { kind: "create" }>;

function createAction(news: Props, over: Partial<CreateAction["step"]> = {}): CreateAction {
  return { id: "a1", kind: "create", index: 0, step: { kind: "create", urn: urnOf("db"), type: "test:Db", deps: [], news, secretKeys: [], meta: { ...META, deps: [urnOf("net", "test:Net")] }, ...over } };
}

describe("the create handler", () => {
  it("creates the object with the planned inputs and records it whole, after a durable create record", async () => {
    const seen: Props[] = [];
    const run = fakeContext({ provider: { create: async ({ inputs }) => (seen.push(inputs), { id: "db-7", outputs: { host: "db.internal" } }) } });
    const result = await create(createAction({ size: 2 }), run.ctx);

    expect(seen).toEqual([{ size: 2 }]);
    expect(run.journal.entries).toEqual([{ t: "begin", op: 1, kind: "create", urn: urnOf("db") }]);
    expect(run.calling).toEqual(["a1"]);
    expect(result.op).toBe(1);
    expect(changesFrom(result)).toEqual([
      { kind: "upsert", resource: { urn: urnOf("db"), type: "test:Db", id: "db-7", inputs: { size: 2 }, outputs: { host: "db.internal" }, deps: [urnOf("net", "test:Net")] } },
    ]);
    expect(result.value).toMatchObject({ id: "db-7", outputs: { host: "db.internal" }, restUnknown: false });
  });

  it("gives the call the create time budget of the resource's customTimeouts", async () => {
    const run = fakeContext();
    await create(createAction({}, { meta: { ...META, timeouts: { create: 120_000 } } }), run.ctx);
    expect(run.budgets).toEqual([120_000]);
  });

  it("removes the record a renamed resource had under its old URN", async () => {
    const run = fakeContext({ provider: { create: async () => ({ id: "db-7", outputs: {} }) } });
    const result = await create(createAction({}, { movedFrom: urnOf("old-db") }), run.ctx);
    expect(changesFrom(result)[0]).toEqual({ kind: "remove", urn: urnOf("old-db") });
    expect(changesFrom(result)[1]).toMatchObject({ kind: "upsert", resource: { urn: urnOf("db") } });
  });

  it("records an object made but not finished as tainted, so the next plan replaces it", async () => {
    const run = fakeContext({ provider: { create: async () => Promise.reject(new IncompleteCreateError("db-half", { host: "h" }, new Error("tagging failed"))) } });
    await expect(create(createAction({ size: 2 }), run.ctx)).rejects.toThrow("created db-half but could not finish: tagging failed");
    expect(run.journal.entries[1]).toEqual({
      t: "abort", op: 1,
      m: [{ kind: "upsert", resource: { urn: urnOf("db"), type: "test:Db", id: "db-half", inputs: { size: 2 }, outputs: { host: "h" }, deps: [urnOf("net", "test:Net")], tainted: true } }],
    });
  });

  it("a create that fails outright records nothing but the failure", async () => {
    const run = fakeContext({ provider: { create: async () => Promise.reject(new Error("quota exceeded")) } });
    await expect(create(createAction({}), run.ctx)).rejects.toThrow("quota exceeded");
    expect(run.journal.entries).toEqual([{ t: "begin", op: 1, kind: "create", urn: urnOf("db") }, { t: "abort", op: 1, m: [] }]);
  });

  it("refuses a result without an id as uncertain: its pending record stays for the next run to check", async () => {
    const run = fakeContext({ provider: { create: async () => ({ id: "", outputs: {} }) } });
    const err = await create(createAction({}), run.ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UncertainCall);
    expect((err as Error).message).toContain('returned no id from create (got "")');
    expect(run.journal.entries.map((e) => e.t)).toEqual(["begin"]);
  });

  it("keeps secret inputs secret, and outputs that carry one secret too; every such value is registered for masking", async () => {
    const run = fakeContext({ provider: { create: async ({ inputs }) => ({ id: "db-7", outputs: { url: `postgres://admin:${String(inputs.password)}@db`, port: 5432 } }) } });
    const result = await create(createAction({ password: "s3cret-pw-1" }, { secretKeys: ["password"] }), run.ctx);

    expect(changesFrom(result)[0]).toMatchObject({ resource: { secretKeys: ["password", "url"] } });
    expect([...result.value!.secretKeys].sort()).toEqual(["password", "url"]);
    expect(run.ctx.secrets.redact("login with s3cret-pw-1 failed")).toBe("login with [secret] failed");
    expect(run.ctx.secrets.redact("postgres://admin:s3cret-pw-1@db")).not.toContain("s3cret-pw-1");
  });
});
