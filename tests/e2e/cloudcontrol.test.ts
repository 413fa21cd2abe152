import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { cli, finish, start, tempProject, planEvent } from "./cli-harness.js";
import { serveFakeCloudControl, type ServedFakeCloudControl } from "../../src/testing/cloudcontrol/fake-server.js";

/**
 * A real application on the strict fake Cloud Control, through the CLI: a bucket, a role, a function using
 * the role's ARN, a queue, an RDS instance waited on until available, and a VPC, subnet and EC2 instance
 * waited on until running. Config values drive the changes each test makes.
 */
const APP = `
import { program, seconds, secret, wait } from "cairn-iac";
import { Bucket } from "cairn-iac/aws/s3";
import { Role } from "cairn-iac/aws/iam";
import { Function as LambdaFunction } from "cairn-iac/aws/lambda";
import { Queue } from "cairn-iac/aws/sqs";
import { DBInstance } from "cairn-iac/aws/rds";
import { Instance, Subnet, VPC } from "cairn-iac/aws/ec2";

export default program("app", ({ config }) => {
  const bucket = new Bucket("assets", { bucketName: "app-assets", versioningConfiguration: { status: "Enabled" } });
  const role = new Role("fn-role", {
    assumeRolePolicyDocument: { Version: "2012-10-17", Statement: [{ Effect: "Allow", Principal: { Service: "lambda.amazonaws.com" }, Action: "sts:AssumeRole" }] },
  });
  const fn = new LambdaFunction("handler", {
    functionName: config.get("fnName") ?? "app-handler",
    role: role.arn,
    runtime: "nodejs22.x",
    handler: "index.handler",
    code: { zipFile: "exports.handler = async () => 'ok';" },
    environment: { variables: { BUCKET: bucket.bucketName } },
  });
  const queue = new Queue("jobs", { queueName: "jobs", visibilityTimeout: Number(config.get("timeout") ?? "30") });
  const db = new DBInstance("db", {
    dbInstanceIdentifier: "app-db", engine: "postgres", dbInstanceClass: "db.t4g.micro", allocatedStorage: "20",
    masterUsername: "app", masterUserPassword: secret("correct-horse-battery"),
  });
  const dbReady = wait(db, { until: (d) => d.dbInstanceStatus.eq("available"), interval: seconds(1) });
  const vpc = new VPC("vpc", { cidrBlock: config.get("cidr") ?? "10.0.0.0/16" });
  const subnet = new Subnet("subnet", { vpcId: vpc.vpcId, cidrBlock: config.get("subnet") ?? "10.0.1.0/24" });
  const vm = new Instance("vm", { imageId: "ami-0abcdef", instanceType: "t3.micro", subnetId: subnet.subnetId });
  const vmUp = wait(vm, { until: (v) => v.state.name.eq("running"), interval: seconds(1) });
  return { bucketArn: bucket.arn, functionArn: fn.arn, queueUrl: queue.queueUrl, db: dbReady.endpoint.apply((e) => e.address), vm: vmUp.privateIp };
});
`;

let fake: ServedFakeCloudControl;
beforeAll(async () => {
  // Requests answer finished at once (a CLI child cannot share a FakeClock): no run waits on a polling pause.
  fake = await serveFakeCloudControl({ pollsToFinish: 0 });
});
afterAll(async () => {
  await fake.stop();
});

const count = (type: string) => fake.cloud.objects(type).length;

async function project(): Promise<string> {
  return tempProject({ "infra.ts": APP });
}

const run = (dir: string, args: string[], env: Record<string, string> = {}) => cli(dir, args, { ...fake.env, ...env });
const setConfig = (dir: string, key: string, value: string) => run(dir, ["config", "set", key, value]);

// Each test runs the CLI several times against servers with real delays (Cloud Control's asynchronous
// requests, waits polling every second): 25 s for the longest on a 2-core machine running the whole suite.
const E2E_TIMEOUT_MS = 90_000;

describe("a serverless app and a VM on the fake Cloud Control, through the CLI", { timeout: E2E_TIMEOUT_MS }, () => {
  it("up creates one object per resource, waits for RDS available and EC2 running, and keeps write-only values secret", async () => {
    const dir = await project();
    const r = await run(dir, ["up", "--yes"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    for (const t of ["AWS::S3::Bucket", "AWS::IAM::Role", "AWS::Lambda::Function", "AWS::SQS::Queue", "AWS::RDS::DBInstance", "AWS::EC2::VPC", "AWS::EC2::Subnet", "AWS::EC2::Instance"]) expect(count(t), t).toBe(1);
    const [fn] = fake.cloud.objects("AWS::Lambda::Function");
    const [role] = fake.cloud.objects("AWS::IAM::Role");
    expect(fn!.properties.Role).toBe(role!.properties.Arn);
    expect(fn!.properties.Environment).toEqual({ Variables: { BUCKET: "app-assets" } });
    expect(fake.cloud.objects("AWS::RDS::DBInstance")[0]!.properties.DBInstanceStatus).toBe("available");
    expect(r.stdout).toMatch(/> .*\(until db\.dbInstanceStatus == "available"\)/);
    expect(r.stdout + r.stderr).not.toContain("correct-horse-battery");
    const state = await import("node:fs/promises").then((fs) => fs.readFile(`${dir}/.cairn/stacks/dev/state.json`, "utf8"));
    expect(state).not.toContain("correct-horse-battery");

    // Nothing changed: the second plan is empty (write-only properties, never returned, are no drift).
    const again = await run(dir, ["preview", "--expect-no-changes"]);
    expect(again.code, again.stdout + again.stderr).toBe(0);

    const down = await run(dir, ["destroy", "--yes"]);
    expect(down.code, down.stdout + down.stderr).toBe(0);
    expect(fake.cloud.objects()).toEqual([]);
  });
});

describe("changes to the app on the fake Cloud Control", { timeout: E2E_TIMEOUT_MS }, () => {
  it("a mutable change is one patch of that path; a create-only change replaces in order with its dependents", async () => {
    const dir = await project();
    expect((await run(dir, ["up", "--yes"])).code).toBe(0);
    const callsBefore = fake.cloud.calls.length;

    await setConfig(dir, "timeout", "60");
    const r1 = await run(dir, ["up", "--yes"]);
    expect(r1.code, r1.stdout + r1.stderr).toBe(0);
    const updates = fake.cloud.calls.slice(callsBefore).filter((c) => c.operation === "UpdateResource");
    expect(updates).toEqual([expect.objectContaining({ typeName: "AWS::SQS::Queue", patch: [{ op: "replace", path: "/VisibilityTimeout", value: 60 }] })]);
    expect(fake.cloud.objects("AWS::SQS::Queue")[0]!.properties.VisibilityTimeout).toBe(60);

    // CidrBlock is create-only: the VPC is replaced, and so are the subnet (its VpcId is create-only) and
    // the instance (its SubnetId): new ones first, then the old instance, subnet and VPC — the fake refuses
    // to delete anything still referenced.
    await setConfig(dir, "cidr", "10.1.0.0/16");
    await setConfig(dir, "subnet", "10.1.1.0/24");
    const preview = await run(dir, ["preview", "--json"]);
    const steps = planEvent(preview.stdout).steps;
    expect(steps.filter((s) => s.op === "replace").map((s) => s.urn.split("::").pop()).sort()).toEqual(["subnet", "vm", "vpc"]);
    expect(preview.stdout).toMatch(/"replace_keys":\["cidrBlock"\]/);
    const mark = fake.cloud.calls.length;
    const r2 = await run(dir, ["up", "--yes"]);
    expect(r2.code, r2.stdout + r2.stderr).toBe(0);
    expect(fake.cloud.objects("AWS::EC2::VPC").map((o) => o.properties.CidrBlock)).toEqual(["10.1.0.0/16"]);
    expect(fake.cloud.objects("AWS::EC2::Subnet").map((o) => o.properties.CidrBlock)).toEqual(["10.1.1.0/24"]);
    expect(count("AWS::EC2::Instance")).toBe(1);
    const deletes = fake.cloud.calls.slice(mark).filter((c) => c.operation === "DeleteResource").map((c) => c.typeName);
    expect(deletes).toEqual(["AWS::EC2::Instance", "AWS::EC2::Subnet", "AWS::EC2::VPC"]);
    expect(fake.cloud.calls.slice(mark).some((c) => c.error)).toBe(false);

    // The function's name is its identifier and create-only: renaming it replaces it, and the plan says why.
    await setConfig(dir, "fnName", "app-handler-2");
    const rename = await run(dir, ["preview"]);
    expect(rename.stdout).toMatch(/functionName changed in the program, and it forces a replacement/);
    expect((await run(dir, ["up", "--yes"])).code).toBe(0);
    expect(fake.cloud.objects("AWS::Lambda::Function").map((o) => o.identifier)).toEqual(["app-handler-2"]);
    expect((await run(dir, ["destroy", "--yes"])).code).toBe(0);
    expect(fake.cloud.objects()).toEqual([]);
  });

  it("drift made outside Cairn is found by a refresh and reverted by the next up", async () => {
    const dir = await project();
    expect((await run(dir, ["up", "--yes"])).code).toBe(0);
    const [queue] = fake.cloud.objects("AWS::SQS::Queue");
    fake.cloud.tamper("AWS::SQS::Queue", queue!.identifier, (p) => (p.VisibilityTimeout = 99));
    const r = await run(dir, ["up", "--yes", "--refresh"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/visibilityTimeout/);
    expect(fake.cloud.objects("AWS::SQS::Queue")[0]!.properties.VisibilityTimeout).toBe(30);
    expect((await run(dir, ["destroy", "--yes"])).code).toBe(0);
  });
});

const SMALL = (extra = "") => `
import { program } from "cairn-iac";
import { Queue } from "cairn-iac/aws/sqs";
import { Role } from "cairn-iac/aws/iam";
export default program("small", () => {
  const q = new Queue("q", { queueName: "small-q", visibilityTimeout: 45 }${extra});
  const role = new Role("r", { roleName: "small-role", assumeRolePolicyDocument: { Version: "2012-10-17", Statement: [] } });
  return { url: q.queueUrl, role: role.arn };
});
`;

describe("adoption and recovery on the fake Cloud Control", { timeout: E2E_TIMEOUT_MS }, () => {
  it("imports an existing object by its identifier, shows the difference, and then manages it", async () => {
    const made = (await fake.cloud.handle("CreateResource", { TypeName: "AWS::SQS::Queue", DesiredState: JSON.stringify({ QueueName: "small-q", VisibilityTimeout: 30 }) })) as { ProgressEvent: { RequestToken: string; Identifier: string } };
    await fake.cloud.handle("GetResourceRequestStatus", { RequestToken: made.ProgressEvent.RequestToken });
    const url = made.ProgressEvent.Identifier;
    const dir = await tempProject({ "infra.ts": SMALL(`, { import: ${JSON.stringify(url)} }`) });
    const preview = await run(dir, ["preview"]);
    expect(preview.code, preview.stdout + preview.stderr).toBe(0);
    expect(preview.stdout).toMatch(/import: adopts the existing object/);
    expect(preview.stdout).toMatch(/visibilityTimeout: 30 → 45/);
    const r = await run(dir, ["up", "--yes"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(fake.cloud.objects("AWS::SQS::Queue").filter((o) => o.identifier === url).map((o) => o.properties.VisibilityTimeout)).toEqual([45]);
    expect(fake.cloud.objects("AWS::SQS::Queue").filter((o) => o.properties.QueueName === "small-q")).toHaveLength(1);
    expect((await run(dir, ["destroy", "--yes"])).code).toBe(0);
  });

  it("kill -9 while Cloud Control is still creating, then up again: the request is resumed, one object per resource", async () => {
    const dir = await tempProject({ "infra.ts": SMALL() });
    const before = fake.cloud.count("CreateResource");
    fake.cloud.paused = true;
    const child = start(dir, ["up", "--yes"], fake.env);
    const done = finish(child);
    const until = Date.now() + 20_000;
    // Both creates sent, and polled at least once (their request tokens were journaled before that).
    while (!(fake.cloud.count("CreateResource") - before >= 2 && fake.cloud.calls.slice(-1)[0]?.operation === "ListResourceRequests")) {
      if (Date.now() > until) throw new Error(`creates not in flight: ${JSON.stringify(fake.cloud.calls.slice(-5))}`);
      await new Promise((r) => setTimeout(r, 25));
    }
    process.kill(-child.pid!, "SIGKILL");
    await done;
    fake.cloud.paused = false;

    const r = await run(dir, ["up", "--yes"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stderr).toMatch(/interrupted create of urn:cairn:dev::small::aws:sqs:Queue::q .* was resumed: its request had finished: the object .* was created/);
    expect(fake.cloud.count("CreateResource") - before).toBe(2);
    expect(fake.cloud.objects("AWS::SQS::Queue").filter((o) => o.properties.QueueName === "small-q")).toHaveLength(1);
    expect(fake.cloud.objects("AWS::IAM::Role").filter((o) => o.properties.RoleName === "small-role")).toHaveLength(1);
    const again = await run(dir, ["preview", "--expect-no-changes"]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect((await run(dir, ["destroy", "--yes"])).code).toBe(0);
  });
});

describe("objects whose module the program no longer imports", { timeout: E2E_TIMEOUT_MS }, () => {
  it("are still deleted: their type's module is loaded from the token in state", async () => {
    const dir = await tempProject({ "infra.ts": SMALL() });
    expect((await run(dir, ["up", "--yes"])).code).toBe(0);
    await writeFile(join(dir, "infra.ts"), `
import { program } from "cairn-iac";
import { Role } from "cairn-iac/aws/iam";
export default program("small", () => {
  new Role("r", { roleName: "small-role", assumeRolePolicyDocument: { Version: "2012-10-17", Statement: [] } });
});
`);
    // A queue is stateful: its delete is known as data loss even though no module the program imports defines it.
    const refused = await run(dir, ["up", "--yes"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("urn:cairn:dev::small::aws:sqs:Queue::q (aws:sqs:Queue): deletes the Queue and its data because it left the program");
    const r = await run(dir, ["up", "--yes", "--allow-data-loss", "q"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/deleted urn:cairn:dev::small::aws:sqs:Queue::q/);
    expect(fake.cloud.objects("AWS::SQS::Queue").filter((o) => o.properties.QueueName === "small-q")).toEqual([]);
    expect((await run(dir, ["destroy", "--yes"])).code).toBe(0);
  });
});
