// `npx cairn fake-aws`: the fake Cloud Control as a process of its own, and a program pointed at it by the
// environment it prints. `npm test` builds dist/ before vitest runs.
import { describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { CloudControlClient, ListResourcesCommand } from "@aws-sdk/client-cloudcontrol";
import { REPO, cli, finish, tempProject } from "./cli-harness.js";

const BIN = join(REPO, "dist/cli/bin.js");

const PROGRAM = `import { program } from "cairn-iac";
import * as sqs from "cairn-iac/aws/sqs";
export default program("on-the-fake", () => {
  const q = new sqs.Queue("q", { queueName: "fake-aws-q" });
  return { url: q.queueUrl };
});
`;

/** Resolves with stdout once it holds `count` lines of `export NAME=value`, or rejects with what was printed. */
function printedEnv(child: ReturnType<typeof spawn>, count: number): Promise<Record<string, string>> {
  let out = "";
  let err = "";
  child.stderr!.on("data", (d) => (err += d));
  return new Promise((resolve, reject) => {
    child.on("exit", (code) => reject(new Error(`fake-aws exited (${code}) before printing its environment:\n${out}${err}`)));
    child.stdout!.on("data", (d) => {
      out += d;
      const env = Object.fromEntries([...out.matchAll(/^ {2}export (\w+)=(\S+)$/gm)].map((m) => [m[1]!, m[2]!]));
      if (Object.keys(env).length >= count) resolve(env);
    });
  });
}

describe("npx cairn fake-aws", () => {
  it("serves the fake on 127.0.0.1 and prints the environment that points a program's up at it, until Ctrl-C", async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1" };
    delete env.NODE_OPTIONS;
    const server = spawn(process.execPath, [BIN, "fake-aws"], { cwd: REPO, env, stdio: ["ignore", "pipe", "pipe"] });
    const exited = finish(server);
    try {
      const fakeEnv = await printedEnv(server, 4);
      expect(Object.keys(fakeEnv).sort()).toEqual(["AWS_ACCESS_KEY_ID", "AWS_ENDPOINT_URL_CLOUDCONTROL", "AWS_REGION", "AWS_SECRET_ACCESS_KEY"]);
      expect(fakeEnv.AWS_ENDPOINT_URL_CLOUDCONTROL).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

      const dir = await tempProject({ "infra.ts": PROGRAM });
      const up = await cli(dir, ["up", "--yes"], fakeEnv);
      expect(up.code, up.stdout + up.stderr).toBe(0);
      // On Node 20 the AWS SDK warns that it will need Node 22: one line, not its 8-line block.
      expect(up.stderr).not.toContain("NodeVersionSupportWarning");
      expect(up.stderr.match(/AWS SDK for JavaScript/g)?.length ?? 0).toBeLessThanOrEqual(1);

      // What the fake holds, asked through its Cloud Control API as any client would.
      const client = new CloudControlClient({ region: fakeEnv.AWS_REGION!, endpoint: fakeEnv.AWS_ENDPOINT_URL_CLOUDCONTROL!, credentials: { accessKeyId: "fake", secretAccessKey: "fake" } });
      const listed = await client.send(new ListResourcesCommand({ TypeName: "AWS::SQS::Queue" }));
      expect(listed.ResourceDescriptions?.map((d) => JSON.parse(d.Properties!).QueueName)).toEqual(["fake-aws-q"]);
    } finally {
      server.kill("SIGINT");
    }
    const end = await exited;
    expect(end.code, end.stderr).toBe(0);
    expect(end.stdout).toContain("Fake Cloud Control stopped.");
    expect(end.stderr).not.toContain("Cancelling");
  }, 60_000);
});
