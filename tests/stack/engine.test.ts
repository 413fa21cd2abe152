import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { program, type ProgramFn } from "../../src/entry/program.js";
import { secret } from "../../src/program/output.js";
import type { EngineEvent } from "../../src/apply/events.js";
import { hasChanges, type Plan } from "../../src/plan/plan.js";
import { UNKNOWN } from "../../src/core/unknown.js";
import { memoryType } from "../helpers.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cairn-engine-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const kinds = (plan: Plan) => plan.steps.filter((s) => s.kind !== "same").map((s) => `${s.kind} ${s.urn.split("::").pop()}`);

function stackOf(fn: ProgramFn, opts: { parallel?: number } = {}) {
  const prog = program("eng", fn);
  const stack = prog.stack({ stateDir: dir, passphrase: "test-pass", ...opts });
  const events: EngineEvent[] = [];
  stack.events.subscribe((e) => events.push(e));
  return { stack, events };
}

describe("the engine, through the Stack API", () => {
  it("creates, converges, updates, replaces, deletes and destroys", async () => {
    const m = memoryType<{ name: string; size: number }, { name: string; size: number; arn: string }>(
      "test:eng:Cert",
      { inputs: { name: { forceNew: true }, size: {} }, outputs: { name: {}, size: {}, arn: { stable: true } } },
      { outputs: (_i, id) => ({ arn: `arn:${id}` }) },
    );
    const r = memoryType<{ target: string }, { target: string }>("test:eng:Record", { inputs: { target: {} }, outputs: { target: {} } });
    let cfg = { name: "a", size: 1, withRecord: true };
    const { stack, events } = stackOf(() => {
      const c = new m.Type("cert", { name: cfg.name, size: cfg.size });
      if (cfg.withRecord) new r.Type("rec", { target: c.arn });
      return { arn: c.arn };
    });

    const first = await stack.up();
    expect(kinds(first.plan)).toEqual(["create cert", "create rec"]);
    expect(first.plan.steps.find((s) => s.kind === "create" && s.urn.endsWith("rec"))).toMatchObject({ news: { target: UNKNOWN } });
    expect(first.summary).toMatchObject({ ok: true, succeeded: 2 });
    expect(first.outputs).toEqual({ arn: "arn:id-1" });
    expect([...r.objects.values()]).toEqual([{ target: "arn:id-1" }]);

    const again = await stack.preview();
    expect(hasChanges(again)).toBe(false);

    cfg = { ...cfg, size: 2 };
    const upd = await stack.up();
    expect(kinds(upd.plan)).toEqual(["update cert"]);
    // arn is stable on update, so the record's input stays known and unchanged
    expect(upd.plan.steps.find((s) => s.urn.endsWith("rec"))?.kind).toBe("same");

    cfg = { ...cfg, name: "b" };
    events.length = 0;
    const rep = await stack.up();
    expect(kinds(rep.plan)).toEqual(["replace cert", "update rec"]);
    expect(rep.plan.steps[0]).toMatchObject({ kind: "replace", replaceKeys: ["name"], deleteFirst: false });
    // create-before-delete: new cert, record moved to it, then the old cert deleted
    const done = events.flatMap((e) => (e.type === "step-succeeded" ? [`${e.kind} ${e.urn.split("::").pop()}`] : []));
    expect(done).toEqual(["replace cert", "update rec", "delete-replaced cert"]);
    expect(m.objects.has("id-1")).toBe(false);
    expect([...r.objects.values()]).toEqual([{ target: "arn:id-2" }]);

    cfg = { ...cfg, withRecord: false };
    const del = await stack.up();
    expect(kinds(del.plan)).toEqual(["delete rec"]);
    expect(r.objects.size).toBe(0);

    const gone = await stack.destroy();
    expect(kinds(gone.plan)).toEqual(["delete cert"]);
    expect(m.objects.size).toBe(0);
    expect(await stack.resources()).toEqual([]);
  });

  it("a failure skips only its dependents; independent branches finish and are saved", async () => {
    const m = memoryType<{ v: string }, { v: string }>("test:eng:Flaky", { inputs: { v: {} }, outputs: { v: {} } }, {
      fail: (op, urn) => (op === "create" && urn.endsWith("::bad") ? "boom: quota exceeded" : undefined),
    });
    const { stack, events } = stackOf(() => {
      const bad = new m.Type("bad", { v: "x" });
      new m.Type("child", { v: bad.v });
      new m.Type("grandchild", { v: "y" }, { dependsOn: [] });
      new m.Type("independent", { v: "z" });
    });
    const res = await stack.up();
    expect(res.summary).toMatchObject({ ok: false, failed: 1, skipped: 1, succeeded: 2 });
    expect(events).toContainEqual(expect.objectContaining({ type: "step-failed", error: "boom: quota exceeded", site: expect.stringMatching(/^tests\/stack\/engine\.test\.ts:\d+:\d+$/) }));
    expect(events).toContainEqual(expect.objectContaining({ type: "step-skipped", reason: "dependency failed: urn:cairn:dev::eng::test:eng:Flaky::bad" }));
    const saved = (await stack.resources()).map((r) => r.urn.split("::").pop()).sort();
    expect(saved).toEqual(["grandchild", "independent"]);
  });

  it("protect refuses delete and replace with a clear error, changing nothing", async () => {
    const m = memoryType<{ name: string }, { name: string }>("test:eng:Vault", { inputs: { name: { forceNew: true } }, outputs: { name: {} } });
    let name = "a";
    let present = true;
    const { stack } = stackOf(() => {
      if (present) new m.Type("vault", { name }, { protect: true });
    });
    await stack.up();
    name = "b";
    await expect(stack.up()).rejects.toThrow(/is protected and cannot be replaced \(changing name forces a replacement\)/);
    name = "a";
    present = false;
    await expect(stack.up()).rejects.toThrow(/is protected and cannot be deleted/);
    expect(m.objects.size).toBe(1);
  });

  it("retainOnDelete forgets the resource without deleting the object", async () => {
    const m = memoryType<{ n: number }>("test:eng:Kept", { inputs: { n: {} }, outputs: { n: {} } });
    let present = true;
    const { stack } = stackOf(() => {
      if (present) new m.Type("kept", { n: 1 }, { retainOnDelete: true });
    });
    await stack.up();
    present = false;
    const res = await stack.up();
    expect(res.plan.steps[0]).toMatchObject({ kind: "delete", retain: true });
    expect(m.objects.size).toBe(1);
    expect(await stack.resources()).toEqual([]);
  });

  it("aliases move state to a renamed resource without replacing it", async () => {
    const m = memoryType<{ n: number }>("test:eng:Moved", { inputs: { n: {} }, outputs: { n: {} } });
    let renamed = false;
    const { stack } = stackOf(() => {
      if (renamed) new m.Type("new-name", { n: 1 }, { aliases: [{ name: "old-name" }] });
      else new m.Type("old-name", { n: 1 });
    });
    await stack.up();
    renamed = true;
    const res = await stack.up();
    expect(res.plan.steps).toEqual([expect.objectContaining({ kind: "same", movedFrom: "urn:cairn:dev::eng::test:eng:Moved::old-name" })]);
    expect(m.calls.filter((c) => c.op !== "read").map((c) => c.op)).toEqual(["create"]);
    expect((await stack.resources()).map((r) => r.urn)).toEqual(["urn:cairn:dev::eng::test:eng:Moved::new-name"]);
    expect(hasChanges(await stack.preview())).toBe(false);
  });

  it("ignoreChanges, replaceOnChanges and deleteBeforeReplace shape the plan", async () => {
    const m = memoryType<{ a: number; b: number }>("test:eng:Opts", { inputs: { a: {}, b: {} }, outputs: { a: {}, b: {} } });
    let v = { a: 1, b: 1 };
    const { stack } = stackOf(() => {
      new m.Type("ign", v, { ignoreChanges: ["a"] });
      new m.Type("roc", v, { replaceOnChanges: ["b"], deleteBeforeReplace: true });
    });
    await stack.up();
    v = { a: 2, b: 1 };
    let plan = await stack.preview();
    expect(kinds(plan)).toEqual(["update roc"]);
    v = { a: 1, b: 2 };
    plan = await stack.preview();
    expect(plan.steps.find((s) => s.urn.endsWith("roc"))).toMatchObject({ kind: "replace", reason: "replaceOnChanges", deleteFirst: true });
    const res = await stack.up();
    const ops = m.calls.filter((c) => c.op !== "read" && c.urn.endsWith("roc")).map((c) => c.op);
    expect(ops.slice(-2)).toEqual(["delete", "create"]);
    expect(res.summary?.ok).toBe(true);
  });

  it("--target plans only the target and its dependencies; --replace forces a replacement", async () => {
    const m = memoryType<{ v: string }>("test:eng:T", { inputs: { v: {} }, outputs: { v: {} } });
    const { stack } = stackOf(() => {
      const base = new m.Type("base", { v: "1" });
      new m.Type("top", { v: base.v });
      new m.Type("other", { v: "2" });
    });
    const plan = await stack.preview({ targets: ["urn:cairn:dev::eng::test:eng:T::top" as never] });
    expect(kinds(plan)).toEqual(["create base", "create top"]);
    await stack.up();
    const rp = await stack.preview({ replace: ["urn:cairn:dev::eng::test:eng:T::other" as never] });
    expect(kinds(rp)).toEqual(["replace other"]);
    await expect(stack.up({ replace: ["urn:nope" as never] })).rejects.toThrow(/--replace urn:nope: no resource with this URN/);
  });

  it("a create that failed part-way leaves a tainted object that the next plan replaces", async () => {
    const { IncompleteCreateError } = await import("../../src/core/errors.js");
    const { defineResource } = await import("../../src/program/define.js");
    let fail = true;
    const deleted: string[] = [];
    const T = defineResource<{ v: number }, { v: number }>("test:eng:Partial", {
      provider: {
        async create({ inputs }) {
          if (fail) throw new IncompleteCreateError("half-1", { v: inputs.v }, new Error("tagging failed"));
          return { id: "whole-1", outputs: inputs };
        },
        async read({ outputs }) { return outputs; },
        async delete({ id }) { deleted.push(id); },
      },
      schema: { inputs: { v: {} }, outputs: { v: {} } },
    });
    const { stack } = stackOf(() => void new T("p", { v: 1 }));
    const first = await stack.up();
    expect(first.summary?.ok).toBe(false);
    expect(await stack.resources()).toEqual([expect.objectContaining({ id: "half-1", tainted: true })]);
    fail = false;
    const second = await stack.up();
    expect(second.plan.steps[0]).toMatchObject({ kind: "replace", reason: "tainted" });
    expect(deleted).toEqual(["half-1"]);
    expect(await stack.resources()).toEqual([expect.objectContaining({ id: "whole-1" })]);
  });

  it("secrets print as [secret] and a stale plan is refused", async () => {
    const m = memoryType<{ pw: string }, { pw: string }>("test:eng:Db", { inputs: { pw: {} }, outputs: { pw: {} } });
    const { stack } = stackOf(() => {
      const db = new m.Type("db", { pw: secret("hunter2") });
      return { pw: db.pw };
    });
    const plan = await stack.preview();
    expect(plan.steps[0]).toMatchObject({ secretKeys: ["pw"] });
    expect(plan.secretOutputs).toEqual(["pw"]);
    const { renderPlan, planToJson } = await import("../../src/cli/render.js");
    expect(renderPlan(plan)).not.toContain("hunter2");
    expect(JSON.stringify(planToJson(plan))).not.toContain("hunter2");
    await stack.up();
    await expect(stack.apply(plan)).rejects.toThrow(/changed since this plan was made/);
  });

  it("lookups are read at plan time, and deferred when their id is not known yet", async () => {
    const m = memoryType<{ v: string }>("test:eng:Zone", { inputs: { v: {} }, outputs: { v: {} } });
    const { stack } = stackOf(() => {
      const z = new m.Type("zone", { v: "example.dev" });
      const found = m.Type.get("found", z.id);
      return { v: found.v };
    });
    const plan = await stack.preview();
    expect(plan.steps.find((s) => s.kind === "read")).toMatchObject({ kind: "read", deferred: true });
    const res = await stack.up();
    expect(res.outputs).toEqual({ v: "example.dev" });
    const again = await stack.preview();
    expect(again.steps.find((s) => s.kind === "read")).toMatchObject({ deferred: false });
    expect(hasChanges(again)).toBe(false);
  });

  it("refresh records drift and deletion made outside Cairn", async () => {
    const m = memoryType<{ v: string }>("test:eng:Drift", { inputs: { v: {} }, outputs: { v: {} } });
    const { stack } = stackOf(() => {
      new m.Type("a", { v: "1" });
      new m.Type("b", { v: "2" });
    });
    await stack.up();
    const [idA, idB] = [...m.objects.keys()];
    m.objects.set(idA!, { v: "edited" });
    m.objects.delete(idB!);
    const r = await stack.refresh({ confirm: async () => true });
    expect(r.changes).toEqual([
      expect.objectContaining({ kind: "drift", changed: ["v"] }),
      expect.objectContaining({ kind: "gone" }),
    ].sort(() => 0));
    const plan = await stack.preview();
    expect(kinds(plan)).toContain("create b");
  });

  it("runs independent steps concurrently up to --parallel", async () => {
    const slow = await timedType("test:eng:Slow", "create", 20);
    await appliedMany(slow.Type, 12, 4);
    expect(slow.peak()).toBe(4);
  });
});

/** A type whose `op` takes `ms`, counting how many of its calls ran at once at most, and in all. */
async function timedType(type: string, op: "create" | "read", ms: number) {
  let running = 0;
  let peak = 0;
  let calls = 0;
  const timed = async <T>(value: T): Promise<T> => {
    calls++;
    peak = Math.max(peak, ++running);
    await new Promise((r) => setTimeout(r, ms));
    running--;
    return value;
  };
  const { defineResource } = await import("../../src/program/define.js");
  const Type = defineResource<{ i: number }>(type, {
    provider: {
      async create({ inputs }) {
        const made = { id: String(inputs.i), outputs: inputs };
        return op === "create" ? timed(made) : made;
      },
      async read({ outputs }) {
        return op === "read" ? timed(outputs) : outputs;
      },
      async delete() {},
    },
    schema: { inputs: { i: {} }, outputs: { i: {} } },
  });
  return { Type, peak: () => peak, calls: () => calls };
}

/** A stack of `n` resources of `Type`, applied with `parallel` calls at once. */
async function appliedMany(Type: new (name: string, inputs: { i: number }) => unknown, n: number, parallel: number) {
  const { stack } = stackOf(() => {
    for (let i = 0; i < n; i++) new Type(`r${i}`, { i });
  }, { parallel });
  await stack.up();
  return stack;
}

describe("refresh", () => {
  it("reads the recorded objects --parallel at a time, not all at once", async () => {
    const watched = await timedType("test:eng:Watched", "read", 5);
    const stack = await appliedMany(watched.Type, 30, 3);
    const r = await stack.refresh({ confirm: async () => true });
    expect(r.changes).toEqual([]);
    expect([watched.calls(), watched.peak()]).toEqual([30, 3]);
  });
});

describe("secrets a stack recorded earlier", () => {
  it("are masked in a later run's messages, though the program no longer holds them", async () => {
    const r = memoryType<{ v: string }>("test:eng:Quoter", { inputs: { v: {} }, outputs: { v: {} } }, { fail: (op, urn) => (op === "create" && urn.endsWith("quoter") ? "the password hunter2 was refused" : undefined) });
    const first = stackOf(() => ({ pw: secret("hunter2") }));
    expect((await first.stack.up()).summary?.ok).toBe(true);
    const later = stackOf(() => void new r.Type("quoter", { v: "x" }));
    const res = await later.stack.up();
    expect(res.summary?.ok).toBe(false);
    const failed = later.events.find((e) => e.type === "step-failed");
    expect(failed).toMatchObject({ type: "step-failed", error: expect.stringContaining("[secret]") });
    expect(JSON.stringify(later.events)).not.toContain("hunter2");
  });
});
