import { describe, expect, it } from "vitest";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { programIn, run } from "./harness.js";
import { Queue } from "../../src/providers/aws/services/sqs.js";
import { Provider } from "../../src/providers/aws/provider.js";
import { local } from "../../src/providers/local/index.js";

/** A home folder with no ~/.aws, plus the given environment. */
async function env(extra: Record<string, string> = {}): Promise<NodeJS.ProcessEnv> {
  const home = await mkdtemp(join(tmpdir(), "cairn-aws-home-"));
  return { PATH: process.env.PATH, CAIRN_PASSPHRASE: "cli-test", HOME: home, ...extra };
}

const queue = () => programIn("setup", () => {
  new Queue("q", { queueName: "setup-q" });
});

describe("preview of a plan that calls AWS", () => {
  it("warns, without calling AWS, when no region and no credentials are set; the preview still succeeds", async () => {
    const { prog } = await queue();
    const r = await run(prog, ["preview"], { env: await env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("+ create urn:cairn:dev::setup::aws:sqs:Queue::q");
    expect(r.stderr).toContain("warning: no AWS region is set, and the plan calls AWS for 1 resource: up would fail. Set AWS_REGION");
    expect(r.stderr).toMatch(/warning: no AWS credentials were found in the environment or in .*\.aws\/credentials .*: only an EC2 or ECS instance's metadata could still give them/);
  });

  it("says nothing when the environment, or the profile in the shared files, has them", async () => {
    const { prog } = await queue();
    const keys = await run(prog, ["preview"], { env: await env({ AWS_REGION: "eu-west-1", AWS_ACCESS_KEY_ID: "AKIAEXAMPLE", AWS_SECRET_ACCESS_KEY: "x" }) });
    expect(keys.stderr).not.toContain("warning:");

    const dir = await mkdtemp(join(tmpdir(), "cairn-aws-files-"));
    await writeFile(join(dir, "config"), "[profile dev]\nregion = eu-west-1\nsso_session = corp\n");
    const profile = await run(prog, ["preview"], { env: await env({ AWS_PROFILE: "dev", AWS_CONFIG_FILE: join(dir, "config") }) });
    expect(profile.stderr).not.toContain("warning:");
  });

  it("names a profile that AWS_PROFILE gives but no file has, and takes the region from an aws.Provider", async () => {
    const use1 = new Provider("setup-use1", { region: "us-east-1" });
    const { prog } = await programIn("setup", () => {
      new Queue("q", { queueName: "setup-q" }, { provider: use1 });
      new Queue("q2", { queueName: "setup-q2" });
    });
    const r = await run(prog, ["preview"], { env: await env({ AWS_PROFILE: "prdo", AWS_REGION: "eu-west-1" }) });
    expect(r.stderr).toMatch(/warning: AWS_PROFILE names profile "prdo", which neither .*config nor .*credentials has: up would fail/);
    expect(r.stderr).not.toContain("no AWS region");

    const regionOnlyFromProvider = await run(prog, ["preview"], { env: await env({ AWS_ACCESS_KEY_ID: "AKIAEXAMPLE", AWS_SECRET_ACCESS_KEY: "x" }) });
    expect(regionOnlyFromProvider.stderr).toContain("the plan calls AWS for 1 resource:");
  });

  it("says nothing for a plan without AWS resources", async () => {
    const { prog } = await programIn("setup", () => {
      new local.File("f", { path: "out/f.txt", content: "x" });
    });
    const r = await run(prog, ["preview"], { env: await env() });
    expect(r.stderr).not.toContain("warning:");
  });
});
