import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, finish, start, tempProject, waitFor } from "./cli-harness.js";
import { slowProgram } from "./programs.js";

const SLOW = slowProgram(2);

describe("state commands on local files, end to end", () => {
  it("keeps every key of concurrent config set runs, and refuses __proto__", async () => {
    const dir = await tempProject({ "infra.ts": SLOW });
    const keys = ["alpha", "beta", "gamma", "delta", "epsilon"];
    const runs = await Promise.all(keys.map((k) => cli(dir, ["config", "set", k, `${k}-value`])));
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    const list = await cli(dir, ["config", "list", "--json"]);
    expect(JSON.parse(list.stdout)).toEqual(Object.fromEntries(keys.map((k) => [k, `${k}-value`])));

    const proto = await cli(dir, ["config", "set", "__proto__", "x"]);
    expect(proto.code).toBe(1);
    expect(proto.stderr).toMatch(/config key "__proto__" is reserved \(it names a property every JavaScript object has\) \(.*config\.json\): choose another key/);
    expect(await readFile(join(dir, ".cairn/stacks/dev/config.json"), "utf8")).not.toContain("__proto__");
  });

  it("unlock refuses while the holder runs, and --force warns naming holder and age", async () => {
    const dir = await tempProject({ "infra.ts": SLOW });
    // Five creates of 4 s one after another: the run outlives the two unlock commands.
    const running = finish(start(dir, ["up", "--yes", "--parallel", "1"], { SLOW_MS: "4000", COUNT: "5" }));
    await waitFor(async () => (await readFile(join(dir, ".cairn/stacks/dev/lock.json"), "utf8").catch(() => "")).includes('"pid"'));

    const refused = await cli(dir, ["unlock"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/stack dev is locked by pid \d+ on \S+ since \S+ \(for \d+s; command: up\), which is still running on this host: the lock was left in place\. .*`npx tsx infra\.ts unlock --stack dev --force` removes the lock anyway/);
    expect(await readFile(join(dir, ".cairn/stacks/dev/lock.json"), "utf8")).toContain('"command": "up"');

    const forced = await cli(dir, ["unlock", "--force"]);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr).toMatch(/warning: removed the lock of stack dev held by pid \d+ on \S+ since \S+ \(for \d+s; command: up\), which is still running on this host: if that run is still active, it and the next run may both write the stack/);
    expect(forced.stdout).toMatch(/^Removed the lock held by pid \d+/);
    const r = await running;
    expect(r.code).toBe(1); // it noticed its lock was gone and stopped writing
    expect(r.stderr + r.stdout).toMatch(/the lock on stack dev .* was lost while this run held it/);
  });

  it("adopts an existing file with state import, renames it with state mv, and preview shows no changes after each", async () => {
    const dir = await tempProject({
      "infra.ts": `
import { program } from "cairn-iac";
import { local } from "cairn-iac/local";
export default program("legacy", () => {
  new local.File(process.env.NAME ?? "motd", { path: "legacy/motd.txt", content: "welcome" });
});
`,
    });
    await mkdir(join(dir, "legacy"));
    await writeFile(join(dir, "legacy/motd.txt"), "welcome");

    const piped = await cli(dir, ["state", "import", "local:File", "motd", "legacy/motd.txt"]);
    expect(piped.code).toBe(2);
    expect(piped.stdout).toContain('Stack "dev" is new: state import creates it.');
    expect(piped.stderr).toContain("state import changes the state and needs confirmation, and this is not an interactive terminal: pass --yes");

    const imported = await cli(dir, ["state", "import", "local:File", "motd", "legacy/motd.txt", "--yes"]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain('Imported local:File "legacy/motd.txt" as urn:cairn:dev::legacy::local:File::motd.');
    expect((await cli(dir, ["preview", "--expect-no-changes"])).code).toBe(0);

    const moved = await cli(dir, ["state", "mv", "motd", "greeting", "--yes"], { NAME: "greeting" });
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stdout).toMatch(/Previous version: \d+ — `npx tsx infra\.ts state rollback \d+` undoes this\./);
    const preview = await cli(dir, ["preview", "--expect-no-changes"], { NAME: "greeting" });
    expect(preview.code, preview.stdout + preview.stderr).toBe(0);
    expect(await readFile(join(dir, "legacy/motd.txt"), "utf8")).toBe("welcome");
  });
});
