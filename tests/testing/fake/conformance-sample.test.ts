import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { serveFakeCloudControl, type ServedFakeCloudControl } from "../../../src/testing/cloudcontrol/fake-server.js";
import { schemaSource } from "../../../scripts/conformance-aws/schemas.js";
import { sweepType } from "../../../scripts/conformance-aws/sweep.js";

/**
 * The conformance sweep (`npm run conformance:aws`) on a fixed sample of common types, so CI runs it. Each
 * type's failure names its stage and the reason (the message Cairn or the fake gave).
 */
const SAMPLE = [
  "AWS::Lambda::Function",
  "AWS::S3::Bucket",
  "AWS::RDS::DBInstance",
  "AWS::EKS::Cluster",
  "AWS::ECS::Service",
  "AWS::ECS::TaskDefinition",
  "AWS::IAM::Role",
  "AWS::SQS::Queue",
  "AWS::DynamoDB::Table",
  "AWS::CloudFront::Distribution",
  "AWS::EC2::VPC",
  "AWS::SNS::Topic",
  "AWS::Logs::LogGroup",
  "AWS::KMS::Key",
  "AWS::StepFunctions::StateMachine",
];

const schemaOf = schemaSource(process.env.CAIRN_REGISTRY_SCHEMAS);
let fake: ServedFakeCloudControl;
const saved = { ...process.env };
beforeAll(async () => {
  fake = await serveFakeCloudControl({ pollsToFinish: 0, schemaOf });
  Object.assign(process.env, fake.env); // the stacks' default AWS provider reaches the fake
});
afterAll(async () => {
  for (const k of Object.keys(fake.env)) if (saved[k] === undefined) delete process.env[k];
  Object.assign(process.env, saved);
  await fake.stop();
});

afterEach(() => fake.cloud.clear());

describe("the conformance sweep on a sample of types", () => {
  it.each(SAMPLE)("%s is created, refreshed without changes, changed without losing write-only values, imported without changes and destroyed", async (type) => {
    const result = await sweepType({ cloud: fake.cloud, schemaOf }, type);
    expect(result.failed, `${type} failed at ${result.failed?.stage}: ${result.failed?.reason}`).toBeUndefined();
    expect(result.passed).toEqual(["model", "create", "refresh", "preview", "change", "import", "destroy"]);
  });
});
