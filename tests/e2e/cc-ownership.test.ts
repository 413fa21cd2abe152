import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, finish, start, tempProject } from "./cli-harness.js";
import { serveFakeCloudControl, type ServedFakeCloudControl } from "../../src/testing/cloudcontrol/fake-server.js";

/**
 * Inputs stay the user's, through the CLI on the fake Cloud Control: a role the program does not name (the
 * cloud makes its name up) and a queue.
 */
const APP = `
import { program } from "cairn-iac";
import { Role } from "cairn-iac/aws/iam";
import { Queue } from "cairn-iac/aws/sqs";
export default program("own", () => {
  new Role("r", { assumeRolePolicyDocument: { Version: "2012-10-17", Statement: [] } });
  new Queue("q", { queueName: "own-q", visibilityTimeout: 45 });
});
`;

let fake: ServedFakeCloudControl;
beforeAll(async () => {
  fake = await serveFakeCloudControl({ pollsToFinish: 1 });
});
afterAll(async () => {
  await fake.stop();
});

const run = (dir: string, args: string[]) => cli(dir, args, fake.env);
const E2E_TIMEOUT_MS = 90_000;
const roles = () => fake.cloud.objects("AWS::IAM::Role");

describe("what the cloud chose never becomes an input", { timeout: E2E_TIMEOUT_MS }, () => {
  it("kill -9 while a role without roleName is being created, then up: one role, not replaced, and no changes after", async () => {
    const dir = await tempProject({ "infra.ts": APP });
    const before = { creates: fake.cloud.count("CreateResource"), deletes: fake.cloud.count("DeleteResource"), roles: roles().length };
    fake.cloud.paused = true;
    const child = start(dir, ["up", "--yes"], fake.env);
    const done = finish(child);
    const until = Date.now() + 20_000;
    while (!(fake.cloud.count("CreateResource") - before.creates >= 2 && fake.cloud.calls.slice(-1)[0]?.operation === "ListResourceRequests")) {
      if (Date.now() > until) throw new Error(`creates not in flight: ${JSON.stringify(fake.cloud.calls.slice(-5))}`);
      await new Promise((r) => setTimeout(r, 25));
    }
    process.kill(-child.pid!, "SIGKILL");
    await done;
    fake.cloud.paused = false;

    const r = await run(dir, ["up", "--yes"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stderr).toMatch(/interrupted create of urn:cairn:dev::own::aws:iam:Role::r .* was resumed/);
    expect(fake.cloud.count("CreateResource") - before.creates).toBe(2);
    expect(fake.cloud.count("DeleteResource") - before.deletes).toBe(0);
    expect(roles().length - before.roles).toBe(1);
    const again = await run(dir, ["preview", "--refresh", "--expect-no-changes"]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect((await run(dir, ["destroy", "--yes"])).code).toBe(0);
  });

  it("preview --refresh --expect-no-changes holds when only a read-only attribute changed, and fails on drift", async () => {
    const dir = await tempProject({ "infra.ts": APP });
    expect((await run(dir, ["up", "--yes"])).code).toBe(0);
    const role = roles().at(-1)!;
    fake.cloud.tamper("AWS::IAM::Role", role.identifier, (p) => void (p.RoleId = "AROA-CHANGED"));
    const quiet = await run(dir, ["preview", "--refresh", "--expect-no-changes"]);
    expect(quiet.code, quiet.stdout + quiet.stderr).toBe(0);
    // Recording it applies nothing: up records it without asking (no terminal here, and no --yes).
    const record = await run(dir, ["up", "--refresh"]);
    expect(record.code, record.stdout + record.stderr).toBe(0);
    expect(fake.cloud.count("UpdateResource")).toBe(0);

    const queue = fake.cloud.objects("AWS::SQS::Queue").find((o) => o.properties.QueueName === "own-q")!;
    fake.cloud.tamper("AWS::SQS::Queue", queue.identifier, (p) => void (p.VisibilityTimeout = 10));
    const drift = await run(dir, ["preview", "--refresh", "--expect-no-changes"]);
    expect(drift.code).toBe(1);
    expect(drift.stderr).toMatch(/--expect-no-changes/);
    expect((await run(dir, ["destroy", "--yes"])).code).toBe(0);
  });
});
