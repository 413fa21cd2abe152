import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { EVENT_TYPES, type EngineEvent } from "../../src/apply/events.js";
import { WAIT_OUTCOME_KINDS, type WaitOutcome } from "../../src/wait/outcome.js";
import { JsonEmitter, engineEventToJson } from "../../src/cli/json/events.js";
import { planToJson, stepToJson } from "../../src/cli/json/plan.js";
import { maskProps, toJsonData } from "../../src/core/value-text.js";
import { JSON_VERSION, jsonEvent, jsonStep } from "../../src/cli/json/schema.js";
import { STEP_KINDS, type PlanStep } from "../../src/plan/plan.js";
import type { Urn } from "../../src/core/urn.js";
import { UNKNOWN } from "../../src/core/unknown.js";
import { planOf, step, urn } from "./plan-fixtures.js";

const u = urn("t:Thing", "a");
const outcomes: Record<WaitOutcome["kind"], WaitOutcome> = {
  satisfied: { kind: "satisfied", reads: 3, elapsedMs: 1200, observed: [{ path: "status", value: "READY" }] },
  "timed-out": { kind: "timed-out", reads: 9, elapsedMs: 60_000, observed: undefined },
  failed: { kind: "failed", reads: 2, elapsedMs: 800, observed: [{ path: "status", value: "FAILED" }], condition: 'a.status == "FAILED"', reason: "bad" },
  "not-found": { kind: "not-found", reads: 2, elapsedMs: 5000, id: "x" },
  "read-error": { kind: "read-error", reads: 1, elapsedMs: 10, error: "AccessDenied", transient: false },
  "dependency-failed": { kind: "dependency-failed", dependency: u },
  cancelled: { kind: "cancelled", reads: 1, elapsedMs: 10, observed: [{ path: "status", value: "PENDING" }] },
};
const samples: Record<EngineEvent["type"], EngineEvent> = {
  "step-started": { type: "step-started", urn: u, kind: "create" },
  "step-succeeded": { type: "step-succeeded", urn: u, kind: "delete-replaced", durationMs: 12 },
  "step-failed": { type: "step-failed", urn: u, kind: "update", error: "boom" },
  "step-skipped": { type: "step-skipped", urn: u, kind: "create", reason: "cancelled" },
  "step-retrying": { type: "step-retrying", urn: u, kind: "create", attempt: 1, error: "Throttling: rate exceeded", delayMs: 800 },
  "wait-polled": { type: "wait-polled", urn: u, name: "w", reads: 2, elapsedMs: 500, observed: [{ path: "status", value: "PENDING" }], note: "read failed" },
  "wait-ended": { type: "wait-ended", urn: u, name: "w", outcome: outcomes.satisfied, message: "ok" },
  diagnostic: { type: "diagnostic", severity: "warning", summary: "careful", urn: u },
  summary: { type: "summary", summary: { ok: true, succeeded: 2, failed: 0, skipped: 0, done: { create: 1, wait: 1 }, durationMs: 900 } },
};

/** Prints events through the emitter and parses them back, as a consumer of stdout would. */
function printed(...bodies: Parameters<JsonEmitter["emit"]>[0][]): unknown[] {
  const lines: string[] = [];
  let t = Date.parse("2026-01-01T00:00:00Z");
  const json = new JsonEmitter((l) => lines.push(l), () => (t += 250));
  for (const b of bodies) json.emit(b);
  return lines.map((l) => JSON.parse(l));
}

describe("--json events (schema v1)", () => {
  it("every engine event type maps to a documented, versioned event", () => {
    expect(Object.keys(samples).sort()).toEqual([...EVENT_TYPES].sort());
    for (const e of printed(...EVENT_TYPES.map((t) => engineEventToJson(samples[t], "npx tsx infra.ts")))) {
      expect(jsonEvent.parse(e)).toMatchObject({ v: JSON_VERSION });
    }
  });

  it("every wait outcome maps to the schema, with snake_case fields", () => {
    expect(Object.keys(outcomes).sort()).toEqual([...WAIT_OUTCOME_KINDS].sort());
    for (const o of Object.values(outcomes)) {
      const [e] = printed(engineEventToJson({ type: "wait-ended", urn: u, name: "w", outcome: o, message: "m" }, "x"));
      expect(() => jsonEvent.parse(e), o.kind).not.toThrow();
    }
    expect(printed(engineEventToJson(samples["wait-ended"], "x"))[0]).toMatchObject({ outcome: { kind: "satisfied", waited_ms: 1200 } });
  });

  it("stamps each line with the version, the time and the milliseconds since the command started", () => {
    const [first, second] = printed({ type: "outputs", outputs: {} }, { type: "error", message: "x", exit_code: 1 }) as { elapsed_ms: number; time: string; v: number }[];
    expect(first).toMatchObject({ v: 1, type: "outputs", elapsed_ms: 250, time: "2026-01-01T00:00:00.500Z" });
    expect(second!.elapsed_ms).toBe(500);
  });

  it("writes the header fields first, then the body's in its order, and the same time for events of one millisecond", () => {
    const lines: string[] = [];
    let t = Date.parse("2026-01-01T00:00:00Z");
    const json = new JsonEmitter((l) => lines.push(l), () => t);
    t += 7;
    json.emit(engineEventToJson({ type: "step-succeeded", urn: u, kind: "create", durationMs: 3 }, "x"));
    json.emit(engineEventToJson({ type: "step-started", urn: u, kind: "update" }, "x"));
    t += 1;
    json.emit({ type: "error", message: "m", exit_code: 1 });
    expect(lines).toEqual([
      `{"v":1,"type":"step-succeeded","time":"2026-01-01T00:00:00.007Z","elapsed_ms":7,"urn":"${u}","name":"a","resource_type":"t:Thing","op":"create","duration_ms":3}`,
      `{"v":1,"type":"step-started","time":"2026-01-01T00:00:00.007Z","elapsed_ms":7,"urn":"${u}","name":"a","resource_type":"t:Thing","op":"update"}`,
      '{"v":1,"type":"error","time":"2026-01-01T00:00:00.008Z","elapsed_ms":8,"message":"m","exit_code":1}',
    ]);
  });

  it("a create's inputs are what the JSON round trip makes of them, flat ones or not", () => {
    const inputs: Record<string, unknown>[] = [
      { name: "www", n: 3, on: true, none: null, later: UNKNOWN, pw: "hunter2", 2: "an index key first" },
      { zero: -0, nan: Number.NaN, gone: undefined, when: new Date(0), nested: { a: [1, UNKNOWN] }, unknownJson: { $unknown: true } },
      JSON.parse('{"__proto__": "a field", "toJSON": "not a function"}') as Record<string, unknown>,
    ];
    for (const news of inputs) {
      const printed = (stepToJson(step.create("a", news, { secretKeys: ["pw"] }), planOf([])) as { inputs: unknown }).inputs;
      const expected = toJsonData(maskProps(news, ["pw"]));
      expect(printed).toEqual(expected);
      expect(JSON.stringify(printed)).toBe(JSON.stringify(expected));
    }
  });

  it("a step's fields come in their documented order, optional ones only when they apply", () => {
    const keys = (s: PlanStep) => Object.keys(stepToJson(s, planOf([s])));
    const replace = (o: Partial<Extract<PlanStep, { kind: "replace" }>>) => step.replace("c", { k: "x" }, { k: "y" }, { changed: ["k"], replaceKeys: ["k"], ...o });
    const base = ["op", "urn", "name", "resource_type", "deps", "why"];
    expect(keys(replace({}))).toEqual([...base, "changes", "drift", "replace_keys", "reason", "delete_first"]);
    expect(keys(replace({ reason: "dependency", cause: "urn:cairn:dev::app::t:Thing::z", adopt: { id: "i-1", inputs: {}, outputs: {}, secretKeys: [] } }))).toEqual([
      ...base, "changes", "drift", "replace_keys", "reason", "cause", "delete_first", "import_id",
    ]);
    expect(keys(replace({ cause: "" }))).not.toContain("cause");
    expect(keys(step.update("b", { n: 1 }, { n: 2 }, ["n"]))).toEqual([...base, "changes", "drift"]);
    expect(keys(step.create("a", { n: 1 }))).toEqual(["op", "urn", "name", "resource_type", "deps", "inputs"]);
    const same: PlanStep = { kind: "same", urn: urn("t:Thing", "f"), type: "t:Thing", deps: [], meta: { deps: [], protect: false, retainOnDelete: false } };
    expect(keys(same)).toEqual(["op", "urn", "name", "resource_type", "deps"]);
    expect(keys({ ...same, movedFrom: urn("t:Thing", "old-f") })).toEqual([...base, "moved_from"]);
  });

  it("a failed step carries the provider's message and a hint", () => {
    expect(printed(engineEventToJson(samples["step-failed"], "npx tsx infra.ts"))[0]).toMatchObject({ error: "boom", hint: expect.stringContaining("npx tsx infra.ts up") });
  });

  it("a plan with every kind of step validates; unknowns are {$unknown:true} and secrets [secret]", () => {
    const wait: PlanStep = {
      kind: "wait", urn: "urn:cairn:dev::app::cairn:wait::w" as Urn, type: "cairn:wait", deps: [u], name: "w", named: true, target: u, subject: "a",
      until: { op: "exists", path: ["x"] }, untilText: "a.x exists", timeoutMs: 1000, intervalMs: 100, defaultTimeout: true, needed: true, why: "runs because a is created", readyNow: null,
    };
    const steps: PlanStep[] = [
      step.create("a", { pw: "hunter2", host: UNKNOWN }, { secretKeys: ["pw"] }),
      step.update("b", { n: 1 }, { n: 2 }, ["n"]),
      step.replace("c", { k: "x" }, { k: "y" }, { changed: ["k"], replaceKeys: ["k"] }),
      step.delete("d", {}),
      { kind: "read", urn: urn("t:Thing", "e"), type: "t:Thing", deps: [], id: "e", deferred: false },
      wait,
      { kind: "same", urn: urn("t:Thing", "f"), type: "t:Thing", deps: [], meta: { deps: [], protect: false, retainOnDelete: false }, movedFrom: urn("t:Thing", "old-f") },
    ];
    expect(new Set(steps.map((s) => s.kind))).toEqual(new Set(STEP_KINDS));
    const [e] = printed({ type: "plan", ...planToJson(planOf(steps, { outputs: { token: "s3cr3t", url: UNKNOWN }, secretOutputs: ["token"] })) });
    const plan = jsonEvent.parse(e) as Extract<ReturnType<typeof jsonEvent.parse>, { type: "plan" }>;
    expect(plan.steps.map((s) => s.op)).toEqual(["create", "update", "replace", "delete", "read", "wait", "same"]);
    expect(plan.steps[0]).toMatchObject({ inputs: { pw: "[secret]", host: { $unknown: true } } });
    expect(plan.steps[2]).toMatchObject({ changes: [{ path: "k", kind: "changed", before: "x", after: "y", forces_replacement: true }], why: "k changed in the program, and it forces a replacement" });
    expect(plan.outputs).toEqual({ token: "[secret]", url: { $unknown: true } });
    expect(JSON.stringify(plan)).not.toMatch(/hunter2|s3cr3t/);
  });
});

/** The rows of a markdown table under a heading of the CLI reference: first cell → the backticked names in the second. */
function referenceTable(heading: string): Map<string, string[]> {
  const reference = readFileSync(new URL("../../docs/reference/cli.md", import.meta.url), "utf8");
  const start = reference.indexOf(heading);
  if (start < 0) throw new Error(`docs/reference/cli.md has no "${heading}"`);
  const rows = new Map<string, string[]>();
  for (const line of reference.slice(start).split("\n").slice(1)) {
    if (line.startsWith("#")) break;
    const cells = line.split("|").map((c) => c.trim());
    const key = /^`([^`]+)`$/.exec(cells[1] ?? "")?.[1];
    if (key) rows.set(key, [...(cells[2] ?? "").matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!));
  }
  return rows;
}

describe("the CLI reference documents the JSON schema", () => {
  const COMMON = ["v", "type", "time", "elapsed_ms"];

  it("lists every event type with exactly its fields", () => {
    const documented = referenceTable("### JSON events");
    const actual = new Map(jsonEvent.def.options.map((o) => [String(o.def.shape.type.def.values[0]), Object.keys(o.def.shape).filter((k) => !COMMON.includes(k))]));
    expect([...documented.keys()].sort()).toEqual([...actual.keys()].sort());
    for (const [type, fields] of actual) expect(documented.get(type)?.sort(), type).toEqual(fields.sort());
  });

  it("lists every plan step op with exactly its fields", () => {
    const documented = referenceTable("### Plan steps in JSON");
    const actual = new Map(jsonStep.def.options.map((o) => [String(o.def.shape.op.def.values[0]), Object.keys(o.def.shape).filter((k) => k !== "op")]));
    expect([...documented.keys()].sort()).toEqual([...actual.keys()].sort());
    for (const [op, fields] of actual) expect(documented.get(op)?.sort(), op).toEqual(fields.sort());
  });
});
