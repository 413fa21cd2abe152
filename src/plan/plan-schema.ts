import * as z from "zod/mini";
import { describeZodError, mutationSchema } from "../state/schema.js";
import { PLAN_FORMAT_VERSION } from "./plan.js";

/**
 * zod schemas of a saved plan file (`preview --out`): a plan read back is checked field by field before
 * anything of it is applied. Values the engine recomputes or compares (inputs, predicates) are checked
 * as objects; the file's digest covers every byte of them.
 *
 * @example const r = planFileSchema.safeParse(JSON.parse(text)); if (!r.success) throw …
 */

const urn = z.string().check(z.minLength(1));
const urns = z.array(urn);
const props = z.record(z.string(), z.unknown());
const names = z.array(z.string());
const ms = z.optional(z.number().check(z.positive()));
const timeouts = z.optional(z.object({ create: ms, update: ms, delete: ms }));
const provider = z.optional(z.object({ name: z.string(), settings: z.record(z.string(), z.string()) }));

const meta = z.object({ parent: z.optional(urn), deps: urns, protect: z.boolean(), retainOnDelete: z.boolean(), provider, timeouts, triggers: z.optional(z.string()), declaredIn: z.optional(z.object({ on: urns, waitsFor: z.string() })) });
const prior = z.object({ deps: urns, provider, timeouts });
const adopt = z.optional(z.object({ id: z.string(), inputs: props, outputs: props, secretKeys: names }));
const base = { urn, type: z.string().check(z.minLength(1)), deps: urns };
const changes = { id: z.string().check(z.minLength(1)), olds: props, news: props, outputs: props, changed: names, drift: names, secretKeys: names, meta, prior, movedFrom: z.optional(urn), adopt };

const stepSchema = z.discriminatedUnion("kind", [
  z.object({ ...base, kind: z.literal("create"), news: props, secretKeys: names, meta, movedFrom: z.optional(urn) }),
  z.object({ ...base, kind: z.literal("update"), ...changes }),
  z.object({
    ...base, kind: z.literal("replace"), ...changes, replaceKeys: names, deleteFirst: z.boolean(), keepOld: z.optional(z.boolean()), cause: z.optional(z.string()),
    reason: z.enum(["attributes", "tainted", "requested", "replaceOnChanges", "provider", "dependency", "triggered"]),
  }),
  z.object({ ...base, kind: z.literal("delete"), id: z.string().check(z.minLength(1)), olds: props, outputs: props, retain: z.boolean(), deposed: z.boolean(), secretKeys: names, prior }),
  z.object({ ...base, kind: z.literal("read"), id: z.string(), deferred: z.boolean(), outputs: z.optional(props) }),
  z.object({
    ...base, kind: z.literal("wait"), name: z.string(), named: z.boolean(), target: urn, subject: z.string(), until: z.unknown(), untilText: z.string(),
    failWhen: z.optional(z.unknown()), failWhenText: z.optional(z.string()), reasonAttribute: z.optional(z.string()),
    timeoutMs: z.number().check(z.positive()), intervalMs: z.number().check(z.positive()), defaultTimeout: z.boolean(), needed: z.boolean(), why: z.string(),
    readyNow: z.nullable(z.boolean()),
  }),
  z.object({ ...base, kind: z.literal("same"), meta, movedFrom: z.optional(urn), adopt }),
]);

const planSchema = z.object({
  version: z.literal(PLAN_FORMAT_VERSION),
  project: z.string().check(z.minLength(1)),
  stack: z.string().check(z.minLength(1)),
  baseSerial: z.int().check(z.nonnegative()),
  fingerprint: z.string(),
  mode: z.enum(["update", "destroy", "refresh-only"]),
  refresh: z.array(mutationSchema),
  drift: z.array(z.object({ kind: z.enum(["gone", "drift"]), urn, type: z.string(), changed: z.optional(names) })),
  steps: z.array(stepSchema),
  outputs: props,
  secretOutputs: names,
  outputsChanged: z.boolean(),
  diagnostics: z.array(z.object({ severity: z.enum(["error", "warning"]), message: z.string(), urn: z.optional(urn) })),
  unforeseen: z.optional(z.array(z.string())),
  targets: z.optional(urns),
  deferred: z.optional(z.array(z.object({
    kind: z.enum(["declared", "node", "kept"]), type: z.string(), name: z.optional(z.string()), pattern: z.optional(z.string()), urn: z.optional(urn), waitsFor: z.string(),
  }))),
});

/** A plan file: what it is, its format, the salt of its encrypted secrets, the plan, and a digest of the rest. */
export const planFileSchema = z.object({
  cairnPlan: z.literal(PLAN_FORMAT_VERSION),
  salt: z.optional(z.string().check(z.minLength(1))),
  plan: planSchema,
  digest: z.string().check(z.minLength(1)),
});

/**
 * The problems of a parsed plan file in one line (the first few, with their paths), or undefined.
 * @example planFileProblems({ cairnPlan: 1 }) // "plan: expected object, received undefined; digest: …"
 */
export function planFileProblems(json: unknown): string | undefined {
  const r = planFileSchema.safeParse(json);
  return r.success ? undefined : describeZodError(r.error);
}
