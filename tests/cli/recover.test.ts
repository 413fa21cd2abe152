import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { programIn, run } from "./harness.js";
import { memoryType } from "../helpers.js";

const { Type: Box } = memoryType<{ v: number }>("rec:box:Box");

/** Every file under `dir`, with its size: what a command that changes nothing leaves as it was. */
async function filesIn(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (e.isFile()) out.push(`${join(e.parentPath, e.name).slice(dir.length)}:${(await readFile(join(e.parentPath, e.name))).length}`);
  }
  return out.sort();
}

/** GIVEN a stack whose first version recorded a, and whose second recorded a and b. */
async function twoVersions() {
  let names = ["a"];
  const { prog, dir } = await programIn("rec", () => {
    for (const n of names) new Box(n, { v: 1 });
  });
  expect((await run(prog, ["up", "--yes"])).code).toBe(0);
  names = ["a", "b"];
  expect((await run(prog, ["up", "--yes"])).code).toBe(0);
  return { prog, dir };
}

describe("state recover and --from-backup, from the command line", () => {
  it("a damaged state.json stops every command with the two ways out; recover writes only with --yes, and then all is back", async () => {
    const { prog, dir } = await twoVersions();
    const snapshot = join(dir, ".cairn/stacks/dev/state.json");
    await writeFile(snapshot, (await readFile(snapshot, "utf8")).slice(0, 50));

    // WHEN any command reads it THEN it is refused, naming the file and both ways out
    for (const argv of [["preview"], ["state", "list"], ["outputs"]]) {
      const r = await run(prog, argv);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain(snapshot);
      expect(r.stderr).toContain("is not valid JSON");
      expect(r.stderr).toContain("`npx tsx infra.ts state recover --stack dev`");
      expect(r.stderr).toContain("--from-backup");
    }

    // Off a terminal without --yes: shown, not written
    const asked = await run(prog, ["state", "recover"]);
    expect(asked.code).toBe(2);
    expect(asked.stdout).toContain(`${snapshot} is not valid JSON`);
    expect(asked.stdout).toMatch(/rebuilds the state from stored version \d+\n  \+ 0 journal record\(s\) after it: 2 resource\(s\), 0 removed/);
    expect((await readFile(snapshot, "utf8")).length).toBe(50);

    const done = await run(prog, ["state", "recover", "--yes"]);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toMatch(/Recovered stack "dev" as version \d+/);
    const after = await run(prog, ["preview", "--expect-no-changes"]);
    expect(after.code, after.stdout + after.stderr).toBe(0);
    expect((await run(prog, ["state", "list"])).stdout).toMatch(/Box::a[\s\S]*Box::b/);
    expect((await readdir(join(dir, ".cairn/stacks/dev"))).some((n) => n.startsWith("state.json.damaged-"))).toBe(true);
    expect((await run(prog, ["state", "recover"])).stdout).toContain("reads fine: there is nothing to recover");
  });

  it("--from-backup uses the previous version, saying so", async () => {
    const { prog, dir } = await twoVersions();
    await writeFile(join(dir, ".cairn/stacks/dev/state.json"), "");
    const r = await run(prog, ["preview", "--from-backup"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr + r.stdout).toMatch(/state\.json is unreadable \(is empty\): loaded the previous version \(serial \d+\) .* as --from-backup asked/);
  });

  it("refuses, changing nothing, when no stored version can be read: it says what is left and how to go on", async () => {
    const { prog, dir } = await twoVersions();
    const stackDir = join(dir, ".cairn/stacks/dev");
    const snapshot = join(stackDir, "state.json");
    await writeFile(snapshot, "{ not json");
    await rm(join(stackDir, "history"), { recursive: true, force: true });
    const before = await filesIn(stackDir);

    const r = await run(prog, ["state", "recover", "--yes"]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/state recover cannot rebuild stack dev: no stored version of it can be read \(.*state\.json is not valid JSON.*\), and .*journal\.ndjson continues version \d+, which is lost\./);
    expect(r.stderr).toContain("Writing an empty state would make the next up create every resource again, so nothing was changed");
    expect(r.stderr).toContain("What is left is in the cloud");
    expect(r.stderr).toContain("`npx tsx infra.ts state import <type> <name> <id> --stack dev`");
    expect(r.stdout).not.toMatch(/Recovered stack/);
    expect(await filesIn(stackDir)).toEqual(before);
    expect(await readFile(snapshot, "utf8")).toBe("{ not json");
    // Every command still refuses: nothing was replaced by an empty state
    expect((await run(prog, ["preview"])).code).toBe(1);
  });

  it("does not call a version whose history copy was deleted damaged: it rebuilds from the older readable one, saying what was lost", async () => {
    const { prog, dir } = await twoVersions();
    const stackDir = join(dir, ".cairn/stacks/dev");
    const snapshot = join(stackDir, "state.json");
    const text = await readFile(snapshot, "utf8");
    const serial = (JSON.parse(text) as { serial: number }).serial;
    await writeFile(snapshot, text.slice(0, 80)); // truncated: its head still names its version
    await rm(join(stackDir, "history", `${String(serial).padStart(12, "0")}.json`));
    const asked = await run(prog, ["state", "recover"]);
    expect(asked.stdout).toContain(`${snapshot} is not valid JSON`);
    expect(asked.stdout).not.toMatch(/damaged too/);
    expect(asked.stdout).toMatch(/rebuilds the state from stored version \d+\n/);
    expect(asked.stdout).toContain(`Note: the journal continues version ${serial}, which is lost`);
  });
});

