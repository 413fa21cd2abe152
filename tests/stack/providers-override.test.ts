import { afterEach, describe, expect, it } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { program } from "../../src/entry/program.js";
import { defineResource } from "../../src/program/define.js";
import type { Provider } from "../../src/provider/provider.js";
import { memoryProvider } from "../helpers.js";

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

const real: Provider<{ v: string }, { v: string }> = {
  async create() { throw new Error("the real provider was called"); },
  async read() { throw new Error("the real provider was called"); },
  async delete() { throw new Error("the real provider was called"); },
};
const Thing = defineResource<{ v: string }, { v: string }>("test:override:Thing", { provider: real, schema: { inputs: { v: {} }, outputs: { v: {} } } });

describe("StackOptions.providers: standing in for a type's provider", () => {
  it("every call (plan, apply, refresh, destroy) goes to the override; other types keep theirs", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cairn-override-"));
    dirs.push(dir);
    const mock = memoryProvider();
    const stack = program("override", () => void new Thing("t", { v: "1" })).stack({
      stateDir: dir,
      providers: (type) => (type === "test:override:Thing" ? mock.provider : undefined),
    });
    expect((await stack.up()).summary?.ok).toBe(true);
    await stack.refresh({ confirm: async () => true });
    await stack.destroy();
    expect(mock.calls.map((c) => c.op)).toEqual(["create", "read", "delete"]);
  });
});

describe("library users: per-stack provider defaults and per-call cancellation", () => {
  it("defaultProviders gives every resource that names no instance the stack's one (recorded in state)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cairn-override-"));
    dirs.push(dir);
    const mock = memoryProvider();
    const seen: unknown[] = [];
    const local = { package: "test", name: "emulator", settings: { endpoint: "http://127.0.0.1:4566" } };
    const stack = program("defaults", () => void new Thing("t", { v: "1" })).stack({
      stateDir: dir,
      defaultProviders: { test: local },
      providers: () => ({ ...mock.provider, create: async (a: Parameters<typeof mock.provider.create>[0]) => (seen.push(a.ctx.provider), mock.provider.create(a)) }),
    });
    expect((await stack.up()).summary?.ok).toBe(true);
    expect(seen).toEqual([local]);
    expect((await stack.resources())[0]!.provider).toEqual({ name: "emulator", settings: { endpoint: "http://127.0.0.1:4566" } });
  });

  it("up({ signal }) cancels one call like a first Ctrl-C: nothing is applied", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cairn-override-"));
    dirs.push(dir);
    const mock = memoryProvider();
    const stack = program("cancel", () => void new Thing("t", { v: "1" })).stack({ stateDir: dir, providers: () => mock.provider });
    const ctl = new AbortController();
    const r = await stack.up({ signal: ctl.signal, confirm: async () => (ctl.abort(), true) });
    expect(r.summary).toBeUndefined();
    expect(mock.calls).toEqual([]);
    expect(await stack.resources()).toEqual([]);
  });
});
