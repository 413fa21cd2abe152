import { describe, expect, it } from "vitest";
import { fitName, type AutoNameRule } from "../../../../src/provider/auto-name.js";
import { autoNameRule } from "../../../../src/providers/aws/cloudcontrol/autoname.js";
import { knownType } from "../../../../src/providers/aws/cloudcontrol/types.js";
import { decodeTypeSpec, type TypeInfo } from "../../../../src/providers/aws/cloudcontrol/type-spec.js";
import { schemaOf } from "../../../../src/providers/aws/cloudcontrol/define.js";
import "../../../../src/providers/aws/services/s3.js";
import "../../../../src/providers/aws/services/sqs.js";
import "../../../../src/providers/aws/services/iam.js";
import "../../../../src/providers/aws/services/lambda.js";
import patterns from "./name-patterns.json" with { type: "json" };

const SUFFIX = "1a2b3c4";
const type = (cfn: string): TypeInfo => knownType(cfn)!;

/** The RDS DB instance's naming facts as the registry schema states them (AWS_RDS_DBInstance.json). */
const DB_INSTANCE = decodeTypeSpec("AWS::RDS::DBInstance", "aws:rds:DBInstance", {
  p: [["DBInstanceIdentifier", "string", 2], ["Engine", "string"]],
  reg: { h: "crudl", nm: { path: "DBInstanceIdentifier", min: 1, max: 63, pattern: "^$|^[a-zA-Z]{1}(?:-?[a-zA-Z0-9]){0,62}$" }, pt: { DBInstanceIdentifier: "$lowercase(DBInstanceIdentifier)" } },
});

/** The name a type gives a new object declared as `logical`. */
function nameOf(info: TypeInfo, logical: string, inputs: Record<string, unknown> = {}): string | undefined {
  return fitName(logical, SUFFIX, autoNameRule(info)!, inputs);
}

/** True when `name` matches the whole of the rule's pattern and lies within its bounds. */
function fits(rule: AutoNameRule, name: string): boolean {
  const re = new RegExp(`^(?:${rule.pattern})$`, /\\p\{/.test(rule.pattern ?? "") ? "u" : "");
  return re.test(name) && name.length <= (rule.maxLength ?? Infinity) && name.length >= (rule.minLength ?? 1);
}

describe("the name rule on real types", () => {
  it("names an S3 bucket in lower case with only letters, digits and hyphens, the suffix kept", () => {
    expect(nameOf(type("AWS::S3::Bucket"), "My_Assets.Bucket")).toBe(`my-assets-bucket-${SUFFIX}`);
    const long = nameOf(type("AWS::S3::Bucket"), "Site".repeat(30))!;
    expect(long).toHaveLength(63);
    expect(long.endsWith(`-${SUFFIX}`)).toBe(true);
    expect(fits(autoNameRule(type("AWS::S3::Bucket"))!, long)).toBe(true);
  });

  it("names an SQS queue within 80 characters, ending in .fifo when the queue is FIFO", () => {
    const queue = type("AWS::SQS::Queue");
    expect(autoNameRule(queue)).toMatchObject({ input: "queueName", maxLength: 80, endsWith: { text: ".fifo", when: "fifoQueue" } });
    expect(nameOf(queue, "jobs_in")).toBe(`jobs_in-${SUFFIX}`);
    expect(nameOf(queue, "jobs", { fifoQueue: true })).toBe(`jobs-${SUFFIX}.fifo`);
    const long = nameOf(queue, "q".repeat(100), { fifoQueue: true })!;
    expect(long).toBe(`${"q".repeat(67)}-${SUFFIX}.fifo`);
    expect(long).toHaveLength(80);
  });

  it("names an IAM role and a Lambda function within 64 characters of the characters they allow", () => {
    expect(nameOf(type("AWS::IAM::Role"), "api role")).toBe(`api-role-${SUFFIX}`);
    expect(nameOf(type("AWS::IAM::Role"), "R".repeat(70))).toBe(`${"R".repeat(56)}-${SUFFIX}`);
    expect(nameOf(type("AWS::Lambda::Function"), "api.Handler")).toBe(`api-Handler-${SUFFIX}`);
    expect(nameOf(type("AWS::Lambda::Function"), "f".repeat(64))).toHaveLength(64);
  });

  it("names an RDS DB instance from the registry's pattern: lower case (RDS lower-cases it), a letter first, no double or trailing hyphen", () => {
    expect(nameOf(DB_INSTANCE, "Main_DB")).toBe(`main-db-${SUFFIX}`);
    expect(nameOf(DB_INSTANCE, "1st--db")).toBe(`st-db-${SUFFIX}`);
    const cut = nameOf(DB_INSTANCE, `${"x".repeat(54)}-yy`)!;
    expect(cut).toBe(`${"x".repeat(54)}-${SUFFIX}`);
    expect(fits(autoNameRule(DB_INSTANCE)!, cut)).toBe(true);
  });

  it("fits every name pattern of the registry's optional name properties", () => {
    const misfits: string[] = [];
    for (const row of patterns.rows) {
      const rule: AutoNameRule = { input: "name", pattern: row.pattern, ...(typeof row.min === "number" ? { minLength: row.min } : {}), ...(typeof row.max === "number" ? { maxLength: row.max } : {}) };
      for (const logical of ["orders-api", "My_Queue.v2", "1st"]) {
        const name = fitName(logical, SUFFIX, rule, {});
        if (name === undefined || !fits(rule, name)) misfits.push(`${row.type}.${row.property} ${logical} → ${name}`);
      }
    }
    expect(patterns.rows.length).toBeGreaterThan(100);
    expect(misfits).toEqual([]);
  });

  it("makes no name when none can match the pattern: the cloud names the object", () => {
    expect(fitName("jobs", SUFFIX, { input: "name", pattern: "^arn:aws:.*$" }, {})).toBeUndefined();
    expect(fitName("jobs", SUFFIX, { input: "name", maxLength: 5 }, {})).toBeUndefined();
  });
});

describe("which Cloud Control types are named", () => {
  it("a type whose name property is optional: its schema carries the rule the planner follows", () => {
    expect(schemaOf(type("AWS::SQS::Queue")).autoName?.input).toBe("queueName");
    expect(schemaOf(DB_INSTANCE).autoName).toMatchObject({ input: "dbInstanceIdentifier", maxLength: 63, lowerCase: true });
  });

  it("none whose name the program must give, cannot give, or lies nested", () => {
    const named = (flags: number, path = "Name") => autoNameRule(decodeTypeSpec("AWS::X::Y", "aws:x:Y", { p: [["Name", "string", flags]], reg: { h: "crudl", nm: { path } } }));
    expect(named(0)).toEqual({ input: "name" });
    expect(named(1)).toBeUndefined(); // required
    expect(named(8)).toBeUndefined(); // read-only
    expect(named(0, "Config/Name")).toBeUndefined();
    expect(autoNameRule(decodeTypeSpec("AWS::X::Y", "aws:x:Y", { p: [["Name", "string"]] }))).toBeUndefined();
  });
});
