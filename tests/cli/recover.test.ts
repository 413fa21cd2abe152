import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { programIn, run } from "./harness.js";
import { memoryType } from "../helpers.js";

const { Type: Box } = memoryType<{ v: number }>("rec:box:Box");

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
});
