import { afterAll, describe, expect, it } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { program } from "../../src/entry/program.js";
import { defineResource } from "../../src/program/define.js";
import { secret } from "../../src/program/output.js";
import { wait } from "../../src/wait/wait.js";
import type { Provider } from "../../src/provider/provider.js";
import { memoryProvider } from "../helpers.js";

// Most resources are planned at once (their inputs known, a provider without check or diff): a synchronous
// path. A provider with `check` sends every resource through promises instead. Both must make the same plan.

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

type Thing = { name: string; size?: number; ref?: string; pass?: string };
const schema = { inputs: { name: { forceNew: true }, size: {}, ref: {}, pass: {} }, outputs: { name: {}, size: {}, ref: {}, arn: { stable: true }, ready: {} } };

/** The program, on a type whose provider answers `check` (every node planned through a promise) or not. */
function planned(withCheck: boolean, version: number) {
  const mem = memoryProvider({ outputs: (_i, id) => ({ arn: `arn:${id}`, ready: true }) });
  let checked = 0;
  const provider = (withCheck ? { ...mem.provider, check: async () => (checked++, []) } : mem.provider) as unknown as Provider<Thing, Thing & { arn: string; ready: boolean }>;
  const T = defineResource<Thing, Thing & { arn: string; ready: boolean }>("test:paths:Thing", { provider, schema });
  const prog = program("paths", () => {
    const a = new T("a", { name: "a", size: version });
    const b = new T("b", { name: "b", ref: a.arn });
    new T("c", { name: "c", ref: Promise.resolve("later") as unknown as string, pass: secret("s3cret") as unknown as string });
    const ready = wait(b, { until: (t) => t.ready.eq(true) });
    new T("d", { name: "d", size: 1 }, { dependsOn: [ready, a] });
    return { b: b.arn };
  });
  return { prog, checks: () => checked };
}

async function plansOf(withCheck: boolean) {
  const dir = await mkdtemp(join(tmpdir(), "cairn-paths-"));
  dirs.push(dir);
  const first = planned(withCheck, 1);
  const fresh = await first.prog.stack({ stateDir: dir, passphrase: "test-pass" }).preview();
  await first.prog.stack({ stateDir: dir, passphrase: "test-pass" }).up();
  const second = planned(withCheck, 2);
  const changed = await second.prog.stack({ stateDir: dir, passphrase: "test-pass" }).preview();
  return { fresh, changed, checks: first.checks() + second.checks() };
}

describe("planning at once and through promises", () => {
  it("makes the same plan, byte for byte, for a fresh stack and for a change", async () => {
    const atOnce = await plansOf(false);
    const later = await plansOf(true);
    expect(atOnce.checks).toBe(0);
    expect(later.checks).toBeGreaterThan(0);
    expect(JSON.stringify(later.fresh)).toBe(JSON.stringify(atOnce.fresh));
    // The ids the memory providers hand out are the same in both runs, so the change plans compare whole too.
    expect(JSON.stringify(later.changed)).toBe(JSON.stringify(atOnce.changed));
    expect(atOnce.changed.steps.map((s) => `${s.kind} ${s.urn.split("::").pop()}`)).toContain("update a");
  });

  it("a step lists a wait it depends on; its record lists what the wait is on", async () => {
    const { fresh } = await plansOf(false);
    const d = fresh.steps.find((s) => s.urn.endsWith("::d"))!;
    expect(d.deps.map((u) => u.split("::").pop())).toEqual(["wait(b)@" + d.deps[0]!.split("@").pop(), "a"]);
    expect("meta" in d && d.meta.deps.map((u) => u.split("::").pop())).toEqual(["b", "a"]);
  });
});
