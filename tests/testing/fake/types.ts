/**
 * Hand-made Cloud Control types for the fake's tests: their generated data carries the registry's facts
 * (`reg`), and their registry schemas are given to the fake with `schemaOf`, as the generated ones will be.
 */
import { decodeTypeSpec, FLAG, type TypeSpecData } from "../../../src/providers/aws/cloudcontrol/type-spec.js";
import { registerType } from "../../../src/providers/aws/cloudcontrol/types.js";
import { FakeCloudControl, type FakeCloudControlOptions } from "../../../src/testing/cloudcontrol/fake-cloud.js";

/** A function-like type: write-only code, a nested create-only path, a transform, defaults at every depth. */
export const FN = "Test::Fake::Function";
const fnData: TypeSpecData = {
  id: ["FunctionName"],
  p: [
    ["FunctionName", "string", FLAG.replaces],
    ["Role", "string", FLAG.required],
    ["Code", ["ref", "Code"], FLAG.required],
    ["MemorySize", "integer"],
    ["Engine", "string"],
    ["Policy", "json"],
    ["Layers", ["array", "string"]],
    ["Tags", ["array", ["ref", "Tag"]]],
    ["Settings", ["ref", "Settings"]],
    ["Rules", ["array", ["ref", "Rule"]]],
    ["Network", ["ref", "Network"]],
    ["Secret", "string"],
    ["Notes", ["array", "string"]],
    ["Arn", "string", FLAG.readOnly],
  ],
  d: {
    Code: [["ZipFile", "string"], ["S3Bucket", "string"]],
    Settings: [["Mode", "string"], ["Retries", "integer"]],
    Rule: [["Name", "string"], ["Priority", "integer"]],
    Network: [["IpFamily", "string"], ["Elb", "boolean"]],
  },
  tags: ["Tags", "standard"],
  reg: {
    h: "crudl",
    wo: ["Code/ZipFile", "Code/S3Bucket", "Secret"],
    co: ["FunctionName", "Network/IpFamily"],
    ro: ["Arn"],
    uo: ["Layers"],
    pt: { Engine: "$lowercase(Engine)", "Rules/*/Name": "$uppercase(Name)" },
  },
};

const tag = { type: "object", properties: { Key: { type: "string" }, Value: { type: "string" } }, required: ["Key", "Value"], additionalProperties: false };
/** The registry schema of {@link FN}. */
export const fnSchema = {
  typeName: FN,
  additionalProperties: false,
  required: ["Code", "Role"],
  properties: {
    FunctionName: { type: "string", minLength: 1, maxLength: 64, pattern: "^(f\\d+|[a-c]|x+)$" },
    Role: { type: "string", pattern: "^arn:aws:iam::\\d{12}:role/.+$" },
    Code: { $ref: "#/definitions/Code" },
    MemorySize: { type: "integer", minimum: 128, maximum: 10240, default: 128 },
    Engine: { type: "string" },
    Policy: { type: ["object", "string"] },
    Layers: { type: "array", insertionOrder: false, items: { type: "string", relationshipRef: { typeName: "AWS::Lambda::LayerVersion", propertyPath: "/properties/LayerVersionArn" } } },
    Tags: { type: "array", insertionOrder: false, items: tag },
    Settings: { $ref: "#/definitions/Settings" },
    Rules: { type: "array", arrayType: "AttributeList", items: { $ref: "#/definitions/Rule" } },
    Network: { type: "object", additionalProperties: false, properties: { IpFamily: { type: "string", enum: ["ipv4", "ipv6"], default: "ipv4" }, Elb: { type: "boolean" } } },
    Secret: { type: "string" },
    Notes: { type: "array", items: { type: "string" }, default: null },
    Arn: { type: "string" },
  },
  definitions: {
    Code: { type: "object", additionalProperties: false, properties: { ZipFile: { type: "string" }, S3Bucket: { type: "string" } } },
    Settings: { type: "object", additionalProperties: false, properties: { Mode: { type: "string", enum: ["Active", "PassThrough"], default: "PassThrough" }, Retries: { type: "integer", default: 2 } } },
    Rule: { type: "object", additionalProperties: false, required: ["Name"], properties: { Name: { type: "string" }, Priority: { type: "integer", default: 10 } } },
  },
  primaryIdentifier: ["/properties/FunctionName"],
  readOnlyProperties: ["/properties/Arn"],
  handlers: { create: { permissions: [] }, read: { permissions: [] }, update: { permissions: [] }, delete: { permissions: [] }, list: { permissions: [] } },
};

/** A type Cloud Control cannot provision (no handlers), and one it cannot list. */
export const POLICY = "Test::Fake::Policy";
export const DOMAIN = "Test::Fake::Domain";

registerType(decodeTypeSpec(FN, "test:fake:Function", fnData));
registerType(decodeTypeSpec(POLICY, "test:fake:Policy", { p: [["PolicyName", "string"]], reg: { h: "" } }));
registerType(decodeTypeSpec(DOMAIN, "test:fake:Domain", { id: ["DomainName"], p: [["DomainName", "string", FLAG.replaces]], reg: { h: "crud" } }));

const schemas: Record<string, object> = { [FN]: fnSchema };

/** A fake that knows the hand-made schemas; requests finish when first answered unless told otherwise. */
export function fakeCloud(options: FakeCloudControlOptions = {}): FakeCloudControl {
  return new FakeCloudControl({ pollsToFinish: 0, schemaOf: (t) => schemas[t], ...options });
}

interface Event {
  ProgressEvent: { RequestToken: string; OperationStatus: string; Identifier?: string; ErrorCode?: string; StatusMessage?: string };
}

/** Sends a request and reports it until it has finished; returns its final progress event. */
export async function run(cloud: FakeCloudControl, op: string, input: Record<string, unknown>): Promise<Event["ProgressEvent"]> {
  let e = ((await cloud.handle(op, input)) as Event).ProgressEvent;
  for (let i = 0; i < 10 && e.OperationStatus === "IN_PROGRESS"; i++) e = ((await cloud.handle("GetResourceRequestStatus", { RequestToken: e.RequestToken })) as Event).ProgressEvent;
  return e;
}

/** Creates an object (it must succeed) and returns its identifier. */
export async function create(cloud: FakeCloudControl, typeName: string, desired: Record<string, unknown>): Promise<string> {
  const e = await run(cloud, "CreateResource", { TypeName: typeName, DesiredState: JSON.stringify(desired) });
  if (e.OperationStatus !== "SUCCESS") throw new Error(`create failed: ${e.ErrorCode}: ${e.StatusMessage}`);
  return e.Identifier!;
}

/** The object's properties as GetResource returns them. */
export async function read(cloud: FakeCloudControl, typeName: string, identifier: string): Promise<Record<string, unknown>> {
  const r = (await cloud.handle("GetResource", { TypeName: typeName, Identifier: identifier })) as { ResourceDescription: { Properties: string } };
  return JSON.parse(r.ResourceDescription.Properties) as Record<string, unknown>;
}

/** Sends a patch and returns the final progress event. */
export function update(cloud: FakeCloudControl, typeName: string, identifier: string, patch: unknown[]) {
  return run(cloud, "UpdateResource", { TypeName: typeName, Identifier: identifier, PatchDocument: JSON.stringify(patch) });
}

/** A valid model of {@link FN}. */
export const fnModel = (extra: Record<string, unknown> = {}) => ({ FunctionName: "f1", Role: "arn:aws:iam::123456789012:role/r", Code: { ZipFile: "exports.h = 1" }, ...extra });
