import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { programIn, run } from "./harness.js";
import { memoryType } from "../helpers.js";

const box = memoryType<{ v: number }>("backend:url:Box");
const made: string[] = [];
afterAll(async () => {
  for (const d of made) await rm(d, { recursive: true, force: true });
});

describe("the backend URL, from the command line", () => {
  it("file://DIR is honoured by every command after state migrate, as --backend and as CAIRN_BACKEND", async () => {
    const { prog, dir } = await programIn("urls", () => void new box.Type("a", { v: 1 }));
    expect((await run(prog, ["up", "--yes"])).code).toBe(0);
    const target = await mkdtemp(join(tmpdir(), "cairn-migrated-"));
    made.push(target);
    const migrated = await run(prog, ["state", "migrate", "--to", `file://${target}`]);
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(migrated.stdout).toContain(`Use --backend file://${target}`);
    await rm(join(dir, ".cairn"), { recursive: true }); // "remove the old state once you no longer need it"

    for (const [argv, env] of [
      [["state", "list", "--backend", `file://${target}`], {}],
      [["state", "list"], { CAIRN_BACKEND: `file://${target}` }],
      [["preview", "--expect-no-changes", "--backend", `file://${target}`], {}],
      [["config", "list", "--backend", `file://${target}`], {}],
    ] as const) {
      const r = await run(prog, [...argv], { env: { PATH: process.env.PATH, CAIRN_PASSPHRASE: "cli-test", ...env } });
      expect(r.code, `${argv.join(" ")}: ${r.stderr}`).toBe(0);
      expect(r.stderr).not.toContain("does not exist");
    }
    expect((await run(prog, ["state", "list", "--backend", `file://${target}`])).stdout).toContain("backend:url:Box::a");
  });

  it("memory:// is refused before anything runs: it would create real objects and forget them", async () => {
    const { prog } = await programIn("urls", () => void new box.Type("m", { v: 1 }));
    box.calls.length = 0;
    for (const [argv, env, where] of [
      [["up", "--yes", "--backend", "memory://"], {}, "--backend memory://"],
      [["up", "--yes"], { CAIRN_BACKEND: "memory://x" }, "CAIRN_BACKEND memory://x"],
      [["state", "migrate", "--to", "memory://"], {}, "--to memory://"],
    ] as const) {
      const r = await run(prog, [...argv], { env: { PATH: process.env.PATH, CAIRN_PASSPHRASE: "cli-test", ...env } });
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.stderr).toContain(`${where} keeps the state in this process's memory only`);
    }
    expect(box.calls).toEqual([]);
  });
});
