/** Decides a type's wait defaults from the curated data: timeout, failure states. */
import type { Resource } from "@aws-cdk/service-spec-types";
import type { Predicate } from "../../src/core/predicate.js";
import type { TypeSpecData } from "../../src/providers/aws/cloudcontrol/type-spec.js";
import { camelName } from "../../src/providers/aws/cloudcontrol/naming.js";
import type { CuratedType } from "./curated.js";

/**
 * The wait data of a type, or undefined when nothing is curated for it (the provider's default applies).
 * `failWhen` paths are Cairn names (`State.Name` → `["state", "name"]`).
 *
 * @example waitData(ec2Instance, curated.types["AWS::EC2::Instance"])?.timeout // 300000
 */
export function waitData(r: Resource, c: CuratedType | undefined): TypeSpecData["wait"] | undefined {
  if (!c || (c.waitTimeoutMinutes === undefined && !c.failWhen)) return undefined;
  const wait: NonNullable<TypeSpecData["wait"]> = {};
  if (c.waitTimeoutMinutes !== undefined) wait.timeout = c.waitTimeoutMinutes * 60_000;
  const fails = Object.entries(c.failWhen ?? {}).map(([path, values]): Predicate => {
    if (!(path.split(".")[0]! in r.attributes)) throw new Error(`curated.json: ${r.cloudFormationType} failWhen names ${path}, which is not an attribute`);
    return { op: "in", path: path.split(".").map(camelName), values };
  });
  if (fails.length === 1) wait.failWhen = fails[0]!;
  else if (fails.length > 1) wait.failWhen = { op: "or", args: fails };
  return wait;
}
