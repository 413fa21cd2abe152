import * as z from "zod/mini";
import { describeZodError, mutationSchema } from "../state/schema.js";
import { PLAN_FORMAT_VERSION } from "./plan.js";
import { stepSchema } from "./steps/index.js";
import { planParts } from "./steps/step-parts.js";

/**
 * zod schemas of a saved plan file (`preview --out`): a plan read back is checked field by field before
 * anything of it is applied. Values the engine recomputes or compares (inputs, predicates) are checked
 * as objects; the file's digest covers every byte of them.
 *
 * @example const r = planFileSchema.safeParse(JSON.parse(text)); if (!r.success) throw …
 */

const { urn, urns, props, names } = planParts;

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
  outputNotes: z.optional(z.record(z.string(), z.string())),
  // A diagnostic's site is never saved (DeclarationSite.toJSON): where code sits does not change the plan.
  diagnostics: z.array(z.object({ severity: z.enum(["error", "warning"]), summary: z.string(), detail: z.optional(z.string()), urn: z.optional(z.string()), attribute: z.optional(z.string()) })),
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
