import { describe, expect, it } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { program } from "../../src/entry/program.js";
import { defineResource } from "../../src/program/define.js";
import type { Provider } from "../../src/provider/provider.js";
import { memoryProvider } from "../helpers.js";
import { wait } from "../../src/wait/wait.js";
import { all, output, secret } from "../../src/program/output.js";
import type { Urn } from "../../src/core/urn.js";

/**
 * A source whose `items` output is known only once it is created (like a certificate's validation
 * options), and an item type the program declares one of per item, inside `apply()`.
 */
function world(declare: (list: { key: string; value: string }[], make: (key: string, value: string) => unknown) => unknown[] = (list, make) => list.map((i) => make(i.key, i.value)), opts: { wait: boolean; backend?: string } = { wait: true }) {
  const src = memoryProvider({ outputs: (inputs) => ({ items: (inputs.names as string[]).map((n) => ({ key: n, value: `v-${n}` })), ready: true }) });
  const item = memoryProvider();
  const Source = defineResource<{ names: string[] }, { names: string[]; items: { key: string; value: string }[]; ready: boolean }>("test:deferred:Source", {
    provider: src.provider as unknown as Provider<{ names: string[] }, { names: string[]; items: { key: string; value: string }[]; ready: boolean }>,
    schema: { inputs: { names: {} }, outputs: { names: {}, items: {}, ready: {} } },
  });
  const Item = defineResource<{ value: string }, { value: string }>("test:deferred:Item", {
    provider: item.provider as unknown as Provider<{ value: string }, { value: string }>,
    schema: { inputs: { value: {} }, outputs: { value: {} } },
  });
  const names = { list: ["a", "b", "c"] };
  const prog = program("deferred", () => {
    const source = new Source("source", { names: names.list });
    const items = source.items.apply((list) => declare(list, (key, value) => new Item(`item-${key}`, { value })) as InstanceType<typeof Item>[]);
    if (!opts.wait) return {};
    const done = wait(source, { name: "done", until: (s) => s.ready.eq(true), dependsOn: items });
    return { count: items.apply((l) => l.length), ready: done.ready };
  });
  const stack = prog.stack({ stack: "dev", backend: opts.backend ?? "memory://", passphrase: "p" });
  return { stack, src, item, names, prog };
}

describe("resources declared inside apply() on a value known only after apply", () => {
  it("preview shows them deferred, with the value they wait for", async () => {
    const w = world();
    const plan = await w.stack.preview();
    expect(plan.diagnostics).toEqual([]);
    expect(plan.steps.map((s) => `${s.kind} ${s.urn.split("::").pop()}`)).toEqual(["create source"]);
    expect(plan.deferred?.map((d) => `${d.kind} ${d.type} ${d.name ?? d.pattern} <- ${d.waitsFor}`)).toEqual([
      "declared test:deferred:Item item-… <- source.items",
      "node cairn:wait done <- source.items",
    ]);
  });

  it("one up creates the source, then the items, then passes the wait; a second up changes nothing", async () => {
    const w = world();
    const r = await w.stack.up();
    expect(r.summary?.ok).toBe(true);
    expect(r.rounds?.length).toBe(2);
    expect(w.src.calls.filter((c) => c.op === "create").length).toBe(1);
    expect(w.item.calls.filter((c) => c.op === "create").map((c) => c.urn.split("::").pop())).toEqual(["item-a", "item-b", "item-c"]);
    expect(r.outputs).toEqual({ count: 3, ready: true });
    const state = await w.stack.resources();
    expect(state.filter((s) => s.type === "test:deferred:Item").map((s) => s.declaredIn)).toEqual(Array(3).fill({ on: [expect.stringContaining("source")], waitsFor: "source.items" }));
    const again = await w.stack.preview();
    expect(again.deferred).toBeUndefined();
    expect(again.steps.filter((s) => s.kind !== "same" && s.kind !== "wait")).toEqual([]);
  });

  it("removing a name deletes its item, and keeps the others while the value is unknown", async () => {
    const w = world();
    await w.stack.up();
    w.names.list = ["a", "c"];
    const plan = await w.stack.preview();
    // The source is updated: its items are unknown again, so the items it declared are kept, not deleted.
    expect(plan.steps.filter((s) => s.kind === "delete")).toEqual([]);
    expect(plan.deferred?.filter((d) => d.kind === "kept").map((d) => d.name)).toEqual(["item-a", "item-b", "item-c"]);
    const r = await w.stack.up();
    expect(r.summary?.ok).toBe(true);
    expect(w.item.calls.filter((c) => c.op === "delete").map((c) => c.urn.split("::").pop())).toEqual(["item-b"]);
    expect([...w.item.objects.values()].map((o) => o.value).sort()).toEqual(["v-a", "v-c"]);
  });

  it("a callback that declares nothing on stand-ins (it filters on an unknown field) still holds back what depends on its result", async () => {
    const w = world((list, make) => list.filter((i) => i.key === "a" || i.key === "c").map((i) => make(i.key, i.value)));
    const plan = await w.stack.preview();
    expect(plan.deferred?.map((d) => `${d.kind} ${d.name}`)).toEqual(["node done"]);
    const r = await w.stack.up();
    expect(r.summary?.ok).toBe(true);
    expect(w.item.calls.filter((c) => c.op === "create").map((c) => c.urn.split("::").pop())).toEqual(["item-a", "item-c"]);
    expect(r.outputs).toEqual({ count: 2, ready: true });
  });

  it("a callback that cannot run on stand-ins is not foreseen, and up plans once more after applying, so what it declares is made in the same run", async () => {
    const w = world((list, make) => {
      if (!Array.isArray(list)) throw new Error("not a list yet");
      return list.map((i) => make(i.key, i.value));
    }, { wait: false });
    const plan = await w.stack.preview();
    expect(plan.unforeseen).toEqual(["source.items"]);
    expect(plan.deferred).toBeUndefined(); // nothing reads its result: preview cannot tell, and says nothing is deferred
    const r = await w.stack.up();
    expect(r.summary?.ok).toBe(true);
    expect(r.rounds?.length).toBe(2);
    expect(w.item.calls.filter((c) => c.op === "create").length).toBe(3);
  });
});

describe("a wait declared inside apply()", () => {
  it("gates on a resource the same callback declared, in the round that declares it", async () => {
    const item = memoryProvider();
    const Item = defineResource<{ value: string }, { value: string }>("test:deferred:Waited", {
      provider: item.provider as unknown as Provider<{ value: string }, { value: string }>,
      schema: { inputs: { value: {} }, outputs: { value: {} } },
    });
    const src = memoryProvider({ outputs: () => ({ items: ["x", "y"] }) });
    const Source = defineResource<{ n: number }, { n: number; items: string[] }>("test:deferred:WaitSource", {
      provider: src.provider as unknown as Provider<{ n: number }, { n: number; items: string[] }>,
      schema: { inputs: { n: {} }, outputs: { n: {}, items: {} } },
    });
    const prog = program("deferred-wait", () => {
      const source = new Source("source", { n: 1 });
      const gated = source.items.apply((names) =>
        names.map((n) => wait(new Item(`item-${n}`, { value: n }), { name: `ready-${n}`, until: (i) => i.value.eq(n) }).value),
      );
      return { gated };
    });
    const stack = prog.stack({ stack: "dev", backend: "memory://" });
    const plan = await stack.preview();
    // On stand-ins the wait's predicate cannot be built (it compares with an unknown value): preview shows
    // what the callback declared before that.
    expect(plan.deferred?.map((d) => `${d.kind} ${d.type} ${d.name ?? d.pattern}`)).toEqual(["declared test:deferred:Waited item-…"]);
    const r = await stack.up();
    expect(r.summary?.ok).toBe(true);
    expect(r.rounds?.[1]?.plan.steps.filter((s) => s.kind === "wait").map((s) => s.kind === "wait" && s.name)).toEqual(["ready-x", "ready-y"]);
    expect(r.outputs).toEqual({ gated: ["x", "y"] });
  });
});

describe("replacing the resource a callback declared from", () => {
  it("keeps its old object until the resources declared from it let go: they follow it, and it is deleted in the next round", async () => {
    // A provider that refuses to delete an object something still refers to, as a cloud does ("in use").
    const refs = new Map<string, string>(); // item id → source id it refers to
    const src = memoryProvider({ outputs: (inputs) => ({ items: (inputs.names as string[]).map((n) => ({ key: n, value: `v-${n}` })) }) });
    const deleteSource = src.provider.delete;
    src.provider.delete = async (args) => {
      if ([...refs.values()].includes(args.id)) throw new Error(`${args.id} is in use`);
      return deleteSource(args);
    };
    const item = memoryProvider();
    const createItem = item.provider.create;
    item.provider.create = async (args) => {
      const r = await createItem(args);
      refs.set(r.id, String(args.inputs.source));
      return r;
    };
    const updateItem = item.provider.update!;
    item.provider.update = async (args) => {
      refs.set(args.id, String(args.news.source));
      return updateItem(args);
    };
    const deleteItem = item.provider.delete;
    item.provider.delete = async (args) => (refs.delete(args.id), deleteItem(args));
    const Source = defineResource<{ names: string[]; gen: number }, { names: string[]; gen: number; items: { key: string; value: string }[] }>("test:deferred:RefSource", {
      provider: src.provider as never,
      schema: { inputs: { names: {}, gen: { forceNew: true } }, outputs: { names: {}, gen: {}, items: {} } },
    });
    const Item = defineResource<{ value: string; source: string }, { value: string; source: string }>("test:deferred:RefItem", {
      provider: item.provider as never,
      schema: { inputs: { value: {}, source: {} }, outputs: { value: {}, source: {} } },
    });
    const gen = { n: 1 };
    const prog = program("deferred-ref", () => {
      const source = new Source("source", { names: ["a", "b"], gen: gen.n });
      all([source.id, source.items]).apply(([id, list]) => list.map((i) => new Item(`item-${i.key}`, { value: i.value, source: id })));
    });
    const stack = prog.stack({ stack: "dev", backend: "memory://" });
    expect((await stack.up()).summary?.ok).toBe(true);
    gen.n = 2; // forces a replacement of the source
    const plan = await stack.preview();
    expect(plan.steps.find((s) => s.kind === "replace")).toMatchObject({ keepOld: true });
    const r = await stack.up();
    expect(r.summary?.ok, JSON.stringify(r.summary)).toBe(true);
    expect(src.objects.size).toBe(1); // the old source was deleted, once the items let go of it
    expect(new Set(refs.values())).toEqual(new Set([...src.objects.keys()]));
  });
});

describe("what runs on stand-ins stays there", () => {
  it("an apply made inside a callback run on stand-ins is never run for real; up plans once more and declares what it declares", async () => {
    const w = world((list, make) => list.map((i) => output("z").apply((z) => make(`${i.key}-${z}`, i.value))), { wait: false });
    const plan = await w.stack.preview();
    expect(plan.steps.map((s) => s.urn.split("::").pop())).toEqual(["source"]); // nothing named from a stand-in
    expect(plan.unforeseen).toEqual(["source.items"]);
    const r = await w.stack.up();
    expect(r.summary?.ok).toBe(true);
    expect(w.item.calls.filter((c) => c.op === "create").map((c) => c.urn.split("::").pop()).sort()).toEqual(["item-a-z", "item-b-z", "item-c-z"]);
  });

  it("with --target, up runs one round and says what is left", async () => {
    const w = world();
    const notes: string[] = [];
    w.stack.events.subscribe((e) => e.type === "diagnostic" && notes.push(e.summary));
    const r = await w.stack.up({ targets: ["urn:cairn:dev::deferred::test:deferred:Source::source" as Urn] });
    expect(r.summary?.ok).toBe(true);
    expect(r.rounds).toBeUndefined();
    expect(w.item.calls.filter((c) => c.op === "create")).toEqual([]);
    expect(notes.join("\n")).toContain("with --target up runs one round");
  });

  it("a saved plan holding resources a callback declared is refused once that callback declares something else", async () => {
    const label = { v: "one" };
    const dir = await mkdtemp(join(tmpdir(), "cairn-deferred-plan-"));
    try {
      const w = world((list, make) => list.map((i) => make(i.key, `${i.value}-${label.v}`)), { wait: false, backend: `file://${dir}` });
      await w.stack.up();
      label.v = "two";
      const plan = await w.stack.preview();
      expect(plan.steps.filter((s) => s.kind === "update").length).toBe(3);
      // A new process (a new Stack) applies the saved plan after the callback changed.
      label.v = "three";
      const later = w.prog.stack({ stack: "dev", backend: `file://${dir}`, passphrase: "p" });
      await expect(later.apply(plan)).rejects.toThrow(/The program changed since this plan was made/);
      label.v = "two"; // unchanged: applied as planned
      expect((await w.prog.stack({ stack: "dev", backend: `file://${dir}`, passphrase: "p" }).apply(plan)).summary?.ok).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("secrets and stand-ins", () => {
  it("a callback on a secret value is foreseen on stand-ins only: no secret reaches a deferred part's name", async () => {
    const src = memoryProvider({ outputs: (inputs) => ({ items: (inputs.names as string[]).map((n) => ({ key: n })) }) });
    const provider = { ...src.provider, planOutputs: ({ inputs }: { inputs: Record<string, unknown> }) => ({ items: (inputs.names as string[]).map((key) => ({ key })) }) };
    const Source = defineResource<{ names: string[] }, { names: string[]; items: { key: string }[] }>("test:deferred:SecretSource", {
      provider: provider as never,
      schema: { inputs: { names: {} }, outputs: { names: {}, items: {} } },
    });
    const item = memoryProvider();
    const Item = defineResource<{ v: string }, { v: string }>("test:deferred:SecretItem", { provider: item.provider as never, schema: { inputs: { v: {} }, outputs: { v: {} } } });
    const prog = program("deferred-secret", () => {
      const source = new Source("source", { names: secret(["hunter2"]) as unknown as string[] });
      source.items.apply((list) => list.map((i) => new Item(`item-${i.key}`, { v: "x" })));
    });
    const plan = await prog.stack({ stack: "dev", backend: "memory://", passphrase: "p" }).preview();
    expect(plan.deferred?.map((d) => d.name ?? d.pattern)).toEqual(["item-…"]);
    expect(JSON.stringify(plan.deferred)).not.toContain("hunter2");
  });
});

describe("a declaration no plan foresaw", () => {
  it("defers the step that ran the callback, and what follows it, to the next round instead of failing", async () => {
    const src = memoryProvider({ outputs: (inputs) => ({ items: (inputs.names as string[]).map((n) => ({ key: n })) }) });
    const Source = defineResource<{ names: string[] }, { names: string[]; items: { key: string }[] }>("test:deferred:LateSource", {
      provider: src.provider as never,
      schema: { inputs: { names: {} }, outputs: { names: {}, items: {} } },
    });
    const item = memoryProvider();
    const Item = defineResource<{ v: string }, { v: string }>("test:deferred:LateItem", { provider: item.provider as never, schema: { inputs: { v: {} }, outputs: { v: {} } } });
    const prog = program("deferred-late", () => {
      const source = new Source("source", { names: ["a", "b"] });
      // On stand-ins the filter keeps nothing, so nothing is foreseen; for real it declares item-a.
      const values = source.items.apply((list) => list.filter((i) => i.key === "a").map((i) => new Item(`item-${i.key}`, { v: i.key }).v));
      const consumer = new Item("consumer", { v: values.apply((vs) => vs.join(",")) });
      new Item("after", { v: consumer.v });
      return { v: consumer.v };
    });
    const stack = prog.stack({ stack: "dev", backend: "memory://" });
    const skipped: string[] = [];
    stack.events.subscribe((e) => e.type === "step-skipped" && skipped.push(`${e.urn.split("::").pop()}: ${e.reason}`));
    const r = await stack.up();
    expect(r.summary?.ok).toBe(true);
    expect(r.rounds?.[0]?.summary).toMatchObject({ ok: true, deferred: 2, failed: 0, skipped: 0 });
    expect(skipped).toEqual([
      "consumer: deferred to the next round: a value it reads declares resources no plan included",
      expect.stringMatching(/^after: deferred to the next round: it follows urn:.*::consumer$/),
    ]);
    expect(item.calls.filter((c) => c.op === "create").map((c) => c.urn.split("::").pop())).toEqual(["item-a", "consumer", "after"]);
    expect(r.outputs).toEqual({ v: "a" });
  });
});
