/**
 * Default tags: the stack's `aws:defaultTags` config and an `aws.Provider`'s `defaultTags`, merged into every
 * taggable type's tags when the resource is declared (so plans show them), in the type's own tag shape (a
 * list of `{ key, value }` or a map). A resource's own tags win, then the provider's, then the stack's.
 */
import type { PrepareEnv } from "../../../program/node.js";
import { isOutput, type Output } from "../../../program/output.js";
import { Provider } from "../provider.js";
import type { TypeInfo } from "./type-spec.js";
import { UserError } from "../../../core/diagnostic.js";

/** The config key of the stack-wide default tags: a JSON object of strings. */
export const DEFAULT_TAGS_KEY = "aws:defaultTags";

// The config value as last parsed: every resource of a program reads the same one. Keyed by the raw text,
// so another run with other tags parses its own (a pure cache).
let parsedConfig: { raw: string; tags: Record<string, string> } | undefined;

/** The `aws:defaultTags` config value as tags; a value that is not a JSON object of strings is refused, saying how to set it. */
function configTags(raw: string): Record<string, string> {
  if (parsedConfig?.raw === raw) return parsedConfig.tags;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = undefined;
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed) || Object.values(parsed).some((v) => typeof v !== "string")) {
    throw new UserError(`The config value ${DEFAULT_TAGS_KEY} must be a JSON object of strings, e.g. '{"team":"web"}' (got ${raw}). Set it with: config set ${DEFAULT_TAGS_KEY} '{"team":"web"}'`);
  }
  parsedConfig = { raw, tags: parsed as Record<string, string> };
  return parsedConfig.tags;
}

/** The stack's and the provider's default tags, merged (empty when there are none). */
export function defaultTagsOf(env: PrepareEnv): Record<string, string> {
  const raw = env.config[DEFAULT_TAGS_KEY]?.value;
  const own = env.provider instanceof Provider ? env.provider.args.defaultTags : undefined;
  return { ...(raw !== undefined ? configTags(raw) : {}), ...own };
}

type TagList = { key: string; value: string }[];

function merged(variant: "standard" | "map", defaults: Record<string, string>, own: unknown): unknown {
  if (variant === "map") return { ...defaults, ...((own ?? {}) as Record<string, string>) };
  const list = (Array.isArray(own) ? own : []) as TagList;
  const mine = new Set(list.map((t) => t?.key));
  return [...Object.entries(defaults).filter(([k]) => !mine.has(k)).map(([key, value]) => ({ key, value })), ...list];
}

/**
 * The inputs with the default tags merged into the type's tag property (unchanged for an untaggable type
 * or when there are no default tags). Own tags not known yet (an output) are merged once known.
 *
 * @example withDefaultTags(bucketInfo, { tags: [{ key: "a", value: "1" }] }, env) // tags: [{ key: "team", value: "web" }, { key: "a", value: "1" }]
 */
export function withDefaultTags(info: TypeInfo, inputs: Record<string, unknown>, env: PrepareEnv): Record<string, unknown> {
  if (!info.tags) return inputs;
  const defaults = defaultTagsOf(env);
  if (Object.keys(defaults).length === 0) return inputs;
  const key = info.tags.prop.js;
  const variant = info.tags.variant;
  const own = inputs[key];
  let tags: unknown;
  if (isOutput(own)) tags = (own as Output<unknown>).apply((v) => merged(variant, defaults, v));
  else if (own instanceof Promise) tags = own.then((v) => merged(variant, defaults, v));
  else tags = merged(variant, defaults, own);
  return { ...inputs, [key]: tags };
}
