import { describe, expect, it } from "vitest";
import { readFile, writeFile, access } from "node:fs/promises";
import { join } from "node:path";
import { cli, planEvent, tempProject } from "./cli-harness.js";

const program = (body: string) => `
import { program } from "cairn-iac";
import { local } from "cairn-iac/local";
export default program("hello", () => {
${body}
});
`;


describe("the CLI, end to end", () => {
  it("up → no changes → update → replace → delete → destroy", { timeout: 90_000 }, async () => {
    const dir = await tempProject({
      "infra.ts": program(`
  const cfg = new local.File("config", { path: "out/config.json", content: JSON.stringify({ env: "dev" }) });
  const readme = new local.File("readme", { path: "out/README.txt", content: cfg.path.apply(p => \`config lives in \${p}\`) });
  return { configPath: cfg.path, size: readme.size };`),
    });

    let r = await cli(dir, ["preview"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("+ create urn:cairn:dev::hello::local:File::config");
    expect(r.stdout).toContain("size: (known after apply)");

    r = await cli(dir, ["up"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("pass --yes");

    r = await cli(dir, ["up", "--yes"]);
    expect(r.code, r.stderr).toBe(0);
    expect(await readFile(join(dir, "out/README.txt"), "utf8")).toBe("config lives in out/config.json");
    expect(r.stdout).toMatch(/size: 31/);

    r = await cli(dir, ["preview", "--expect-no-changes"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain("No changes.");

    r = await cli(dir, ["outputs", "--json"]);
    expect(JSON.parse(r.stdout)).toEqual({ configPath: "out/config.json", size: 31 });

    await writeFile(join(dir, "infra.ts"), (await readFile(join(dir, "infra.ts"), "utf8")).replace('env: "dev"', 'env: "prod"'));
    r = await cli(dir, ["preview", "--expect-no-changes"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("~ update urn:cairn:dev::hello::local:File::config");
    expect(r.stdout).toContain('content: "{\\"env\\":\\"dev\\"}" → "{\\"env\\":\\"prod\\"}"');
    r = await cli(dir, ["up", "--yes"]);
    expect(r.code, r.stderr).toBe(0);
    expect(await readFile(join(dir, "out/config.json"), "utf8")).toBe('{"env":"prod"}');

    await writeFile(join(dir, "infra.ts"), (await readFile(join(dir, "infra.ts"), "utf8")).replace('"out/config.json"', '"out/settings.json"'));
    r = await cli(dir, ["preview", "--json"]);
    const plan = planEvent(r.stdout);
    expect(plan.steps.filter((s) => s.op !== "same").map((s) => `${s.op} ${s.urn}`)).toEqual([
      "replace urn:cairn:dev::hello::local:File::config",
      "update urn:cairn:dev::hello::local:File::readme",
    ]);
    r = await cli(dir, ["preview"]);
    expect(r.stdout).toContain("+/- replace (create first) urn:cairn:dev::hello::local:File::config");
    expect(r.stdout).toMatch(/path: "out\/config.json" → "out\/settings.json" \(forces replacement\)/);
    r = await cli(dir, ["up", "--yes"]);
    expect(r.code, r.stderr).toBe(0);
    await expect(access(join(dir, "out/config.json"))).rejects.toThrow();
    expect(await readFile(join(dir, "out/README.txt"), "utf8")).toBe("config lives in out/settings.json");

    await writeFile(join(dir, "infra.ts"), program(`
  const cfg = new local.File("config", { path: "out/settings.json", content: JSON.stringify({ env: "prod" }) });
  return { configPath: cfg.path };`));
    r = await cli(dir, ["up", "--yes"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("- delete urn:cairn:dev::hello::local:File::readme");
    await expect(access(join(dir, "out/README.txt"))).rejects.toThrow();

    r = await cli(dir, ["state", "list", "--json"]);
    expect(JSON.parse(r.stdout).map((x: { urn: string }) => x.urn)).toEqual(["urn:cairn:dev::hello::local:File::config"]);

    r = await cli(dir, ["destroy", "--yes"]);
    expect(r.code, r.stderr).toBe(0);
    await expect(access(join(dir, "out/settings.json"))).rejects.toThrow();
    r = await cli(dir, ["state", "list"]);
    expect(r.stdout).toContain("no resources");
  });

  it("usage errors exit 2; config set/get and a missing required key", { timeout: 90_000 }, async () => {
    const dir = await tempProject({
      "infra.ts": program(`
  return { name: config.require("name"), port: config.requireNumber("port") };`).replace("() => {", "({ config }) => {"),
    });
    let r = await cli(dir, ["frobnicate"]);
    expect(r.code).toBe(2);
    r = await cli(dir, ["up", "--parallel", "zero", "--yes"]);
    expect(r.code).toBe(2);
    r = await cli(dir, ["preview"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Missing required configuration "name" for stack "dev": set it with `npx tsx infra.ts config set name <value> --stack dev`');
    expect(r.stderr).toContain('Missing required configuration "port"');
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect((await cli(dir, ["config", "set", "name", "web"])).code).toBe(0);
    expect((await cli(dir, ["config", "set", "port", "8080"])).code).toBe(0);
    expect((await cli(dir, ["config", "get", "name"])).stdout.trim()).toBe("web");
    r = await cli(dir, ["up", "--yes"]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse((await cli(dir, ["outputs", "--json"])).stdout)).toEqual({ name: "web", port: 8080 });
  });

  it("importing a program runs nothing", async () => {
    const dir = await tempProject({
      "infra.ts": program(`new local.File("f", { path: "out/f.txt", content: "x" });`),
      "use.ts": `import prog from "./infra.ts";\nconsole.log(JSON.stringify({ name: prog.name }));\n`,
    });
    const { spawnSync } = await import("node:child_process");
    const { REPO } = await import("./cli-harness.js");
    const r = spawnSync(join(REPO, "node_modules/.bin/tsx"), ["use.ts"], { cwd: dir, encoding: "utf8" });
    expect(r.stdout.trim()).toBe('{"name":"hello"}');
    await expect(access(join(dir, ".cairn"))).rejects.toThrow();
  });
});
