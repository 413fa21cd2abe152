/**
 * The IAM actions each Cloud Control handler of a type needs, as the CloudFormation registry lists them
 * (`handlers.<name>.permissions`), read lazily from one generated JSON file.
 */
import { readFileSync } from "node:fs";
import { generatedDataFile } from "./registry-schema.js";

/**
 * A Cloud Control handler.
 *
 * @example const h: HandlerName = "create";
 */
export type HandlerName = "create" | "read" | "update" | "delete" | "list";

let all: Record<string, Record<HandlerName, string[]>> | undefined;

/**
 * The IAM actions each handler of a type needs (sorted, without duplicates; `[]` for a handler the type
 * lacks), or undefined for a type the registry does not have.
 *
 * @example handlerPermissions("AWS::SQS::Queue")?.create // ["sqs:CreateQueue", "sqs:GetQueueAttributes", …]
 */
export function handlerPermissions(cfnType: string): Record<HandlerName, string[]> | undefined {
  all ??= JSON.parse(readFileSync(generatedDataFile("permissions.json"), "utf8")) as Record<string, Record<HandlerName, string[]>>;
  return all[cfnType];
}
