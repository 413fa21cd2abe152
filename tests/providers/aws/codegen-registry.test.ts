import { describe, expect, it } from "vitest";
import { knownType } from "../../../src/providers/aws/cloudcontrol/types.js";
import { FLAG, type TypeInfo } from "../../../src/providers/aws/cloudcontrol/type-spec.js";
import "../../../src/providers/aws/services/lambda.js";
import "../../../src/providers/aws/services/rds.js";
import "../../../src/providers/aws/services/ecs.js";
import "../../../src/providers/aws/services/eks.js";
import "../../../src/providers/aws/services/iam.js";
import "../../../src/providers/aws/services/sqs.js";
import "../../../src/providers/aws/services/secretsmanager.js";

const type = (t: string): TypeInfo => knownType(t)!;
const flags = (t: string, js: string) => type(t).byJs.get(js)!.flags;
const joined = (paths: readonly (readonly string[])[]) => paths.map((p) => p.join("/"));

describe("generated types carry the registry's facts", () => {
  it("a provisionable type has its handlers, nested write-only and create-only paths, transforms and unordered arrays", () => {
    const fn = type("AWS::Lambda::Function").registry;
    expect(fn.provisionable).toBe(true);
    expect(fn.handlers).toEqual({ create: true, read: true, update: true, delete: true, list: true });
    expect(joined(fn.writeOnly)).toContain("Code/ZipFile");
    expect(joined(fn.createOnly)).toEqual(expect.arrayContaining(["FunctionName", "PackageType"]));
    expect(joined(type("AWS::EKS::Cluster").registry.createOnly)).toContain("KubernetesNetworkConfig/IpFamily");
    expect(type("AWS::RDS::DBInstance").registry.transforms.get("Engine")).toBe("$lowercase(Engine)");
    expect(joined(type("AWS::ECS::Service").registry.unordered).length).toBeGreaterThan(0);
  });

  it("replacement follows the registry's create-only set, not the specification's causesReplacement", () => {
    expect(flags("AWS::RDS::DBInstance", "port") & FLAG.replaces).toBe(0);
    expect(flags("AWS::ECS::Service", "launchType") & FLAG.replaces).toBe(0);
    // Create-only is judged at the nested path, not at its parent.
    expect(flags("AWS::EKS::Cluster", "kubernetesNetworkConfig") & FLAG.replaces).toBe(0);
    expect(type("AWS::EKS::Cluster").replacePaths).toContainEqual(["KubernetesNetworkConfig", "IpFamily"]);
    expect(flags("AWS::Lambda::Function", "functionName") & FLAG.replaces).toBe(FLAG.replaces);
    expect(flags("AWS::RDS::DBInstance", "dbInstanceIdentifier") & FLAG.replaces).toBe(FLAG.replaces);
  });

  it("top-level write-only properties of the registry are write-only; curated secrets stay secret", () => {
    expect(flags("AWS::RDS::DBInstance", "masterUserPassword") & (FLAG.writeOnly | FLAG.secret)).toBe(FLAG.writeOnly | FLAG.secret);
    expect(flags("AWS::Lambda::Function", "code") & FLAG.writeOnly).toBe(FLAG.writeOnly);
    expect(flags("AWS::SecretsManager::Secret", "secretString") & FLAG.secret).toBe(FLAG.secret);
    const reg = type("AWS::RDS::DBInstance").registry;
    for (const p of type("AWS::RDS::DBInstance").props) {
      if (reg.writeOnly.some((w) => w.length === 1 && w[0] === p.cfn)) expect(p.flags & FLAG.writeOnly, p.cfn).toBe(FLAG.writeOnly);
    }
  });

  it("a type the registry has no schema for is not provisionable; a type with one names its naming property", () => {
    expect(type("AWS::IAM::Policy").registry.provisionable).toBe(false);
    expect(type("AWS::IAM::Policy").registry.handlers.read).toBe(false);
    expect(type("AWS::SQS::Queue").registry.naming).toEqual({ path: "QueueName" });
    expect(type("AWS::IAM::Role").registry.naming).toMatchObject({ path: "RoleName", min: 1, max: 64 });
    expect(type("AWS::RDS::DBInstance").registry.naming).toMatchObject({ path: "DBInstanceIdentifier", max: 63 });
    // FunctionName is required by nothing but is the identifier: named; a required name is never auto-named.
    expect(type("AWS::Lambda::Function").registry.naming?.path).toBe("FunctionName");
    expect(type("AWS::IAM::Role").registry.tagging).toMatchObject({ taggable: true });
  });
});
