import type { ProviderArgs } from "./provider.js";

// One client per distinct configuration: clients hold connection pools and resolved credentials.
// Explicit credentials make a configuration distinct by object identity.
const cache = new Map<string, unknown>();
const byCredentials = new WeakMap<object, Map<string, unknown>>();

/**
 * The client of `service` for a provider configuration, made once by `make`.
 *
 * @example const acm = cachedClient("acm", args, () => new ACMClient(clientConfig(args)));
 */
export function cachedClient<C>(service: string, args: ProviderArgs, make: () => C): C {
  const key = JSON.stringify([service, args.region ?? "", args.profile ?? "", args.endpoint ?? ""]);
  let map = cache;
  const owner = args.credentials as object | undefined;
  if (owner) {
    map = byCredentials.get(owner) ?? new Map();
    byCredentials.set(owner, map);
  }
  let c = map.get(key) as C | undefined;
  if (!c) map.set(key, (c = make()));
  return c;
}

/**
 * The SDK client settings of a provider configuration. Cairn retries (with the operation's clock and
 * cancellation, see call.ts), so the SDK makes one attempt per call.
 *
 * @example new ACMClient(clientConfig({ region: "us-east-1" }))
 */
export function clientConfig(args: ProviderArgs) {
  return {
    maxAttempts: 1,
    ...(args.region ? { region: args.region } : {}),
    ...(args.profile ? { profile: args.profile } : {}),
    ...(args.endpoint ? { endpoint: args.endpoint } : {}),
    ...(args.credentials ? { credentials: args.credentials } : {}),
  };
}
