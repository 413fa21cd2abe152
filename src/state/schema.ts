import * as z from "zod/mini";
import en from "zod/v4/locales/en.js";
import { parseUrn, type Urn } from "../core/urn.js";
import type { DeposedObject, OperationKind, ResourceState, StackState, StateMutation } from "./types.js";

/**
 * zod schemas for every file the state backend reads, so a damaged or hand-edited file is refused
 * with a message naming what is wrong instead of failing later in the engine.
 *
 * @example
 * const r = stackStateSchema.safeParse(JSON.parse(text));
 * if (!r.success) throw new Error(`state.json: ${describeZodError(r.error)}`);
 */

// zod/mini (a twentieth of zod's size in the bundle) carries no messages of its own: use the English ones.
z.config(en());

const urn = z.custom<Urn>((v) => typeof v === "string" && v.length > 0, "expected a URN string");
const props = z.record(z.string(), z.unknown());
const names = z.array(z.string());

/** A provider record (see {@link ProviderRecord}). */
// Loose objects: fields a newer engine adds to resources or the state are kept as they are, not stripped.
const providerRecordSchema = z.looseObject({ name: z.string().check(z.minLength(1)), settings: z.record(z.string(), z.string()) });

/** A deposed object (see {@link DeposedObject}). */
export const deposedObjectSchema: z.ZodMiniType<DeposedObject> = z.looseObject({
  id: z.string().check(z.minLength(1, "an object id cannot be empty")),
  inputs: props,
  outputs: props,
  secretKeys: z.optional(names),
  provider: z.optional(providerRecordSchema),
  deps: z.optional(z.array(urn)),
});

const ms = z.optional(z.number().check(z.positive()));
const timeoutsSchema = z.object({ create: ms, update: ms, delete: ms });

/** One resource's state (see {@link ResourceState}). @example resourceStateSchema.parse(json) */
export const resourceStateSchema: z.ZodMiniType<ResourceState> = z.looseObject({
  urn,
  type: z.string().check(z.minLength(1)),
  id: z.string().check(z.minLength(1, "an object id cannot be empty")),
  inputs: props,
  outputs: props,
  secretKeys: z.optional(names),
  parent: z.optional(urn),
  deps: z.array(urn),
  protect: z.optional(z.boolean()),
  retainOnDelete: z.optional(z.boolean()),
  provider: z.optional(providerRecordSchema),
  tainted: z.optional(z.boolean()),
  deposed: z.optional(z.array(deposedObjectSchema)),
  timeouts: z.optional(timeoutsSchema),
  drift: z.optional(names),
  inputsUnknown: z.optional(z.literal(true)),
  triggers: z.optional(z.string()),
  declaredIn: z.optional(z.object({ on: z.array(urn), waitsFor: z.string() })),
  waitsHeld: z.optional(names),
});

/**
 * A whole snapshot (see {@link StackState}). The caller checks `version` first, so a newer format is
 * reported as such rather than as a schema mismatch.
 * @example stackStateSchema.parse(JSON.parse(fs.readFileSync("state.json", "utf8")))
 */
export const stackStateSchema: z.ZodMiniType<StackState> = z
  .looseObject({
    version: z.int().check(z.positive()),
    project: z.string(),
    stack: z.string(),
    serial: z.int().check(z.nonnegative()),
    resources: z.record(z.string(), resourceStateSchema),
    outputs: props,
    secretOutputs: z.optional(names),
  })
  .check(
    z.superRefine((s, ctx) => {
      for (const [key, r] of Object.entries(s.resources)) {
        if (key !== r.urn) ctx.addIssue({ code: "custom", path: ["resources", key, "urn"], message: `resource is filed under "${key}" but its urn is "${r.urn}"`, input: r.urn });
        const urnType = typeInUrn(r.urn);
        if (urnType !== undefined && urnType !== r.type) ctx.addIssue({ code: "custom", path: ["resources", key, "type"], message: `the type "${r.type}" disagrees with the type in its URN ("${urnType}")`, input: r.type });
        for (const d of r.deps) {
          if (!(d in s.resources)) ctx.addIssue({ code: "custom", path: ["resources", key, "deps"], message: `names ${d}, which is no resource of this state`, input: d });
        }
      }
    }),
  );

/** The type a URN names (`bad:in:Box`), or undefined when the text is not a URN. Only for files edited by hand: written ones skip this check. */
function typeInUrn(urn: string): string | undefined {
  try {
    return parseUrn(urn).type;
  } catch {
    return undefined;
  }
}

/** A state change as journaled (see {@link StateMutation}). */
export const mutationSchema: z.ZodMiniType<StateMutation> = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("upsert"), resource: resourceStateSchema }),
  z.object({ kind: z.literal("remove"), urn }),
  z.object({ kind: z.literal("outputs"), outputs: props, secretOutputs: names }),
]);

const operationKind: z.ZodMiniType<OperationKind> = z.enum(["create", "update", "delete", "replace-create", "replace-delete", "delete-deposed"]);
const opNumber = z.int().check(z.positive());

/** The first line of a journal: its format version and the snapshot serial it continues. */
export const headRecordSchema = z.object({ t: z.literal("head"), v: z.int().check(z.positive()), serial: z.int().check(z.nonnegative()) });

/** Any journal line after the head. */
export const journalRecordSchema = z.discriminatedUnion("t", [
  z.object({ t: z.literal("begin"), op: opNumber, kind: operationKind, urn, type: z.string().check(z.minLength(1)), id: z.optional(z.string()), since: z.string(), note: z.optional(z.record(z.string(), z.string())) }),
  z.object({ t: z.literal("note"), op: opNumber, d: z.record(z.string(), z.string()) }),
  z.object({ t: z.literal("end"), op: opNumber, m: z.optional(z.array(mutationSchema)) }),
  z.object({ t: z.literal("abort"), op: opNumber, m: z.optional(z.array(mutationSchema)) }),
  z.object({ t: z.literal("mutate"), m: z.array(mutationSchema) }),
]);

/** A parsed journal line after the head. */
export type JournalRecord = z.infer<typeof journalRecordSchema>;
/** A parsed journal head line. */
export type HeadRecord = z.infer<typeof headRecordSchema>;

/** `encryption.json`: how the stack key is derived, and a check value to recognise a wrong passphrase. */
export const encryptionFileSchema = z.object({
  version: z.literal(1),
  cipher: z.literal("aes-256-gcm"),
  kdf: z.literal("scrypt"),
  scrypt: z.object({ N: z.int().check(z.positive()), r: z.int().check(z.positive()), p: z.int().check(z.positive()) }),
  salt: z.string().check(z.minLength(1)),
  check: z.string().check(z.minLength(1)),
});

/** The parsed form of `encryption.json`. */
export type EncryptionFile = z.infer<typeof encryptionFileSchema>;

/** `config.json`: plain values as strings, secret ones as `{ "$secret": "..." }`. */
export const configFileSchema = z.object({
  values: z.record(z.string(), z.union([z.string(), z.object({ $secret: z.string() })])),
});

/** The parsed form of `config.json`. */
export type ConfigFile = z.infer<typeof configFileSchema>;

/** `lock.json`: who holds the stack lock. */
export const lockHolderSchema = z.object({
  pid: z.int().check(z.positive()),
  host: z.string(),
  since: z.string(),
  command: z.string(),
  expires: z.optional(z.string()),
  session: z.optional(z.int()),
  started: z.optional(z.number()),
  machine: z.optional(z.string()),
  leaseMs: z.optional(z.number().check(z.positive())),
});

/**
 * Turns a zod error into one short line: the first few problems with their paths.
 * @example describeZodError(err) // "resources.urn:a.deps: expected array, received undefined"
 */
export function describeZodError(err: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): string {
  const shown = err.issues.slice(0, 3).map((i) => `${i.path.length ? i.path.join(".") + ": " : ""}${i.message}`);
  const more = err.issues.length > 3 ? ` (and ${err.issues.length - 3} more problems)` : "";
  return shown.join("; ") + more;
}
