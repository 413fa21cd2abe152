/**
 * Turns a generated type's data into a Cairn resource class: the schema the engine reads (force-new inputs,
 * secrets, stable outputs, wait defaults) and the one Cloud Control provider, bound to the type.
 */
import { defineResource, type ResourceClass } from "../../../program/define.js";
import type { Duration } from "../../../core/duration.js";
import type { Provider } from "../../../provider/provider.js";
import type { AttributeSchema, AttributeType, ResourceSchema } from "../../../provider/schema.js";
import { cloudControlProvider } from "./provider.js";
import { FLAG, decodeTypeSpec, type PropInfo, type Shape, type TypeInfo, type TypeSpecData } from "./type-spec.js";
import { registerType } from "./types.js";
import { withDefaultTags } from "./tags.js";
import { autoNameRule } from "./autoname.js";
import { handlerPermissions } from "./permissions.js";
import { operationPermissions } from "./operation-permissions.js";

/** How long a `wait` on a type with no curated default may take: Cloud Control types can be slow to settle. */
export const DEFAULT_WAIT_TIMEOUT_MS = 30 * 60_000;

/**
 * A tag in a standard tag list (`tags: [{ key: "team", value: "web" }]`).
 *
 * @example const t: AwsTag = { key: "team", value: "web" };
 */
export interface AwsTag {
  key: string;
  value: string;
}

/** The class of a generated type: `new Bucket(name, args, opts)`, and `Bucket.get(name, id)` to read one. */
export type CloudControlClass<A extends object, O extends object> = ResourceClass<A, O>;

function attributeType(shape: Shape): AttributeType {
  if (typeof shape === "string") return shape === "integer" || shape === "number" ? "number" : shape === "boolean" ? "boolean" : shape === "json" || shape === "any" ? "any" : "string";
  switch (shape[0]) {
    case "array":
      return "array";
    case "map":
    case "ref":
      return "object";
    case "enum":
      return typeof shape[1] === "number" ? "number" : "string";
    default:
      return "any";
  }
}

function attribute(p: PropInfo, input: boolean): AttributeSchema {
  // Inputs carry no type here: the provider's own check knows each property's shape at every depth, and one
  // problem is reported once.
  const a: AttributeSchema = input ? {} : { type: attributeType(p.shape) };
  if (input && p.flags & FLAG.replaces) a.forceNew = true;
  if (!input && p.flags & FLAG.stable) a.stable = true;
  if (p.flags & FLAG.secret) a.secret = true;
  return a;
}

/**
 * The engine's schema of a type: inputs (with force-new and secret flags), outputs (stable identifiers),
 * wait defaults (curated, else {@link DEFAULT_WAIT_TIMEOUT_MS}), and whether its objects hold data.
 *
 * @example schemaOf(info).inputs?.functionName?.forceNew // true
 */
export function schemaOf(info: TypeInfo): ResourceSchema {
  const inputs: Record<string, AttributeSchema> = {};
  const outputs: Record<string, AttributeSchema> = {};
  for (const p of info.props) {
    if (!(p.flags & FLAG.readOnly)) inputs[p.js] = attribute(p, true);
    outputs[p.js] = attribute(p, false);
  }
  const wait: NonNullable<ResourceSchema["wait"]> = { timeout: (info.wait?.timeout ?? DEFAULT_WAIT_TIMEOUT_MS) as Duration };
  if (info.wait?.failWhen) wait.failWhen = info.wait.failWhen;
  if (info.wait?.reason) wait.reasonAttribute = info.wait.reason;
  const autoName = autoNameRule(info);
  return { inputs, outputs, wait, ...(autoName ? { autoName } : {}), ...(info.stateful ? { stateful: true } : {}) };
}

/**
 * Defines a generated AWS type (what each line of a generated service module calls).
 *
 * @example
 * export const Queue = cloudControlType<QueueArgs, QueueOutputs>("AWS::SQS::Queue", "aws:sqs:Queue", '{"p":[["QueueName","string",66]]}');
 */
export function cloudControlType<A extends object, O extends object>(cfnType: string, token: string, data: string): CloudControlClass<A, O> {
  const info = decodeTypeSpec(cfnType, token, JSON.parse(data) as TypeSpecData);
  registerType(info);
  return defineResource<A, O>(token, {
    provider: { ...cloudControlProvider(info), permissions: (op) => operationPermissions(handlerPermissions(info.cfnType), op) } satisfies Provider<Record<string, unknown>> as never,
    schema: schemaOf(info),
    ...(info.tags ? { prepareInputs: (inputs, env) => withDefaultTags(info, inputs, env) } : {}),
  });
}
