import { ACMClient } from "@aws-sdk/client-acm";
import { Route53Client } from "@aws-sdk/client-route-53";
import type { OpContext } from "../../provider/provider.js";
import { resolveProvider, type ProviderArgs } from "./provider.js";

// One client per distinct configuration: clients hold connection pools and resolved credentials.
// Explicit credentials make a configuration distinct by object identity.
const cache = new Map<string, unknown>();
const byCredentials = new WeakMap<object, Map<string, unknown>>();

function cached<C>(service: string, args: ProviderArgs, make: () => C): C {
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

// Cairn retries (with the op's clock and cancellation, see call.ts), so the SDK makes one attempt per call.
function common(args: ProviderArgs) {
  return {
    maxAttempts: 1,
    ...(args.region ? { region: args.region } : {}),
    ...(args.profile ? { profile: args.profile } : {}),
    ...(args.endpoint ? { endpoint: args.endpoint } : {}),
    ...(args.credentials ? { credentials: args.credentials } : {}),
  };
}

/**
 * The ACM client for an operation: region, profile, endpoint and credentials come from the resource's
 * `aws.Provider` (or the one recorded in state), else from the SDK's default chain.
 *
 * @example const acm = acmClient(ctx); await acm.send(new DescribeCertificateCommand({ CertificateArn }));
 */
export function acmClient(ctx: Pick<OpContext, "provider">): ACMClient {
  const args = resolveProvider(ctx.provider);
  return cached("acm", args, () => new ACMClient(common(args)));
}

/**
 * The Route 53 client for an operation. Route 53 is global: without a region it signs for us-east-1.
 *
 * @example const r53 = route53Client(ctx); await r53.send(new GetHostedZoneCommand({ Id }));
 */
export function route53Client(ctx: Pick<OpContext, "provider">): Route53Client {
  const args = resolveProvider(ctx.provider);
  const region = args.region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? "us-east-1";
  return cached("route53", { ...args, region }, () => new Route53Client(common({ ...args, region })));
}
