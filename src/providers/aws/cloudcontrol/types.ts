/**
 * The Cloud Control types this process knows: each generated type registers itself when its service module
 * loads, and a type no loaded module defines is found through the catalog (module by CloudFormation
 * namespace) and loaded on demand — for the fake cloud, and for objects in state whose program no longer
 * imports their module.
 */
import { SERVICE_NAMESPACES, SPECIAL_TOKENS } from "../services/catalog.js";
import type { TypeInfo } from "./type-spec.js";

// The types of the generated modules loaded in this process: code, the same for every run.
const byCfn = new Map<string, TypeInfo>();
const byToken = new Map<string, TypeInfo>();

/** Records a type (called by `cloudControlType` as its module loads). */
export function registerType(info: TypeInfo): void {
  byCfn.set(info.cfnType, info);
  byToken.set(info.token, info);
}

/** A loaded type, by CloudFormation type name or Cairn type token. @example knownType("AWS::S3::Bucket")?.token // "aws:s3:Bucket" */
export function knownType(name: string): TypeInfo | undefined {
  return byCfn.get(name) ?? byToken.get(name);
}

/**
 * The service module that defines a CloudFormation type or token, from the catalog; undefined when the
 * name is not an AWS type Cairn generates.
 *
 * @example moduleOf("AWS::S3::Bucket") // "s3"
 * @example moduleOf("aws:rds:DBInstance") // "rds"
 */
export function moduleOf(name: string): string | undefined {
  const cfn = SPECIAL_TOKENS[name] ?? name;
  if (cfn.includes("::")) {
    const ns = cfn.split("::").slice(0, -1).join("::");
    return Object.entries(SERVICE_NAMESPACES).find(([, v]) => v === ns)?.[0];
  }
  const [pkg, mod] = cfn.split(":");
  return pkg === "aws" && mod !== undefined && mod in SERVICE_NAMESPACES ? mod : undefined;
}

/**
 * A type by CloudFormation name or token, loading its service module when no module loaded so far defines
 * it; undefined when Cairn generates no such type.
 *
 * @example const info = await loadType("AWS::SQS::Queue");
 */
export async function loadType(name: string): Promise<TypeInfo | undefined> {
  const known = knownType(name);
  if (known) return known;
  const mod = moduleOf(name);
  if (mod === undefined) return undefined;
  // The package's own export (`cairn-iac/aws/<module>`): the same path from the sources and from the build.
  await import(`cairn-iac/aws/${mod}`);
  return knownType(name);
}
