/**
 * Values real services return for properties nobody set, beyond the registry schemas' own `default`s: a few
 * common types, each with its source. The fake fills them in on every read, as AWS does.
 */

/** One value a service reports when the property was not given: its path (`*` for array elements) and value. */
export interface ServerDefault {
  path: string;
  value: unknown;
  /** Not filled when one of these properties is set (a queue with a KMS key has no SSE-SQS). */
  unless?: readonly string[];
}

/**
 * Server defaults by type.
 *
 * Sources:
 * - S3: since 5 January 2023 every new bucket has SSE-S3 default encryption ("Default encryption FAQ", Amazon
 *   S3 User Guide); since April 2023 new buckets have S3 Block Public Access on and ACLs disabled with
 *   `BucketOwnerEnforced` ("Heads-Up: Amazon S3 Security Changes Are Coming in April of 2023", AWS News Blog).
 * - Lambda: `CreateFunction` API reference: MemorySize 128, Timeout 3, PackageType Zip, Architectures
 *   `x86_64`, EphemeralStorage 512 MB, TracingConfig `PassThrough` are the defaults `GetFunction` reports.
 * - SQS: `CreateQueue` API reference attribute defaults (VisibilityTimeout 30 s, MessageRetentionPeriod 4
 *   days, DelaySeconds 0, ReceiveMessageWaitTimeSeconds 0); SSE-SQS is on by default for new queues since
 *   October 2022 ("Amazon SQS announces server-side encryption with Amazon SQS-managed encryption keys by
 *   default", AWS What's New).
 * - IAM Role: `CreateRole` API reference, MaxSessionDuration defaults to 3600 s.
 *
 * @example SERVER_DEFAULTS["AWS::Lambda::Function"]?.find((d) => d.path === "MemorySize")?.value // 128
 */
export const SERVER_DEFAULTS: Readonly<Record<string, readonly ServerDefault[]>> = {
  "AWS::S3::Bucket": [
    { path: "BucketEncryption", value: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: "AES256" }, BucketKeyEnabled: false }] } },
    { path: "PublicAccessBlockConfiguration", value: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true } },
    { path: "OwnershipControls", value: { Rules: [{ ObjectOwnership: "BucketOwnerEnforced" }] } },
  ],
  "AWS::Lambda::Function": [
    { path: "MemorySize", value: 128 },
    { path: "Timeout", value: 3 },
    { path: "PackageType", value: "Zip" },
    { path: "Architectures", value: ["x86_64"] },
    { path: "EphemeralStorage", value: { Size: 512 } },
    { path: "TracingConfig", value: { Mode: "PassThrough" } },
  ],
  "AWS::SQS::Queue": [
    { path: "VisibilityTimeout", value: 30 },
    { path: "MessageRetentionPeriod", value: 345600 },
    { path: "DelaySeconds", value: 0 },
    { path: "ReceiveMessageWaitTimeSeconds", value: 0 },
    { path: "SqsManagedSseEnabled", value: true, unless: ["KmsMasterKeyId"] },
  ],
  "AWS::IAM::Role": [{ path: "MaxSessionDuration", value: 3600 }],
};
