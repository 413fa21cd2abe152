import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { defineResource } from "../../src/program/define.js";
import { Program } from "../../src/entry/program.js";
import type { Provider } from "../../src/provider/provider.js";

/**
 * The fake cloud of the fault tests: every object a create made stays until a delete removes it, so a
 * result lost on the way to the state shows up as one object too many when the next run creates it again.
 */
export const cloud = { objects: new Map<string, Record<string, unknown>>(), creates: 0, delayMs: 3 };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const provider: Provider<Record<string, unknown>, Record<string, unknown>> = {
  async create({ inputs }) {
    await sleep(cloud.delayMs);
    const id = `obj-${++cloud.creates}`;
    cloud.objects.set(id, { ...inputs });
    return { id, outputs: { ...inputs } };
  },
  async read({ id }) {
    const o = cloud.objects.get(id);
    return o ? { ...o } : undefined;
  },
  async update({ id, news }) {
    await sleep(cloud.delayMs);
    cloud.objects.set(id, { ...news });
    return { ...news };
  },
  async delete({ id }) {
    await sleep(cloud.delayMs);
    cloud.objects.delete(id);
  },
};

const Box = defineResource<{ v: number }, { v: number }>("fault:cloud:Box", { provider: provider as never, schema: { inputs: { v: {} }, outputs: { v: {} } } });

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

/** A program of `n` boxes in the fake cloud, in a fresh folder (its `.cairn/spill` holds what a run could not store). */
export async function boxes(n: number): Promise<{ prog: Program; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), "cairn-fault-"));
  dirs.push(dir);
  const prog = new Program("faults", () => {
    for (let i = 0; i < n; i++) new Box(`b${i}`, { v: i });
  }, { dir, command: "npx tsx infra.ts" });
  return { prog, dir };
}

/** The objects of the fake cloud, and whether state records exactly them. */
export function cloudMatches(ids: readonly string[]): { objects: number; recorded: number; orphans: string[] } {
  const recorded = new Set(ids);
  return { objects: cloud.objects.size, recorded: recorded.size, orphans: [...cloud.objects.keys()].filter((id) => !recorded.has(id)) };
}
