/**
 * How CloudFormation names become Cairn's: one rule, shared by the generator (which prints the names) and
 * the provider (which maps values to and from Cloud Control), so the two can never disagree.
 */

// Acronyms whose lower-case letter belongs to them: `IPv6Address` is `ipv6Address`, not `iPv6Address`.
const ACRONYMS = [/^IPv[46]/, /^IPs/];

/**
 * The camelCase name of a CloudFormation property or attribute: the leading capitals are lowered, except
 * the last when it starts the next word. Names are part of state (outputs are stored by them), so this rule
 * never changes.
 *
 * @example
 * camelName("BucketName")       // "bucketName"
 * camelName("DBInstanceStatus") // "dbInstanceStatus"
 * camelName("VPCId")            // "vpcId"
 * camelName("ARN")              // "arn"
 * camelName("IPv6Address")      // "ipv6Address"
 */
export function camelName(cfn: string): string {
  for (const re of ACRONYMS) {
    const m = re.exec(cfn);
    if (m) return m[0].toLowerCase() + cfn.slice(m[0].length);
  }
  const run = /^[A-Z0-9]+/.exec(cfn)?.[0] ?? "";
  if (run.length === 0) return cfn;
  if (run.length === cfn.length) return cfn.toLowerCase();
  // "DBI|nstance": the last capital starts the next word (unless it is a digit: "S3|Bucket").
  const next = cfn[run.length]!;
  if (run.length > 1 && /[a-z]/.test(next) && /[A-Z]/.test(run.at(-1)!)) return run.slice(0, -1).toLowerCase() + cfn.slice(run.length - 1);
  return run.toLowerCase() + cfn.slice(run.length);
}

/**
 * Names a resource instance already uses for itself: an attribute with one of these names gets an `aws`
 * prefix (`Id` → `awsId`), unless it is the resource's own identifier (then `.id` is that value).
 */
export const RESERVED_NAMES: ReadonlySet<string> = new Set(["id", "urn", "constructor"]);

/**
 * The Cairn type token of a CloudFormation type: `AWS::S3::Bucket` → `aws:s3:Bucket`. The first segment is
 * the provider package (`aws`, so `aws.Provider` instances apply); the second the service's module name.
 *
 * @example typeToken("AWS::RDS::DBInstance", "rds") // "aws:rds:DBInstance"
 */
export function typeToken(cfnType: string, module: string): string {
  return `aws:${module}:${cfnType.split("::").at(-1)}`;
}
