import { describe, expect, it } from "vitest";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { cli, tempProject } from "./cli-harness.js";


describe("secrets, end to end", () => {
  it("secret config is encrypted at rest and never printed; no passphrase means a clear refusal", async () => {
    const dir = await tempProject({
      "infra.ts": `
import { program } from "cairn-iac";
import { local } from "cairn-iac/local";
export default program("sec", ({ config }) => {
  const token = config.requireSecret("token");
  const f = new local.File("f", { path: "out/token.txt", content: token });
  return { token, size: f.size };
});
`,
    });
    const noPass = await cli(dir, ["config", "set", "token", "tok-SUPERSECRET-123", "--secret"], { CAIRN_PASSPHRASE: "" });
    expect(noPass.code).toBe(1);
    expect(noPass.stderr).toContain("CAIRN_PASSPHRASE");

    expect((await cli(dir, ["config", "set", "token", "tok-SUPERSECRET-123", "--secret"])).code).toBe(0);
    const list = await cli(dir, ["config", "list"]);
    expect(list.stdout).toContain("token = [secret]");

    const up = await cli(dir, ["up", "--yes", "--json"]);
    expect(up.code, up.stderr).toBe(0);
    expect(up.stdout + up.stderr).not.toContain("SUPERSECRET");
    expect(up.stdout).toContain('"token":"[secret]"');

    const human = await cli(dir, ["preview", "--replace", "urn:cairn:dev::sec::local:File::f"]);
    expect(human.stdout).toContain("[secret]");
    expect(human.stdout + human.stderr).not.toContain("SUPERSECRET");

    for (const f of await readdir(join(dir, ".cairn/stacks/dev"))) {
      const text = await readFile(join(dir, ".cairn/stacks/dev", f), "utf8").catch(() => "");
      expect(text, f).not.toContain("SUPERSECRET");
    }
    const wrong = await cli(dir, ["preview"], { CAIRN_PASSPHRASE: "not-it" });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/does not decrypt/);
    const shown = await cli(dir, ["outputs", "--show-secrets", "--json"]);
    expect(JSON.parse(shown.stdout).token).toBe("tok-SUPERSECRET-123");
  });
});
