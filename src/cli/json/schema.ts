import * as z from "zod/mini";
import { ACTION_KINDS } from "../../plan/actions.js";
import { jsonStep, stepKinds, type StepKind } from "../../plan/steps/index.js";

/**
 * The version of the `--json` event stream. It changes only when a field is removed or changes meaning;
 * new fields and new event types keep it.
 */
export const JSON_VERSION = 1;

const base = { v: z.literal(JSON_VERSION), time: z.iso.datetime(), elapsed_ms: z.int().check(z.nonnegative()) };
const op = z.enum(ACTION_KINDS);
const resource = { urn: z.string(), name: z.string(), resource_type: z.string(), op };
const observed = z.array(z.strictObject({ path: z.string(), value: z.unknown() }));
/** Any JSON value; `{ "$unknown": true }` where a value is not known yet, `"[secret]"` for secrets. */
const value = z.unknown();
/**
 * A problem found (see `Diagnostic`): `message` is the summary and detail in one text (without the site);
 * `site` the user's `file:line:column` where the program declared what it is about.
 */
const diagnostic = z.strictObject({
  severity: z.enum(["error", "warning"]), message: z.string(), summary: z.string(), detail: z.optional(z.string()),
  urn: z.optional(z.string()), attribute: z.optional(z.string()), site: z.optional(z.string()),
});

const outcome = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("satisfied"), reads: z.number(), waited_ms: z.number(), observed }),
  z.strictObject({ kind: z.literal("timed-out"), reads: z.number(), waited_ms: z.number(), observed: z.optional(observed) }),
  z.strictObject({ kind: z.literal("failed"), reads: z.number(), waited_ms: z.number(), observed, condition: z.string(), reason: z.optional(z.string()) }),
  z.strictObject({ kind: z.literal("not-found"), reads: z.number(), waited_ms: z.number(), id: z.string() }),
  z.strictObject({ kind: z.literal("read-error"), reads: z.number(), waited_ms: z.number(), error: z.string(), transient: z.boolean() }),
  z.strictObject({ kind: z.literal("dependency-failed"), dependency: z.string() }),
  z.strictObject({ kind: z.literal("cancelled"), reads: z.number(), waited_ms: z.number(), observed: z.optional(observed) }),
]);

/** Steps by kind (the kinds the plan's count line counts; waits only when they run). */
// Typed by hand in one place: the kinds the count line leaves out ("same") have no count.
const counts = z.strictObject(Object.fromEntries(stepKinds().flatMap((k) => (k.countText ? [[k.kind, z.number()]] : []))) as Record<Exclude<StepKind, "same">, z.ZodMiniNumber>);

/**
 * Every event `--json` prints, one per line (NDJSON). `preview`, `up`, `destroy` and `refresh` stream
 * them; the "JSON events" table of docs/reference/cli.md documents the same fields, and a test keeps the two in step.
 */
export const jsonEvent = z.discriminatedUnion("type", [
  z.strictObject({
    ...base,
    type: z.literal("plan"),
    stack: z.string(),
    project: z.string(),
    destroy: z.boolean(),
    mode: z.enum(["update", "destroy", "refresh-only"]),
    /** True when applying the plan changes anything beyond recording what a refresh observed (`--expect-no-changes` fails). */
    has_changes: z.boolean(),
    /** State records a refresh updates with what it observed (recorded even when `has_changes` is false). */
    refresh_records: z.number(),
    drift: z.array(z.strictObject({ kind: z.enum(["gone", "drift"]), urn: z.string(), resource_type: z.string(), changed: z.optional(z.array(z.string())) })),
    counts,
    steps: z.array(jsonStep),
    outputs: z.record(z.string(), value),
    /** Why a stack output is not known yet (a wait that has not held), by output name. */
    output_notes: z.record(z.string(), z.string()),
    diagnostics: z.array(diagnostic),
    /** True when parts wait for values known only during apply: `up` plans and applies them in later rounds. */
    partial: z.boolean(),
    /** Values whose apply() callbacks could not run on stand-ins: `up` plans once more after applying. */
    unforeseen: z.array(z.string()),
    deferred: z.array(
      z.strictObject({
        kind: z.enum(["declared", "node", "kept"]), resource_type: z.string(), waits_for: z.string(),
        name: z.optional(z.string()), name_pattern: z.optional(z.string()), urn: z.optional(z.string()),
      }),
    ),
    /** The IAM policy the plan's operations need, the operations by type, and the types whose providers do not say. */
    permissions: z.optional(
      z.strictObject({
        policy: z.strictObject({ Version: z.literal("2012-10-17"), Statement: z.array(z.strictObject({ Effect: z.literal("Allow"), Action: z.array(z.string()), Resource: z.literal("*") })) }),
        operations: z.record(z.string(), z.array(z.enum(["create", "read", "update", "delete", "list"]))),
        unstated: z.array(z.string()),
      }),
    ),
  }),
  z.strictObject({ ...base, type: z.literal("step-started"), ...resource }),
  z.strictObject({ ...base, type: z.literal("step-succeeded"), ...resource, duration_ms: z.number() }),
  z.strictObject({ ...base, type: z.literal("step-failed"), ...resource, error: z.string(), hint: z.string(), site: z.optional(z.string()) }),
  z.strictObject({ ...base, type: z.literal("step-skipped"), ...resource, reason: z.string() }),
  z.strictObject({ ...base, type: z.literal("step-retrying"), ...resource, attempt: z.number(), error: z.string(), delay_ms: z.number() }),
  z.strictObject({ ...base, type: z.literal("wait-polled"), urn: z.string(), name: z.string(), reads: z.number(), waited_ms: z.number(), observed, note: z.optional(z.string()) }),
  z.strictObject({ ...base, type: z.literal("wait-ended"), urn: z.string(), name: z.string(), outcome, message: z.string() }),
  z.strictObject({ ...base, type: z.literal("diagnostic"), severity: z.enum(["info", "warning", "error"]), message: z.string(), summary: z.string(), detail: z.optional(z.string()), urn: z.optional(z.string()), attribute: z.optional(z.string()), site: z.optional(z.string()) }),
  z.strictObject({
    ...base,
    type: z.literal("refresh"),
    changes: z.array(z.strictObject({ kind: z.enum(["gone", "drift"]), urn: z.string(), resource_type: z.string(), changed: z.optional(z.array(z.string())) })),
    applied: z.boolean(),
  }),
  z.strictObject({ ...base, type: z.literal("outputs"), outputs: z.record(z.string(), value) }),
  z.strictObject({
    ...base,
    type: z.literal("summary"),
    ok: z.boolean(),
    succeeded: z.number(),
    failed: z.number(),
    skipped: z.number(),
    /** Steps left for the next round of `up` (they read a value whose callback declared what no plan foresaw). */
    deferred: z.number(),
    done: z.partialRecord(op, z.number()),
    duration_ms: z.number(),
  }),
  /** The error a command ended with; `diagnostics` when the user can fix it (each with its site). */
  z.strictObject({ ...base, type: z.literal("error"), message: z.string(), exit_code: z.number(), diagnostics: z.optional(z.array(diagnostic)) }),
]);

/** One `--json` event. */
export type JsonEvent = z.infer<typeof jsonEvent>;
/** One plan step in a `plan` event. */
export { jsonStep, type JsonStep } from "../../plan/steps/index.js";
/** The fields of an event of type `T`, without the common `v`, `type`, `time` and `elapsed_ms`. */
export type JsonEventBody<T extends JsonEvent["type"]> = Omit<Extract<JsonEvent, { type: T }>, "v" | "type" | "time" | "elapsed_ms">;
/** An event as code builds it: the common `v`, `time` and `elapsed_ms` are added when it is printed. */
export type JsonEventInput = JsonEvent extends infer E ? (E extends JsonEvent ? Omit<E, "v" | "time" | "elapsed_ms"> : never) : never;
