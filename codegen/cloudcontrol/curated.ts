/** The reviewed data file `curated.json`, read and checked: facts the specification lacks. */
import { readFileSync } from "node:fs";
import { z } from "zod";

const typeSchema = z.strictObject({
  $source: z.string().optional(),
  enums: z.record(z.string(), z.array(z.string()).min(1)).optional(),
  waitTimeoutMinutes: z.number().positive().optional(),
  failWhen: z.record(z.string(), z.array(z.string()).min(1)).optional(),
  writeOnly: z.array(z.string()).optional(),
  secret: z.array(z.string()).optional(),
  /** Paths the registry lists as create-only that the service updates in place (cite the source). */
  updatable: z.array(z.string()).optional(),
  /** Bounds of the naming property the registry leaves out (cite the service's API reference). */
  naming: z.strictObject({ min: z.number().int().optional(), max: z.number().int().optional(), pattern: z.string().optional() }).optional(),
  /** Why the type cannot be made through Cloud Control and what to use instead (cite the source). */
  unprovisionable: z.string().optional(),
  /** Why the type's objects hold data though the specification's `isStateful` does not say so (cite the source). */
  stateful: z.string().min(1).optional(),
});

const fileSchema = z.strictObject({
  $comment: z.string(),
  types: z.record(z.string(), typeSchema),
  secretNames: z.strictObject({ $comment: z.string(), match: z.string(), except: z.string() }),
  tokens: z.record(z.string(), z.string()),
});

/** Curated facts about one type. */
export type CuratedType = z.infer<typeof typeSchema>;

/** The whole curated file, with the secret-name rule compiled. */
export interface Curated {
  types: Record<string, CuratedType>;
  tokens: Record<string, string>;
  /** True for a property name that is a password or secret in every type. */
  isSecretName: (cfn: string) => boolean;
}

/**
 * Reads and validates the curated data file; an invalid file fails the generation, naming the field.
 *
 * @example const curated = readCurated(new URL("./curated.json", import.meta.url));
 */
export function readCurated(file: URL | string): Curated {
  const parsed = fileSchema.safeParse(JSON.parse(readFileSync(file, "utf8")));
  if (!parsed.success) throw new Error(`${String(file)}: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  const { types, tokens, secretNames } = parsed.data;
  const { $comment: _c, ...tokenMap } = tokens;
  const match = new RegExp(secretNames.match);
  const except = new RegExp(secretNames.except);
  return { types, tokens: tokenMap, isSecretName: (cfn) => match.test(cfn) && !except.test(cfn) };
}
