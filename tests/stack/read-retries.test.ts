import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getEventListeners } from "node:events";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { defineResource } from "../../src/program/define.js";
import { Program, type ProgramFn } from "../../src/entry/program.js";
import { TransientError } from "../../src/core/errors.js";
import { FakeClock } from "../../src/testing/fake-clock.js";
import type { Provider } from "../../src/provider/provider.js";
import type { EngineEvent } from "../../src/apply/events.js";
import "../../src/providers/aws/error-kinds.js"; // ThrottlingException and AccessDeniedException are classified as the AWS layer says

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

// The cloud: objects by id, and the failures the next reads meet (one each, in turn).
const objects = new Map<string, { v: number }>();
let failures: Error[] = [];
let reads = 0;
beforeEach(() => {
  objects.clear();
  failures = [];
  reads = 0;
});
const provider: Provider<{ v: number }, { v: number }> = {
  async create({ inputs }) {
    const id = `id-${objects.size + 1}`;
    objects.set(id, { ...inputs });
    return { id, outputs: { ...inputs } };
  },
  async read({ id }) {
    reads++;
    const e = failures.shift();
    if (e) throw e;
    return objects.get(id);
  },
  async update({ news, id }) {
    objects.set(id, { ...news });
    return { ...news };
  },
  async delete({ id }) {
    objects.delete(id);
  },
};
const Thing = defineResource<{ v: number }, { v: number }>("readretry:test:Thing", { provider, schema: { inputs: { v: {} }, outputs: { v: {} } } });

/** A stack of `fn` on a clock that jumps over retry pauses, with the events it sends. */
async function stackOf(fn: ProgramFn, opts: { abortSignal?: AbortSignal } = {}) {
  const dir = await mkdtemp(join(tmpdir(), "cairn-read-retry-"));
  dirs.push(dir);
  const stack = new Program("read-retries", fn, { dir, command: "npx tsx infra.ts" }).stack({ clock: new FakeClock({ auto: true }), ...opts });
  const events: EngineEvent[] = [];
  stack.events.subscribe((e) => events.push(e));
  return { stack, events };
}

const notices = (events: EngineEvent[]) => events.flatMap((e) => (e.type === "diagnostic" ? [`${e.severity}: ${e.summary}`] : []));
const throttled = () => Object.assign(new Error("Rate exceeded"), { name: "ThrottlingException", $metadata: { httpStatusCode: 400 } });

describe("provider reads outside an apply are retried and bounded, as its calls are", () => {
  it("refresh retries a throttled read, says so, and records what it read", async () => {
    const { stack, events } = await stackOf(() => void new Thing("t", { v: 1 }));
    await stack.up();
    objects.set("id-1", { v: 2 }); // changed outside Cairn
    failures = [throttled(), new TransientError("connection reset")];
    reads = 0;
    const r = await stack.refresh({ confirm: async () => true });
    expect(reads).toBe(3);
    expect(r).toEqual({ applied: true, changes: [expect.objectContaining({ kind: "drift", changed: ["v"] })] });
    expect((await stack.resources()).map((x) => x.outputs)).toEqual([{ v: 2 }]);
    expect(notices(events)).toEqual([
      expect.stringMatching(/^info: Reading "t" failed \(Rate exceeded\), a transient failure: trying again in \d+ms \(retry 1\)\.$|^info: Reading "t" failed \(Rate exceeded\), a transient failure: trying again in [\d.]+s \(retry 1\)\.$/),
      expect.stringMatching(/^info: Reading "t" failed \(connection reset\), a transient failure: trying again in .+ \(retry 2\)\.$/),
    ]);
  });

  it("a refresh read refused for good fails the refresh at once, naming the resource, and changes nothing", async () => {
    const { stack } = await stackOf(() => void new Thing("t", { v: 1 }));
    await stack.up();
    const before = await stack.resources();
    failures = [Object.assign(new Error("User is not authorized to perform: thing:Read"), { name: "AccessDeniedException" })];
    reads = 0;
    await expect(stack.refresh({ confirm: async () => true })).rejects.toThrow(
      'Could not refresh "t" (urn:cairn:dev::read-retries::readretry:test:Thing::t): User is not authorized to perform: thing:Read. Nothing was changed; run again when its provider answers.',
    );
    expect(reads).toBe(1);
    expect(await stack.resources()).toEqual(before);
  });

  it("a lookup read while planning retries a transient failure", async () => {
    const { stack } = await stackOf(() => void new Thing("t", { v: 1 }));
    await stack.up();
    const { stack: reader } = await stackOf(() => ({ v: Thing.get("found", "id-1").v }));
    failures = [throttled()];
    reads = 0;
    const r = await reader.up();
    expect(reads).toBe(2);
    expect(r.outputs).toEqual({ v: 1 });
  });

  it("a lookup read during the apply retries a transient failure, reported as the step retrying", async () => {
    const { stack, events } = await stackOf(() => {
      const t = new Thing("t", { v: 7 });
      return { v: Thing.get("found", t.id).v };
    });
    failures = [throttled()];
    const r = await stack.up();
    expect(r.summary?.ok).toBe(true);
    expect(r.outputs).toEqual({ v: 7 });
    expect(events.filter((e) => e.type === "step-retrying")).toEqual([
      expect.objectContaining({ kind: "read", urn: "urn:cairn:dev::read-retries::readretry:test:Thing::found", attempt: 1, error: "Rate exceeded" }),
    ]);
  });

  it("reads leave no listener behind on the stack's abort signal, which a program may pass to many runs", async () => {
    const { stack } = await stackOf(() => void new Thing("t", { v: 1 }));
    await stack.up();
    const abort = new AbortController();
    const { stack: reader } = await stackOf(() => ({ v: Thing.get("found", "id-1").v }), { abortSignal: abort.signal });
    for (let i = 0; i < 12; i++) await reader.preview();
    for (let i = 0; i < 3; i++) await reader.refresh({ confirm: async () => true });
    expect(getEventListeners(abort.signal, "abort")).toHaveLength(0);
  });
});
