import { afterEach } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { program, type ProgramFn } from "../../src/entry/program.js";
import type { EngineEvent } from "../../src/apply/events.js";
import type { Plan, PlanStep } from "../../src/plan/plan.js";
import type { StackOptions } from "../../src/stack/stack.js";
import { FakeClock } from "../../src/testing/fake-clock.js";
import { StrictCloud } from "./cloud.js";

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

let kindNo = 0;

/**
 * A strict cloud, one box type on it (a fresh type token per test), and a stack over `fn` with state in a
 * temp dir, a fake clock, and every engine event collected.
 */
export async function world(fn: (Box: ReturnType<StrictCloud["type"]>) => ReturnType<ProgramFn>, opts: Partial<StackOptions> = {}) {
  const cloud = new StrictCloud();
  const Box = cloud.type("box", `strict:c${++kindNo}:Box`);
  const dir = await mkdtemp(join(tmpdir(), "cairn-conf-"));
  dirs.push(dir);
  const stack = program("conf", () => fn(Box)).stack({ stateDir: dir, passphrase: "conf-pass", clock: new FakeClock({ auto: true }), ...opts });
  const events: EngineEvent[] = [];
  stack.events.subscribe((e) => events.push(e));
  return { cloud, Box, stack, events, dir };
}

/** `kind name` for each step that does something, e.g. `replace b`. */
export function planned(plan: Plan): string[] {
  return plan.steps.filter((s) => s.kind !== "same" && !(s.kind === "wait" && !s.needed) && !(s.kind === "read" && !s.deferred)).map((s) => `${s.kind} ${nameOf(s.urn)}`);
}

/** The step of a resource (by name) and kind. */
export function stepOf<K extends PlanStep["kind"]>(plan: Plan, name: string, kind: K): Extract<PlanStep, { kind: K }> {
  const s = plan.steps.find((x) => nameOf(x.urn) === name && x.kind === kind);
  if (!s) throw new Error(`no ${kind} step for ${name}: ${planned(plan).join(", ")}`);
  return s as Extract<PlanStep, { kind: K }>;
}

export const nameOf = (urn: string) => urn.slice(urn.lastIndexOf("::") + 2);

/** Error messages of failed steps, each with where its resource was declared. */
export function failures(events: readonly EngineEvent[]): string[] {
  return events.flatMap((e) => (e.type === "step-failed" ? [`${nameOf(e.urn)}: ${e.error}${e.site ? ` (at ${e.site})` : ""}`] : []));
}
