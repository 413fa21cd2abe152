import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { program } from "../../src/entry/program.js";
import { Provider } from "../../src/providers/aws/provider.js";
import { serveFakeCloudControl, type ServedFakeCloudControl } from "../../src/testing/cloudcontrol/fake-server.js";
import { DBInstance } from "../../src/providers/aws/services/rds.js";
import { wait } from "../../src/wait/wait.js";
import { seconds } from "../../src/core/duration.js";
import { secret } from "../../src/program/output.js";
import { FakeClock } from "../../src/testing/fake-clock.js";
import type { StatusTrack } from "../../src/testing/cloudcontrol/fake-model.js";

let dir: string;
let fake: ServedFakeCloudControl;
let aws: Provider;
/** The RDS instance's status as the fake reports it: it stays "creating" until a test moves it on. */
const track: StatusTrack = { path: ["DBInstanceStatus"], values: ["creating"], readsPerStep: 1 };
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cairn-gate-cc-"));
  fake = await serveFakeCloudControl({ pollsToFinish: 1, tracks: { "AWS::RDS::DBInstance": track } });
  aws = new Provider(`fake-${Math.random().toString(36).slice(2)}`, { region: "us-east-1", endpoint: fake.endpoint, credentials: { accessKeyId: "x", secretAccessKey: "x" } });
});
afterEach(async () => {
  await fake.stop();
  await rm(dir, { recursive: true, force: true });
});

describe("gate on the fake Cloud Control", () => {
  it("does not publish dbUrl while the RDS instance is still creating, on the first up or the next", async () => {
    const stack = program("db", () => {
      const db = new DBInstance("db", {
        dbInstanceIdentifier: "app-db", engine: "postgres", dbInstanceClass: "db.t4g.micro", allocatedStorage: "20",
        masterUsername: "app", masterUserPassword: secret("correct-horse-battery"),
      });
      const ready = wait(db, { name: "dbReady", until: (d) => d.dbInstanceStatus.eq("available"), timeout: seconds(3), interval: seconds(1) });
      return { dbUrl: ready.endpoint.apply((e) => `postgres://${e?.address}`) };
    }).stack({ stateDir: dir, passphrase: "p", defaultProviders: { aws }, clock: new FakeClock({ auto: true }) });
    const ended: string[] = [];
    stack.events.subscribe((e) => e.type === "wait-ended" && ended.push(e.outcome.kind));

    const first = await stack.up();
    expect(ended).toEqual(["timed-out"]);
    expect(first.outputs?.dbUrl).toBeUndefined();

    const second = await stack.up();
    expect(ended).toEqual(["timed-out", "timed-out"]);
    expect(second.outputs?.dbUrl).toBeUndefined();
    expect((await stack.outputs()).values).toEqual({});
    const db = (await stack.resources()).find((r) => r.type === "aws:rds:DBInstance")!;
    expect(db.outputs.dbInstanceStatus).toBe("creating");

    track.values = ["available"];
    const third = await stack.up();
    expect(ended).toEqual(["timed-out", "timed-out", "satisfied"]);
    expect(third.outputs?.dbUrl).toMatch(/^postgres:\/\/\w+\.us-east-1\.rds\./);
  });
});
