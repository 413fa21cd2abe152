/**
 * Which types go in which module: one module per AWS service (`cairn-iac/aws/s3`, `cairn-iac/aws/rds`), named by the
 * service's short name, holding every type of that CloudFormation namespace.
 */
import type { SpecDatabase } from "@aws-cdk/service-spec-types";
import type { Curated } from "./curated.js";
import type { ServiceModel } from "./model.js";
import { decideResource } from "./decide-type.js";
import type { RegistrySchema } from "../registry/load.js";

// Code-unit order, not localeCompare: the output must not depend on the machine's locale.
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Every service with its types decided, sorted by module name (types by name). Types that are template
 * macros (`AWS::Serverless::*`, which need a CloudFormation transform) are not resource types and are left out.
 *
 * @example decideServices(db, curated, loadRegistry()).find((s) => s.module === "s3")?.types.map((t) => t.name) // ["AccessGrant", …, "Bucket", …]
 */
export function decideServices(db: SpecDatabase, curated: Curated, registry: ReadonlyMap<string, RegistrySchema>): ServiceModel[] {
  const services: ServiceModel[] = [];
  for (const svc of db.all("service")) {
    const resources = db.follow("hasResource", svc).map((x) => x.entity).filter((r) => !r.cloudFormationTransform);
    if (resources.length === 0) continue;
    resources.sort((a, b) => byText(a.name, b.name));
    const taken = new Set<string>(["AwsTag"]);
    const claim = (name: string) => {
      let free = name;
      for (let n = 2; taken.has(free); n++) free = `${name}${n}`;
      taken.add(free);
      return free;
    };
    // Class names first, so a nested type never takes a resource's name.
    for (const r of resources) if (taken.has(r.name)) throw new Error(`${svc.cloudFormationNamespace}: two types named ${r.name}`);
    for (const r of resources) taken.add(r.name);
    const types = resources.map((r) => decideResource(r, { db, module: svc.shortName, curated, claim, registry }));
    services.push({ module: svc.shortName, namespace: svc.cloudFormationNamespace, types });
  }
  return services.sort((a, b) => byText(a.module, b.module));
}
