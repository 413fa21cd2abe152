import { describe, expect, it } from "vitest";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO, cli, tempProject } from "./cli-harness.js";

describe("examples/acm-certificate through the CLI, without AWS credentials", () => {
  it("preview fails within seconds, naming what is missing, with no stack trace", async () => {
    const dir = await tempProject({ "infra.ts": await readFile(join(REPO, "examples/acm-certificate/infra.ts"), "utf8") });
    const home = await mkdtemp(join(tmpdir(), "cairn-nohome-"));
    // No credentials anywhere: no keys or profile in the environment, no ~/.aws files, and no instance
    // metadata (disabled, so the test sends nothing to 169.254.169.254).
    const env = {
      HOME: home, AWS_ACCESS_KEY_ID: "", AWS_SECRET_ACCESS_KEY: "", AWS_SESSION_TOKEN: "", AWS_PROFILE: "", AWS_DEFAULT_PROFILE: "",
      AWS_CONFIG_FILE: join(home, "none"), AWS_SHARED_CREDENTIALS_FILE: join(home, "none"), AWS_EC2_METADATA_DISABLED: "true",
      AWS_CONTAINER_CREDENTIALS_RELATIVE_URI: "", AWS_CONTAINER_CREDENTIALS_FULL_URI: "", AWS_WEB_IDENTITY_TOKEN_FILE: "",
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
    };
    const started = Date.now();
    const r = await cli(dir, ["preview"], env);
    const elapsed = Date.now() - started;
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const all = r.stdout + r.stderr;
    expect(all).toContain('Planning "zone" (aws:route53:HostedZone) failed: Route 53 ListHostedZonesByName failed: CredentialsProviderError');
    expect(all).toContain("No AWS credentials were found: set AWS_PROFILE");
    expect(all).not.toMatch(/^\s+at /m);
    expect(all).toMatch(/^ {2}--> infra\.ts:\d+:\d+$/m); // the user's line that declared the zone
    expect(elapsed).toBeLessThan(10_000);
  });
});
