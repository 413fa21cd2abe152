/**
 * AWS resource types on the official AWS SDK v3: `acm.Certificate`, `route53.HostedZone`,
 * `route53.RecordSet`, and `aws.Provider` to choose a region, profile, endpoint or credentials.
 *
 * @example
 * import { acm, route53, aws } from "cairn-iac/aws";
 * const zone = route53.HostedZone.get("zone", { name: "example.dev" });
 * const cert = new acm.Certificate("cert", { domainName: "registry.example.dev" });
 *
 * @module cairn-iac/aws
 */
export * from "./generated/index.js";
export * as aws from "./aws.js";
export * as assets from "./assets/index.js";
