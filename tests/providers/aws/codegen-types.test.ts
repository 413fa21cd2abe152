import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import type { FunctionArgs } from "../../../src/providers/aws/services/lambda.js";
import type { RoleArgs } from "../../../src/providers/aws/services/iam.js";
import type { DomainOutputs } from "../../../src/providers/aws/services/opensearchservice.js";
import type { TableArgs } from "../../../src/providers/aws/services/dynamodb.js";
import type { PolicyDocument } from "../../../src/providers/aws/services/iam.js";
import type { DBInstanceOutputs } from "../../../src/providers/aws/services/rds.js";

const service = (name: string) => readFileSync(new URL(`../../../src/providers/aws/services/${name}.ts`, import.meta.url), "utf8");

// The compile-time checks below are verified by `tsc --noEmit` (npm test's typecheck): each
// `@ts-expect-error` fails the build if the line it marks ever compiles.
describe("the generated types a user sees", () => {
  it("a registry enum is a literal union: a value Cloud Control refuses does not compile", () => {
    const ok: FunctionArgs["packageType"] = "Zip";
    // @ts-expect-error "Tarball" is not a package type the registry allows
    const bad: FunctionArgs["packageType"] = "Tarball";
    expect([ok, bad]).toEqual(["Zip", "Tarball"]);
  });

  it("IAM policy documents are typed: Effect must be Allow or Deny", () => {
    const trust: RoleArgs["assumeRolePolicyDocument"] = { Version: "2012-10-17", Statement: [{ Effect: "Allow", Principal: { Service: "lambda.amazonaws.com" }, Action: "sts:AssumeRole" }] };
    // @ts-expect-error "Permit" is not an IAM effect
    const wrong: PolicyDocument = { Statement: [{ Effect: "Permit", Action: "s3:*" }] };
    expect(service("iam")).toMatch(/assumeRolePolicyDocument: PolicyDocument \| string;/);
    expect([trust, wrong]).toHaveLength(2);
  });

  it("a property typed JSON-or-structure gets the structure only", () => {
    const keys: TableArgs["keySchema"] = [{ attributeName: "pk", keyType: "HASH" }];
    // @ts-expect-error an arbitrary object is not a key schema
    const loose: TableArgs["keySchema"] = { anything: 1 };
    expect([keys, loose]).toHaveLength(2);
  });

  it("a property or attribute field the registry lists as read-only is present in the outputs, not optional", () => {
    const name: DomainOutputs["domainArn"] = "arn:aws:es:us-east-1:123456789012:domain/d";
    // @ts-expect-error the cloud always returns it
    const missing: DomainOutputs["domainArn"] = undefined;
    const host: DBInstanceOutputs["endpoint"]["address"] = "db.example";
    // @ts-expect-error Endpoint/Address is read-only in the registry: the cloud always returns it
    const noHost: DBInstanceOutputs["endpoint"]["address"] = undefined;
    expect([name, missing, host, noHost]).toHaveLength(4);
  });

  it("bounds and patterns are in the TSDoc, deprecated properties and types Cloud Control cannot create are @deprecated", () => {
    expect(service("lambda")).toContain("Length: at most 128. Pattern: `^[^\\s]+$`.\n   */\n  handler?: string;");
    expect(service("synthetics")).toMatch(/@deprecated The CloudFormation registry marks `DeleteLambdaResourcesOnCanaryDeletion` of AWS::Synthetics::Canary deprecated\.\n\s+\*\/\n\s+deleteLambdaResourcesOnCanaryDeletion\?: boolean;/);
    expect(service("iot")).toMatch(/@deprecated The CloudFormation registry marks `TopicRulePayload\/ErrorAction\/IotEvents` of AWS::IoT::TopicRule deprecated\.\n\s+\*\/\n\s+iotEvents\?: TopicRuleIotEventsAction;/);
    expect(service("iam")).toMatch(/@deprecated Cloud Control cannot create AWS::IAM::Policy: use an inline policy on Role \(`policies`\), or RolePolicy, UserPolicy, GroupPolicy or ManagedPolicy \(cairn-iac\/aws\/iam\)\. Preview refuses it\.\n(.*\n){1,4}export const Policy =/);
  });
});
