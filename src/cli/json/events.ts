import type { EngineEvent } from "../../apply/events.js";
import type { WaitOutcome } from "../../wait/outcome.js";
import { hintFor } from "../hints.js";
import { diagnosticJson } from "../render/diagnostic.js";
import { nameOf, typeOf } from "../../core/urn.js";
import { toJsonData } from "../../core/value-text.js";
import { JSON_VERSION, type JsonEventBody, type JsonEventInput } from "./schema.js";
import { isoTime } from "../../core/iso-time.js";

type Outcome = JsonEventBody<"wait-ended">["outcome"];
type Observed = JsonEventBody<"wait-polled">["observed"];

const observedOf = (o: readonly { path: string; value: unknown }[]): Observed => o.map(({ path, value }) => ({ path, value: toJsonData(value) }));

/** A wait outcome with snake_case fields (`waited_ms`), one case each. */
function outcomeToJson(o: WaitOutcome): Outcome {
  switch (o.kind) {
    case "satisfied":
      return { kind: o.kind, reads: o.reads, waited_ms: o.elapsedMs, observed: observedOf(o.observed) };
    case "timed-out":
    case "cancelled":
      return { kind: o.kind, reads: o.reads, waited_ms: o.elapsedMs, ...(o.observed ? { observed: observedOf(o.observed) } : {}) };
    case "failed":
      return { kind: o.kind, reads: o.reads, waited_ms: o.elapsedMs, observed: observedOf(o.observed), condition: o.condition, ...(o.reason !== undefined ? { reason: o.reason } : {}) };
    case "not-found":
      return { kind: o.kind, reads: o.reads, waited_ms: o.elapsedMs, id: o.id };
    case "read-error":
      return { kind: o.kind, reads: o.reads, waited_ms: o.elapsedMs, error: o.error, transient: o.transient };
    case "dependency-failed":
      return { kind: o.kind, dependency: o.dependency };
    default: {
      const never: never = o;
      return never;
    }
  }
}

/**
 * The body of the `--json` event for an engine event (the engine's event type stays internal).
 * @example engineEventToJson({ type: "step-started", urn, kind: "create" }, "npx tsx infra.ts") // { type: "step-started", urn, name, resource_type, op: "create" }
 */
export function engineEventToJson(e: EngineEvent, command: string): JsonEventInput {
  switch (e.type) {
    case "step-started":
      return { type: e.type, urn: e.urn, name: nameOf(e.urn), resource_type: typeOf(e.urn), op: e.kind };
    case "step-succeeded":
      return { type: e.type, urn: e.urn, name: nameOf(e.urn), resource_type: typeOf(e.urn), op: e.kind, duration_ms: e.durationMs };
    case "step-failed":
      return { type: e.type, urn: e.urn, name: nameOf(e.urn), resource_type: typeOf(e.urn), op: e.kind, error: e.error, hint: hintFor(e.kind, e.error, command), ...(e.site ? { site: e.site } : {}) };
    case "step-skipped":
      return { type: e.type, urn: e.urn, name: nameOf(e.urn), resource_type: typeOf(e.urn), op: e.kind, reason: e.reason };
    case "step-retrying":
      return { type: e.type, urn: e.urn, name: nameOf(e.urn), resource_type: typeOf(e.urn), op: e.kind, attempt: e.attempt, error: e.error, delay_ms: e.delayMs };
    case "wait-polled":
      return { type: e.type, urn: e.urn, name: e.name, reads: e.reads, waited_ms: e.elapsedMs, observed: observedOf(e.observed ?? []), ...(e.note !== undefined ? { note: e.note } : {}) };
    case "wait-ended":
      return { type: e.type, urn: e.urn, name: e.name, outcome: outcomeToJson(e.outcome), message: e.message };
    case "diagnostic":
      // The one JSON shape of a diagnostic; an info note keeps its own severity.
      return { type: e.type, ...diagnosticJson({ ...e, severity: "warning" }), severity: e.severity };
    case "summary": {
      const s = e.summary;
      return { type: e.type, ok: s.ok, succeeded: s.succeeded, failed: s.failed, skipped: s.skipped, deferred: s.deferred ?? 0, done: { ...s.done }, duration_ms: s.durationMs };
    }
    default: {
      const never: never = e;
      return never;
    }
  }
}

/**
 * Writes versioned NDJSON events: each line `{"v":1,"type":…,"time":…,"elapsed_ms":…,…}`, where
 * `elapsed_ms` counts from the start of the command.
 *
 * @example
 * const json = new JsonEmitter((line) => process.stdout.write(line + "\n"));
 * json.emit({ type: "outputs", outputs: { url: "http://127.0.0.1:8080/" } });
 */
export class JsonEmitter {
  private readonly started: number;

  constructor(
    private readonly write: (line: string) => void,
    private readonly now: () => number = Date.now,
  ) {
    this.started = now();
  }

  /** Prints one event. */
  emit(body: JsonEventInput): void {
    const t = this.now();
    // The body's fields follow the header's; its `type` keeps its place at the front. Assigned rather than
    // spread into a copy without `type`: half the cost of an event.
    const head = { v: JSON_VERSION, type: body.type, time: isoTime(t), elapsed_ms: Math.max(0, t - this.started) };
    this.write(JSON.stringify(Object.assign(head, body)));
  }
}
