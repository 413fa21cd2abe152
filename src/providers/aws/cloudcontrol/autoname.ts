/**
 * Which input names a Cloud Control type's objects, and the constraints a name Cairn makes must meet: the
 * registry's naming facts (`TypeInfo.registry.naming`), with the service's documented rules where the
 * registry schema states none (it gives no pattern or length for S3 bucket, SQS queue, IAM role names).
 */
import type { AutoNameRule } from "../../../provider/auto-name.js";
import { FLAG, type TypeInfo } from "./type-spec.js";

/** A naming fact the registry schema lacks, from the service's documentation. */
interface NamingFact {
  path: string;
  min?: number;
  max?: number;
  pattern?: string;
  /** Text a name ends with while this input is true. */
  endsWith?: { text: string; when: string };
}

/**
 * Facts of the services' own documentation (the registry schemas leave them out):
 * - S3: "Bucket names must be between 3 and 63 characters long", "can consist only of lowercase letters,
 *   numbers, periods (.), and hyphens (-)", "must begin and end with a letter or number" (Amazon S3 User
 *   Guide, General purpose bucket naming rules).
 * - SQS: "A queue name can have up to 80 characters. Valid values: alphanumeric characters, hyphens (-), and
 *   underscores (_)", and "a FIFO queue name must end with the .fifo suffix" (SQS API Reference, CreateQueue).
 * - SNS: topic names "up to 256 characters … uppercase and lowercase ASCII letters, numbers, underscores, and
 *   hyphens", a FIFO topic's ending with `.fifo` (SNS API Reference, CreateTopic).
 * - IAM: RoleName length 1–64, pattern `[\w+=,.@-]+` (IAM API Reference, CreateRole).
 * - Lambda: FunctionName of a name alone up to 64 characters, `[a-zA-Z0-9-_]+` (Lambda API Reference, CreateFunction).
 */
const DOCUMENTED: Readonly<Record<string, NamingFact>> = {
  "AWS::S3::Bucket": { path: "BucketName", min: 3, max: 63, pattern: "^[a-z0-9][a-z0-9.-]*[a-z0-9]$" },
  "AWS::SQS::Queue": { path: "QueueName", max: 80, pattern: "^[A-Za-z0-9_-]+(\\.fifo)?$", endsWith: { text: ".fifo", when: "FifoQueue" } },
  "AWS::SNS::Topic": { path: "TopicName", max: 256, pattern: "^[A-Za-z0-9_-]+(\\.fifo)?$", endsWith: { text: ".fifo", when: "FifoTopic" } },
  "AWS::IAM::Role": { path: "RoleName", min: 1, max: 64, pattern: "^[\\w+=,.@-]+$" },
  "AWS::Lambda::Function": { path: "FunctionName", min: 1, max: 64, pattern: "^[a-zA-Z0-9_-]+$" },
};

/**
 * The auto-naming rule of a type, or undefined when it has none: no naming property, a nested one, or one
 * the program must give (required) or cannot (read-only).
 *
 * @example autoNameRule(bucketInfo) // { input: "bucketName", minLength: 3, maxLength: 63, pattern: "^[a-z0-9][a-z0-9.-]*[a-z0-9]$" }
 */
export function autoNameRule(info: TypeInfo): AutoNameRule | undefined {
  const registry = info.registry.naming;
  const documented = DOCUMENTED[info.cfnType];
  const path = registry?.path ?? documented?.path;
  if (path === undefined || path.includes("/")) return undefined;
  const prop = info.byCfn.get(path);
  if (!prop || prop.flags & (FLAG.required | FLAG.readOnly)) return undefined;
  const fact = documented?.path === path ? documented : undefined;
  const rule: AutoNameRule = { input: prop.js };
  const min = registry?.min ?? fact?.min;
  const max = registry?.max ?? fact?.max;
  const pattern = registry?.pattern ?? fact?.pattern;
  if (min !== undefined) rule.minLength = min;
  if (max !== undefined) rule.maxLength = max;
  if (pattern !== undefined) rule.pattern = pattern;
  // The service lower-cases the name (RDS identifiers): a lower-case name reads back as it was sent.
  if (/\$lowercase\(/.test(info.registry.transforms.get(path) ?? "")) rule.lowerCase = true;
  const when = fact?.endsWith && info.byCfn.get(fact.endsWith.when);
  if (fact?.endsWith && when) rule.endsWith = { text: fact.endsWith.text, when: when.js };
  return rule;
}
