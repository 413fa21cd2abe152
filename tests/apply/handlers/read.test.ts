import { describe, expect, it } from "vitest";
import { read as readHandler } from "../../../src/apply/handlers/read.js";
import { Program } from "../../../src/entry/program.js";
import type { Action } from "../../../src/plan/actions.js";
import { defineResource } from "../../../src/program/define.js";
import type { GraphNode } from "../../../src/program/node.js";
import type { Props } from "../../../src/state/types.js";
import { changesFrom, fakeContext, asRun } from "./fake-context.js";

const read = asRun(readHandler);

const Zone = defineResource<{ name: string }, { name: string; token: string }>("test:read:Zone", {
  // Never called here: the handler asks the context's provider.
  provider: { create: async () => ({ id: "z", outputs: { name: "", token: "" } }), read: async ({ outputs }) => outputs, lookup: async () => undefined, delete: async () => {} },
  schema: { inputs: { name: {} }, outputs: { name: {}, token: { secret: true } } },
});

/** The program's lookup node of `Zone.get("zone", key)`, and a read action for it. */
async function lookupOf(key: string | { name: string }): Promise<{ node: GraphNode; action: Extract<Action, { kind: "read" }> }> {
  const ev = await new Program("web", () => void Zone.get("zone", key as string)).evaluate({ stack: "dev" });
  const node = ev.nodes.find((n) => n.kind === "lookup") as GraphNode;
  return { node, action: { id: "l1", kind: "read", index: 0, step: { kind: "read", urn: node.urn, type: node.type, deps: [], id: "", deferred: true } } };
}

describe("the read handler (a lookup read during apply)", () => {
  it("reads the object by id and gives it as the lookup's value, secret attributes marked; state is not touched", async () => {
    const { node, action } = await lookupOf("Z123");
    const asked: unknown[] = [];
    const run = fakeContext({ provider: { read: async ({ id }) => (asked.push(id), { name: "example.dev", token: "tok-1" }) }, nodes: [node] });
    const result = await read(action, run.ctx);

    expect(asked).toEqual(["Z123"]);
    expect(result.value).toMatchObject({ id: "Z123", outputs: { name: "example.dev", token: "tok-1" } });
    expect([...result.value!.secretKeys]).toEqual(["token"]);
    expect(result.op).toBeUndefined();
    expect(changesFrom(result, { version: 1, project: "web", stack: "dev", serial: 1, resources: {}, outputs: {} })).toEqual([]);
    expect(run.journal.entries).toEqual([]);
    expect(run.calling).toEqual(["l1"]);
  });

  it("looks an object up by a query through the provider's lookup", async () => {
    const { node, action } = await lookupOf({ name: "example.dev" });
    const queries: Props[] = [];
    const run = fakeContext({ provider: { lookup: async ({ query }: { query: Props }) => (queries.push(query), { id: "Z9", outputs: { name: "example.dev", token: "t" } }) } as never, nodes: [node] });
    expect((await read(action, run.ctx)).value).toMatchObject({ id: "Z9" });
    expect(queries).toEqual([{ name: "example.dev" }]);
  });

  it("fails naming the key when nothing matches", async () => {
    const { node, action } = await lookupOf("Z404");
    const run = fakeContext({ provider: { read: async () => undefined }, nodes: [node] });
    await expect(read(action, run.ctx)).rejects.toThrow(/^nothing matches .*Z404/);
  });

  it("needs the program that declares the lookup", async () => {
    const { action } = await lookupOf("Z1");
    await expect(read(action, fakeContext().ctx)).rejects.toThrow("a read during apply needs the program that declares the lookup");
  });
});
