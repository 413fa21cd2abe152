import { ACMClient } from "@aws-sdk/client-acm";
import { Route53Client } from "@aws-sdk/client-route-53";
import type { OpContext } from "../../provider/provider.js";
import { resolveProvider } from "./provider.js";
import { cachedClient as cached, clientConfig as common } from "./client-cache.js";

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
