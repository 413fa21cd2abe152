import type { Diff, Provider } from "../provider/provider.js";
import type { ResourceSchema } from "../provider/schema.js";
import type { Props, ResourceState } from "../state/types.js";
import { UNKNOWN, containsUnknown } from "../core/unknown.js";
import { NO_KEYS, type ResourceValue } from "../runtime/values.js";

/**
 * The planned value of a resource about to be created: outputs named like inputs take the input's value,
 * the rest are known after apply.
 *
 * @example plannedForCreate({ name: "a" }, NO_KEYS).outputs // { name: "a" }
 */
export function plannedForCreate(news: Props, secrets: ReadonlySet<string>): ResourceValue {
  // Inputs all known (nearly always): they are the outputs named like them, as they are (no copy is made).
  if (!containsUnknown(news)) return { id: UNKNOWN, outputs: news, unknown: NO_KEYS, restUnknown: true, secretKeys: secrets };
  const outputs: Props = {};
  // `for…in`, not Object.entries: no pair per input (planned inputs are plain objects). An input left out
  // reads as unknown (`restUnknown`): no set of its names is needed (one would be kept per resource).
  for (const k in news) {
    const v = news[k];
    if (!containsUnknown(v)) outputs[k] = v;
  }
  return { id: UNKNOWN, outputs, unknown: NO_KEYS, restUnknown: true, secretKeys: secrets };
}

/**
 * The planned value of a resource updated in place: inputs as given, stable outputs kept, the rest unknown.
 *
 * @example plannedForUpdate(prior, { size: 2 }, schema, undefined, NO_KEYS).outputs.size // 2
 */
export function plannedForUpdate(prior: ResourceState, news: Props, schema: ResourceSchema | undefined, diff: Diff | undefined, secrets: ReadonlySet<string>): ResourceValue {
  const stable = new Set([
    ...Object.entries(schema?.outputs ?? {}).filter(([, a]) => a.stable).map(([k]) => k),
    ...(diff?.kind === "update" ? (diff.stables ?? []) : []),
  ]);
  const outputs: Props = {};
  const unknown = new Set<string>();
  for (const k of new Set([...Object.keys(prior.outputs), ...Object.keys(schema?.outputs ?? {})])) {
    if (k in news) {
      if (containsUnknown(news[k])) unknown.add(k);
      else outputs[k] = news[k];
    } else if (stable.has(k)) outputs[k] = prior.outputs[k];
    else unknown.add(k);
  }
  return { id: prior.id, outputs, unknown, restUnknown: false, secretKeys: secrets };
}

/**
 * A new object's planned value with what its provider can tell of its outputs already (see
 * `Provider.planOutputs`).
 *
 * @example foreseen(provider, plannedForCreate(news, NO_KEYS), news).partial // { arn: "arn:…:…" } when the provider can tell
 */
export function foreseen(provider: Provider<any, any, any>, value: ResourceValue, news: Props): ResourceValue {
  const plan = provider.planOutputs;
  // Which outputs a secret input shapes is not known: none is foreseen from such inputs (names would show it).
  if (!plan || value.secretKeys.size > 0 || containsUnknown(news)) return value;
  const partial = plan({ inputs: news }) as Props | undefined;
  return partial ? { ...value, partial } : value;
}
