import { describe, expect, it } from "vitest";
import { Ajv } from "ajv";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { generatedDataFile, registrySchema } from "../../../src/providers/aws/cloudcontrol/registry-schema.js";
import { handlerPermissions } from "../../../src/providers/aws/cloudcontrol/permissions.js";

const ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false, strictRequired: false, strictTuples: false, allowUnionTypes: true, logger: false });

describe("the registry's data at run time", () => {
  it("registrySchema gives a type's JSON Schema, which ajv compiles in strict mode and which refuses what the registry refuses", () => {
    const schema = registrySchema("AWS::SQS::Queue");
    expect(schema).toMatchObject({ type: "object", properties: { QueueName: { type: "string" } } });
    const validate = ajv.compile(schema!);
    expect(validate({ QueueName: "jobs", MessageRetentionPeriod: 60 })).toBe(true);
    expect(validate({ QueueName: "jobs", DelaySeconds: "soon" })).toBe(false);
    expect(validate.errors?.map((e) => e.instancePath)).toContain("/DelaySeconds");
  });

  it("the shipped schemas keep the registry's defaults and hold no empty pattern", () => {
    expect(registrySchema("AWS::SSM::Document")).toMatchObject({ properties: { DocumentFormat: { default: "JSON" }, UpdateMethod: { default: "Replace" } } });
    const dir = dirname(generatedDataFile("registry/AWS_SQS.json"));
    const files = readdirSync(dir).filter((f) => f.endsWith(".json"));
    expect(files.length).toBeGreaterThan(200);
    for (const f of files) expect(readFileSync(join(dir, f), "utf8"), f).not.toMatch(/"pattern":\s*""/);
  });

  it("registrySchema keeps definitions, enums and patterns and drops descriptions", () => {
    const schema = registrySchema("AWS::Lambda::Function") as { properties: Record<string, object>; definitions: Record<string, object> };
    expect(schema.definitions).toHaveProperty("Code");
    expect(JSON.stringify(schema)).not.toContain('"description"');
    const validate = ajv.compile(schema);
    expect(validate({ Role: "arn:aws:iam::123456789012:role/r", Code: { ZipFile: "x" }, Runtime: "nodejs22.x", PackageType: "Zip" })).toBe(true);
    expect(validate({ Role: "arn:aws:iam::123456789012:role/r", Code: { ZipFile: "x" }, PackageType: "Tarball" })).toBe(false);
    expect(validate.errors?.some((e) => e.instancePath === "/PackageType" && e.keyword === "enum")).toBe(true);
  });

  it("registrySchema is undefined for a type the registry does not have", () => {
    expect(registrySchema("AWS::IAM::Policy")).toBeUndefined();
    expect(registrySchema("AWS::NoSuch::Thing")).toBeUndefined();
    expect(registrySchema("not a type")).toBeUndefined();
  });

  it("handlerPermissions lists each handler's IAM actions, and nothing for an unknown type", () => {
    const sqs = handlerPermissions("AWS::SQS::Queue");
    expect(sqs?.create).toContain("sqs:CreateQueue");
    expect(sqs?.delete).toContain("sqs:DeleteQueue");
    expect(Object.keys(sqs!).sort()).toEqual(["create", "delete", "list", "read", "update"]);
    expect(handlerPermissions("AWS::IAM::Policy")).toBeUndefined();
  });
});
