import { afterEach, describe, expect, it } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { program } from "../../src/program/program.js";
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
