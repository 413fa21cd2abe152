import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Provider } from "../../src/providers/aws/provider.js";
import { cloudControlType } from "../../src/providers/aws/cloudcontrol/define.js";
import { serveFakeCloudControl, type ServedFakeCloudControl } from "../../src/testing/cloudcontrol/fake-server.js";
import { DB_DATA } from "../providers/aws/cloudcontrol/registry-types.js";
import { programIn, run } from "./harness.js";

const Db = cloudControlType<Record<string, unknown>, Record<string, unknown>>("Test::RDS::DBInstance", "aws:testrds:DBInstance", JSON.stringify(DB_DATA));

let fake: ServedFakeCloudControl;
let aws: Provider;
beforeEach(async () => {
  fake = await serveFakeCloudControl({ tracks: {} });
  aws = new Provider(`fake-${Math.random().toString(36).slice(2)}`, { region: "us-east-1", endpoint: fake.endpoint, credentials: { accessKeyId: "x", secretAccessKey: "x" } });
});
afterEach(async () => {
  await fake.stop();
});

const planEvent = (stdout: string) => stdout.split("\n").map((l) => JSON.parse(l) as Record<string, unknown>).find((e) => e.type === "plan")!;

describe("preview --refresh when only a status moved on (the CLI)", () => {
  it("--json, the printed plan and --expect-no-changes all say there is nothing to apply", async () => {
    const { prog } = await programIn("obs", () => void new Db("db", { dbInstanceIdentifier: "db-1", engine: "mysql" }, { provider: aws }));
    expect((await run(prog, ["up", "--yes"])).code).toBe(0);
    const [obj] = fake.cloud.objects("Test::RDS::DBInstance");
    fake.cloud.tamper("Test::RDS::DBInstance", obj!.identifier, (p) => void (p.DBInstanceStatus = "modifying"));

    const json = await run(prog, ["preview", "--refresh", "--json"]);
    expect(planEvent(json.stdout)).toMatchObject({ has_changes: false, refresh_records: 1, drift: [] });
    const printed = await run(prog, ["preview", "--refresh", "--expect-no-changes"]);
    expect(printed.code, printed.stderr).toBe(0);
    expect(printed.stdout).toContain('No changes to apply. Stack "dev" is up to date; the refresh records what it observed of 1 resource in state.');
    expect(printed.stdout).not.toContain("Plan:");
  });
});
