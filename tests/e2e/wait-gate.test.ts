import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { cli, jsonEvents, tempProject } from "./cli-harness.js";
import { serveFakeCloudControl, type ServedFakeCloudControl } from "../../src/testing/cloudcontrol/fake-server.js";

/** Issue 40's program: a server whose read keeps reporting "starting", a 3 s wait for "ready", its url an output. */
const SERVER = `
import { program, seconds, wait } from "cairn-iac";
import { local } from "cairn-iac/local";

export default program("gate", () => {
  const s = new local.Command<{ status: string; url: string }>("server", {
    create: "echo started",
    read: "cat health.json",
  });
  const ok = wait(s, { name: "healthy", until: (x) => x.attributes.status.eq("ready"), timeout: seconds(3) });
  return { url: ok.attributes.apply((h) => h.url) };
});
`;

const RDS = `
import { program, secret, seconds, wait } from "cairn-iac";
import { DBInstance } from "cairn-iac/aws/rds";

export default program("db", () => {
  const db = new DBInstance("db", {
    dbInstanceIdentifier: "app-db", engine: "postgres", dbInstanceClass: "db.t4g.micro", allocatedStorage: "20",
    masterUsername: "app", masterUserPassword: secret("correct-horse-battery"),
  });
  const ready = wait(db, { name: "dbReady", until: (d) => d.dbInstanceStatus.eq("available"), timeout: seconds(3), interval: seconds(1) });
  return { dbUrl: ready.endpoint.apply((e) => "postgres://" + e.address) };
});
`;

let fake: ServedFakeCloudControl;
beforeAll(async () => {
  fake = await serveFakeCloudControl({ pollsToFinish: 1, tracks: { "AWS::RDS::DBInstance": { path: ["DBInstanceStatus"], values: ["creating"], readsPerStep: 1 } } });
});
afterAll(async () => {
  await fake.stop();
});

describe("a gated value never escapes, through the CLI (issue 40)", { timeout: 90_000 }, () => {
  it("a wait that timed out keeps url unpublished on the next up, which runs it again; the timeout says what was seen", async () => {
    const dir = await tempProject({ "infra.ts": SERVER, "health.json": '{"status":"starting","url":"http://x"}' });
    let r = await cli(dir, ["up", "--yes", "--json"]);
    expect(r.code).toBe(1);
    const ended = jsonEvents(r.stdout).find((e) => e.type === "wait-ended") as unknown as { outcome: { kind: string }; message: string };
    expect(ended.outcome.kind).toBe("timed-out");
    expect(ended.message).toMatch(/^wait "healthy" timed out after 3s: server\.attributes\.status == "ready" never held; last observed attributes\.status = "starting" \(\d+ reads?\)\. Raise its timeout/);
    expect(ended.message).not.toMatch(/kept failing|throttling/);

    r = await cli(dir, ["up", "--yes"]);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toContain("Plan: no resource changes");
    expect(r.stdout).toContain("runs because healthy has not held yet");
    expect(r.stdout).toContain("url: (known after apply)  (waits for healthy, which has not held yet)");
    expect(r.stdout).not.toContain('url: "http://x"');
    r = await cli(dir, ["outputs", "--json"]);
    expect(r.stdout).not.toContain("http://x");

    await writeFile(join(dir, "health.json"), '{"status":"ready","url":"http://x"}');
    r = await cli(dir, ["up", "--yes"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    r = await cli(dir, ["outputs", "--json"]);
    expect(JSON.parse(r.stdout)).toEqual({ url: "http://x" });
    // Held and recorded: a no-op up trusts it and reads nothing.
    r = await cli(dir, ["up", "--yes", "--json"]);
    expect(jsonEvents(r.stdout).filter((e) => e.type.startsWith("wait-"))).toEqual([]);
  });

  it("dbUrl is not published while the RDS instance on the fake Cloud Control is still creating", async () => {
    const dir = await tempProject({ "infra.ts": RDS });
    const env = fake.env;
    for (let i = 0; i < 2; i++) {
      const r = await cli(dir, ["up", "--yes", "--json"], env);
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(jsonEvents(r.stdout).find((e) => e.type === "wait-ended")).toMatchObject({ outcome: { kind: "timed-out" } });
    }
    const out = await cli(dir, ["outputs", "--json"], env);
    expect(out.stdout).not.toContain("postgres://");
    const show = await cli(dir, ["state", "show", "db", "--json"], env);
    expect(show.stdout).toMatch(/"dbInstanceStatus": "creating"/);
  });
});
