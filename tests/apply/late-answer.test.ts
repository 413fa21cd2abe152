import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { defineResource } from "../../src/program/define.js";
import { Program } from "../../src/entry/program.js";
import type { Provider } from "../../src/provider/provider.js";

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

// A cloud whose create answers a moment after the run abandoned it (it ignores its abort signal).
const cloud = new Map<string, unknown>();
let stop: AbortController;
let n = 0;
// Resolved when the create is in flight: the test presses Ctrl-C then, not after a guessed delay.
let inFlight: () => void = () => {};
const provider: Provider<{ v: number }, { v: number }> = {
  async create({ inputs }) {
    inFlight();
    await new Promise<void>((r) => (stop.signal.aborted ? r() : stop.signal.addEventListener("abort", () => r(), { once: true })));
    await new Promise((r) => setTimeout(r, 200));
    const id = `obj-${++n}`;
    cloud.set(id, inputs);
    return { id, outputs: inputs };
  },
  async read({ id }) {
    return cloud.get(id) as { v: number } | undefined;
  },
  async delete({ id }) {
    cloud.delete(id);
  },
};
const Late = defineResource<{ v: number }, { v: number }>("late:answer:Thing", { provider, schema: { inputs: { v: {} }, outputs: { v: {} } } });

describe("a second Ctrl-C", () => {
  it("still records a create that answers before the run ends: nothing is created twice", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cairn-late-"));
    dirs.push(dir);
    const prog = new Program("late", () => void new Late("t", { v: 1 }), { dir, command: "npx tsx infra.ts" });
    stop = new AbortController();
    const cancel = new AbortController();
    const stack = prog.stack({ signal: cancel.signal, abortSignal: stop.signal });
    const started = new Promise<void>((r) => (inFlight = r));
    const running = stack.up();
    await started; // the create is in flight
    cancel.abort(); // first Ctrl-C
    stop.abort(); // second Ctrl-C: the call is abandoned; its answer comes 200 ms later
    const first = await running;
    expect(first.summary?.ok).toBe(false);
    expect((await stack.resources()).map((r) => r.id)).toEqual(["obj-1"]);

    const again = await prog.stack({}).up();
    expect(again.summary === undefined || again.summary.ok).toBe(true);
    expect([...cloud.keys()]).toEqual(["obj-1"]);
  });
});
