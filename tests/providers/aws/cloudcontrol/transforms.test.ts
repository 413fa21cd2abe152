import { describe, expect, it } from "vitest";
import { transformMatches } from "../../../../src/providers/aws/cloudcontrol/transforms.js";

// Expressions as the CloudFormation registry writes them (schemas of AWS::Route53::HostedZone,
// AWS::RDS::DBInstance, AWS::Lambda::Permission, AWS::Cognito::UserPool).
describe("propertyTransform: is the read value what the service makes of the declared one?", () => {
  it("tries each $OR alternative", async () => {
    const expr = 'Name $OR $join([Name, "."]) $OR $lowercase(Name) $OR $lowercase($join([Name, "."]))';
    const holder = { Name: "Example.COM" };
    expect(await transformMatches(expr, holder, holder, "example.com.")).toBe(true);
    expect(await transformMatches(expr, holder, holder, "other.com.")).toBe(false);
  });

  it("matches a result that is a regular expression as a whole", async () => {
    const expr = '$join(["arn:.+?:kms:.+?:.+?:key\\/", KmsKeyId])';
    const holder = { KmsKeyId: "k-1" };
    expect(await transformMatches(expr, holder, holder, "arn:aws:kms:eu-west-1:123456789012:key/k-1")).toBe(true);
    expect(await transformMatches(expr, holder, holder, "arn:aws:kms:eu-west-1:123456789012:key/k-1-other")).toBe(false);
  });

  it("evaluates a nested value's expression on the object holding it, or on the whole model when it names the path from the top", async () => {
    const secret = { KmsKeyId: "k-2" };
    const model = { MasterUserSecret: secret };
    const expr = '$join(["arn:.+?:kms:.+?:.+?:key\\/", MasterUserSecret.KmsKeyId])';
    expect(await transformMatches(expr, secret, model, "arn:aws:kms:us-east-1:1:key/k-2")).toBe(true);
    expect(await transformMatches("'custom:' & '' & Name", { Name: "tier" }, {}, "custom:tier")).toBe(true);
  });

  it("an expression that does not parse explains nothing", async () => {
    expect(await transformMatches("$lowercase(", { Name: "A" }, {}, "a")).toBe(false);
  });
});
