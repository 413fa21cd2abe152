import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { program, type ProgramFn } from "../../../src/entry/program.js";
import { Provider } from "../../../src/providers/aws/provider.js";
import { serveFakeCloudControl, type ServedFakeCloudControl } from "../../../src/testing/cloudcontrol/fake-server.js";
import { Queue } from "../../../src/providers/aws/services/sqs.js";
import { Policy, Role } from "../../../src/providers/aws/services/iam.js";
import { Function as LambdaFunction } from "../../../src/providers/aws/services/lambda.js";
import { checkInputs } from "../../../src/providers/aws/cloudcontrol/check.js";
import { knownType } from "../../../src/providers/aws/cloudcontrol/types.js";
import { UNKNOWN } from "../../../src/core/unknown.js";
import "../../../src/providers/aws/services/logs.js";

let dir: string;
let fake: ServedFakeCloudControl;
let aws: Provider;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cairn-reg-"));
  fake = await serveFakeCloudControl();
  aws = new Provider(`fake-${Math.random().toString(36).slice(2)}`, { region: "us-east-1", endpoint: fake.endpoint, credentials: { accessKeyId: "x", secretAccessKey: "x" } });
});
afterEach(async () => {
  await fake.stop();
  await rm(dir, { recursive: true, force: true });
});

const stackOf = (fn: ProgramFn) => program("reg", fn).stack({ stateDir: dir, passphrase: "p", defaultProviders: { aws } });
const created = () => fake.cloud.calls.filter((c) => c.operation === "CreateResource");
const ROLE = "arn:aws:iam::123456789012:role/fn";
const lambda = () => knownType("AWS::Lambda::Function")!;

describe("preview refuses what Cloud Control would refuse", () => {
  it("a type Cloud Control cannot create fails at preview, naming the resource, its line and the alternative, before any create", async () => {
    const stack = stackOf(() => {
      const role = new Role("app", { assumeRolePolicyDocument: { Version: "2012-10-17", Statement: [] } });
      new Queue("jobs", {});
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- the point of the test
      new Policy("extra", { policyName: "extra", policyDocument: { Version: "2012-10-17", Statement: [] }, roles: [role.roleName] });
    });
    const plan = await stack.preview();
    const errors = plan.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.summary} (declared at ${String(d.site)})`);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^"extra" \(aws:iam:Policy\): AWS::IAM::Policy cannot be created through Cloud Control: use an inline policy on Role \(`policies`\), or RolePolicy, UserPolicy, GroupPolicy or ManagedPolicy .*\(declared at tests\/providers\/aws\/registry-check\.test\.ts:\d+:\d+\)$/);
    await expect(stack.up()).rejects.toThrow(/AWS::IAM::Policy cannot be created through Cloud Control/);
    expect(created()).toEqual([]);
  });

  it("a value outside the registry's enum is an error naming the Cairn path and the allowed values, with the program line", async () => {
    const stack = stackOf(() => void new LambdaFunction("fn", { role: ROLE, code: { zipFile: "exports.h=1" }, packageType: "Tarball" as never }));
    const plan = await stack.preview();
    const errors = plan.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.summary} (declared at ${String(d.site)})`);
    expect(errors).toEqual([expect.stringMatching(/^"fn" \(aws:lambda:Function\), input "packageType": must be one of "Image", "Zip" \(the CloudFormation registry's schema of AWS::Lambda::Function\) \(declared at tests\/providers\/aws\/registry-check\.test\.ts:\d+:\d+\)$/)]);
    expect(plan.diagnostics.filter((d) => d.severity === "warning")).toEqual([]);
    await expect(stack.up()).rejects.toThrow(/packageType/);
    expect(created()).toEqual([]);
  });

  it("bounds and patterns of nested values are checked, with the nested Cairn path", () => {
    const base = { role: ROLE, code: { zipFile: "x" } };
    expect(checkInputs(lambda(), { ...base, handler: "index handler" })).toEqual([{ severity: "error", attribute: "handler", summary: "must match the pattern ^[^\\s]+$ (the CloudFormation registry's schema of AWS::Lambda::Function)" }]);
    expect(checkInputs(lambda(), { ...base, tags: [{ key: "k".repeat(200), value: "v" }] })).toEqual([
      { severity: "error", attribute: "tags[0].key", summary: "must be at most 128 characters long (the CloudFormation registry's schema of AWS::Lambda::Function)" },
    ]);
  });

  it("values known only at apply are not judged, nor is anything that depends on them", () => {
    expect(checkInputs(lambda(), { role: UNKNOWN, code: UNKNOWN })).toEqual([]);
    expect(checkInputs(lambda(), { role: ROLE, code: { zipFile: UNKNOWN } })).toEqual([]);
    expect(checkInputs(lambda(), { role: UNKNOWN, code: { zipFile: "x" }, packageType: "Tarball" })).toEqual([expect.objectContaining({ attribute: "packageType" })]);
  });

  it("a required property the registry asks for is reported once, in Cairn's name", () => {
    expect(checkInputs(lambda(), { code: { zipFile: "x" } })).toEqual([{ severity: "error", attribute: "role", summary: expect.stringMatching(/^required property "role" is missing/) }]);
  });

  it("where the two sources list different values, a value either lists passes and any other is refused", () => {
    const logGroup = knownType("AWS::Logs::LogGroup")!;
    // The specification lists DELIVERY; the registry snapshot does not.
    expect(checkInputs(logGroup, { logGroupClass: "DELIVERY" })).toEqual([]);
    expect(checkInputs(logGroup, { logGroupClass: "ARCHIVE" })).toEqual([expect.objectContaining({ severity: "error", attribute: "logGroupClass", summary: expect.stringMatching(/^must be one of "STANDARD", "INFREQUENT_ACCESS", "DELIVERY"/) })]);
  });

  it("valid inputs pass both checks", () => {
    expect(checkInputs(lambda(), { role: ROLE, code: { zipFile: "x" }, runtime: "nodejs22.x", memorySize: 256, packageType: "Zip" })).toEqual([]);
  });
});

describe("values known only at apply are checked once known, before their request", () => {
  it("a value that resolves at apply to one the registry refuses fails that resource before any Cloud Control call for it, naming it, the path and its line", async () => {
    const stack = stackOf(() => {
      const queue = new Queue("jobs", { queueName: "jobs" });
      // Known only once the queue exists; its ARN holds ':' and the handler pattern refuses no character but whitespace, so a space makes it invalid.
      new LambdaFunction("fn", { role: ROLE, code: { zipFile: "exports.h=1" }, handler: queue.arn.apply((a) => `index ${a}`) });
    });
    const plan = await stack.preview();
    expect(plan.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const failures: string[] = [];
    stack.events.subscribe((e) => e.type === "step-failed" && failures.push(`${e.error} (declared at ${e.site})`));
    expect((await stack.up()).summary?.failed).toBe(1);
    expect(failures).toEqual([expect.stringMatching(/input "handler": must match the pattern \^\[\^\\s\]\+\$ .*nothing was sent to the provider.*\(declared at tests\/providers\/aws\/registry-check\.test\.ts:\d+:\d+\)$/)]);
    expect(created().map((c) => c.typeName)).toEqual(["AWS::SQS::Queue"]);
  });

  it("a value that resolves at apply to one the registry accepts is created as planned", async () => {
    const stack = stackOf(() => {
      const queue = new Queue("jobs", { queueName: "jobs" });
      new LambdaFunction("fn", { role: ROLE, code: { zipFile: "exports.h=1" }, handler: queue.queueName.apply((n) => `${n}.handler`) });
    });
    await stack.up();
    expect(created().map((c) => c.typeName)).toEqual(["AWS::SQS::Queue", "AWS::Lambda::Function"]);
  });
});

