import type { Urn } from "../core/urn.js";
import type { OpContext, Provider } from "../provider/provider.js";
import type { Props } from "../state/types.js";
import { UserError } from "../core/diagnostic.js";

/**
 * Reads what a lookup (`Type.get(name, idOrQuery)`) names: by id with the provider's `read`, or by query
 * with its `lookup`. `undefined` means nothing matches.
 *
 * @example await readLookup(provider, "aws:route53:HostedZone", urn, { name: "example.dev" }, ctx) // { id: "Z0123…", outputs: { zoneId: "Z0123…", … } }
 */
export async function readLookup(provider: Provider<any, any, any>, type: string, urn: Urn, key: unknown, ctx: OpContext): Promise<{ id: string; outputs: Props } | undefined> {
  if (key !== null && typeof key === "object") {
    if (!provider.lookup) throw new UserError(`${type} can only be looked up by id, not by a query`);
    return (await provider.lookup({ urn, query: key, ctx })) as { id: string; outputs: Props } | undefined;
  }
  const id = String(key);
  const outputs = (await provider.read({ urn, id, inputs: {}, outputs: {}, ctx })) as Props | undefined;
  return outputs === undefined ? undefined : { id, outputs };
}

/**
 * A lookup's id or query as message text.
 *
 * @example describeLookupKey({ name: "example.dev" }) // 'name = "example.dev"'
 */
export function describeLookupKey(key: unknown): string {
  if (key !== null && typeof key === "object") return Object.entries(key).map(([k, v]) => `${k} = ${JSON.stringify(v)}`).join(", ");
  return `id "${String(key)}"`;
}
