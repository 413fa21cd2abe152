import { describe, expect, it } from "vitest";
import { program } from "../../src/entry/program.js";
import { defineResource } from "../../src/program/define.js";
import type { Provider } from "../../src/provider/provider.js";
import { memoryProvider } from "../helpers.js";
import { wait } from "../../src/wait/wait.js";

/**
 * A source whose `items` output is known only once it is created (like a certificate's validation
 * options), and an item type the program declares one of per item, inside `apply()`.
 */
function world(declare: (list: { key: string; value: string }[], make: (key: string, value: string) => unknown) => unknown[] = (list, make) => list.map((i) => make(i.key, i.value)), opts = { wait: true }) {
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
  const stack = prog.stack({ stack: "dev", backend: "memory://" });
  return { stack, src, item, names };
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
