/**
 * Hand-made types carrying the CloudFormation registry's facts (`reg`), shaped after real ones (Lambda, EKS,
 * RDS, CloudFront, a security group), for the provider's tests of patches, replacement and reads.
 */
import { decodeTypeSpec, FLAG, type TypeSpecData } from "../../../../src/providers/aws/cloudcontrol/type-spec.js";

const { required: R, replaces: X, readOnly: RO, writeOnly: WO } = FLAG;

/** Lambda-like: `Code` write-only (and its `ZipFile`), name and package type create-only, tags unordered. */
export const FN = decodeTypeSpec("Test::Lambda::Function", "test:lambda:Function", {
  id: ["FunctionName"],
  p: [
    ["FunctionName", "string", X],
    ["Code", ["ref", "Code"], R],
    ["MemorySize", "integer"],
    ["PackageType", "string", X],
    ["Role", "string", R],
    ["Tags", ["array", ["ref", "Tag"]]],
    ["Arn", "string", RO],
  ],
  d: { Code: [["ZipFile", "string"], ["S3Bucket", "string"], ["S3Key", "string"]] },
  tags: ["Tags", "standard"],
  reg: { h: "crudl", wo: ["Code", "Code/ZipFile"], co: ["FunctionName", "PackageType"], ro: ["Arn"], uo: ["Tags"] },
} satisfies TypeSpecData);

/**
 * Lambda as the registry really lists it: only `Code`'s fields are write-only, never `Code` itself, so a read
 * returns no `Code` at all (every field of it is write-only).
 */
export const FN_REG = decodeTypeSpec("Test::Lambda::RegFunction", "test:lambda:RegFunction", {
  id: ["FunctionName"],
  p: [
    ["FunctionName", "string", X],
    ["Code", ["ref", "Code"], R],
    ["MemorySize", "integer"],
    ["PackageType", "string", X],
    ["Role", "string", R],
    ["Arn", "string", RO],
  ],
  d: { Code: [["ZipFile", "string"], ["S3Bucket", "string"], ["S3Key", "string"], ["ImageUri", "string"]] },
  reg: { h: "crudl", wo: ["Code/ImageUri", "Code/S3Bucket", "Code/S3Key", "Code/ZipFile"], co: ["FunctionName", "PackageType"], ro: ["Arn"] },
} satisfies TypeSpecData);

/**
 * Write-only fields two levels down: `Config/Name` reads back, `Config/Secret` holds only write-only fields
 * (so a read has `Config` without `Secret`), and `Vault` holds only write-only fields, one also create-only;
 * `Source` is write-only whole, with a create-only field (Pipes' `SourceParameters`).
 */
export const DEEP = decodeTypeSpec("Test::Deep::Thing", "test:deep:Thing", {
  id: ["Id"],
  p: [
    ["Config", ["ref", "Config"]],
    ["Vault", ["ref", "Secret"]],
    ["Source", ["ref", "Source"]],
    ["Size", "integer"],
    ["Id", "string", RO],
  ],
  d: { Config: [["Name", "string"], ["Secret", ["ref", "Secret"]]], Secret: [["Token", "string"], ["Seed", "string"]], Source: [["BatchSize", "integer"], ["StartingPosition", "string"]] },
  reg: { h: "crudl", wo: ["Config/Secret/Token", "Config/Secret/Seed", "Vault/Token", "Vault/Seed", "Source"], co: ["Vault/Seed", "Source/StartingPosition"], ro: ["Id"] },
} satisfies TypeSpecData);

/** A type whose write-only values are nested: one in an object that reads back, one in each array element. */
export const BROKER = decodeTypeSpec("Test::MQ::Broker", "test:mq:Broker", {
  id: ["BrokerId"],
  p: [
    ["BrokerName", "string", X],
    ["Auth", ["ref", "Auth"]],
    ["Users", ["array", ["ref", "User"]]],
    ["InstanceType", "string"],
    ["AdminPassword", "string", X | WO],
    ["BrokerId", "string", RO],
  ],
  d: { Auth: [["Mode", "string"], ["Token", "string"]], User: [["Username", "string"], ["Password", "string"]] },
  reg: { h: "crudl", wo: ["Auth/Token", "Users/*/Password", "AdminPassword"], co: ["BrokerName", "AdminPassword"], ro: ["BrokerId"] },
} satisfies TypeSpecData);

/** EKS-like: create-only paths nested in `KubernetesNetworkConfig`, whose flag (from the specification) says it replaces. */
export const CLUSTER = decodeTypeSpec("Test::EKS::Cluster", "test:eks:Cluster", {
  id: ["Name"],
  p: [
    ["Name", "string", X],
    ["KubernetesNetworkConfig", ["ref", "KubernetesNetworkConfig"], X],
    ["Version", "string"],
    ["Arn", "string", RO],
  ],
  d: {
    KubernetesNetworkConfig: [["ServiceIpv4Cidr", "string"], ["IpFamily", "string"], ["ElasticLoadBalancing", ["ref", "ElasticLoadBalancing"]]],
    ElasticLoadBalancing: [["Enabled", "boolean"]],
  },
  reg: { h: "crudl", co: ["Name", "KubernetesNetworkConfig/ServiceIpv4Cidr", "KubernetesNetworkConfig/IpFamily"], ro: ["Arn"] },
} satisfies TypeSpecData);

/** RDS-like: identifiers and engine lowercased by the service, a KMS key id read back as its ARN. */
export const DB_DATA = {
  id: ["DBInstanceIdentifier"],
  p: [
    ["DBInstanceIdentifier", "string", X],
    ["Engine", "string", X],
    ["KmsKeyId", "string", X],
    ["Port", "string", X],
    ["MasterUserPassword", "string", WO],
    ["DBInstanceArn", "string", RO],
    ["DBInstanceStatus", "string", RO],
  ],
  reg: {
    h: "crudl",
    co: ["DBInstanceIdentifier", "KmsKeyId"],
    wo: ["MasterUserPassword"],
    ro: ["DBInstanceArn", "DBInstanceStatus"],
    pt: {
      DBInstanceIdentifier: "$lowercase(DBInstanceIdentifier)",
      Engine: "$lowercase(Engine)",
      KmsKeyId: '$join(["arn:.+?:kms:.+?:.+?:key\\/", KmsKeyId])',
    },
  },
} satisfies TypeSpecData;
export const DB = decodeTypeSpec("Test::RDS::DBInstance", "test:rds:DBInstance", DB_DATA);

/** CloudFront-like: a list of objects the service fills with defaults; a security group with unordered lists and a policy. */
export const DIST = decodeTypeSpec("Test::CloudFront::Distribution", "test:cloudfront:Distribution", {
  id: ["Id"],
  p: [
    ["DistributionConfig", ["ref", "DistributionConfig"], R],
    ["SecurityGroupIds", ["array", "string"]],
    ["PolicyDocument", "json"],
    ["Tags", ["array", ["ref", "Tag"]]],
    ["Id", "string", RO],
    ["Status", "string", RO],
  ],
  d: {
    DistributionConfig: [["Enabled", "boolean"], ["CacheBehaviors", ["array", ["ref", "CacheBehavior"]]]],
    CacheBehavior: [["PathPattern", "string"], ["TargetOriginId", "string"], ["Compress", "boolean"], ["SmoothStreaming", "boolean"]],
  },
  tags: ["Tags", "standard"],
  reg: { h: "crud", ro: ["Id", "Status"], uo: ["SecurityGroupIds", "Tags"] },
} satisfies TypeSpecData);
