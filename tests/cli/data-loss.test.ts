import { describe, expect, it } from "vitest";
import { programIn, run } from "./harness.js";
import { memoryType } from "../helpers.js";

/**
 * A user's own stateful type (its schema says `stateful: true`): `engine` cannot change in place. The
 * program's `engine` is read from `vars`, so a test changes it between runs.
 */
function dbApp() {
  const db = memoryType<{ engine: string }>("test:cli:Db", { inputs: { engine: { forceNew: true } }, outputs: {}, stateful: true });
  const vars = { engine: "postgres" };
  return { db, vars, made: programIn("shop", () => void new db.Type("orders", { engine: vars.engine })) };
}

const URN = "urn:cairn:dev::shop::test:cli:Db::orders";

describe("the CLI with a plan that loses data", () => {
  it("preview marks the replace, says up will refuse it, and exits 0", async () => {
    const { vars, made } = dbApp();
    const { prog } = await made;
    expect((await run(prog, ["up", "--yes"])).code).toBe(0);
    vars.engine = "mysql";
    const r = await run(prog, ["preview"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`+/- replace (create first) ${URN}\n      ! data loss: replaces the Db because engine changed: the old one is deleted with its data`);
    expect(r.stdout).toContain(`! 1 step deletes a stateful object with its data (marked "! data loss"): up refuses it unless allowed, with --allow-data-loss <name> or the resource's allowDataLoss: true.`);
  });

  it("up --yes refuses it before anything is applied, exits 1 and says what to do; --allow-data-loss lets it go", async () => {
    const { db, vars, made } = dbApp();
    const { prog } = await made;
    expect((await run(prog, ["up", "--yes"])).code).toBe(0);
    vars.engine = "mysql";
    const calls = db.calls.length;
    const refused = await run(prog, ["up", "--yes"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("error: up refused: the plan deletes a stateful object and the data in it; nothing was applied:");
    expect(refused.stderr).toMatch(new RegExp(`  - ${URN} \\(test:cli:Db, declared at tests/cli/data-loss\\.test\\.ts:12:\\d+\\): replaces the Db because engine changed`));
    expect(refused.stderr).toContain("add `--allow-data-loss orders` to the up command");
    expect(db.calls.length).toBe(calls);
    expect([...db.objects.values()]).toEqual([{ engine: "postgres" }]);

    const allowed = await run(prog, ["up", "--yes", "--allow-data-loss", "orders"]);
    expect(allowed.code).toBe(0);
    expect(db.calls.slice(calls).map((c) => c.op)).toEqual(["create", "delete"]);
    expect([...db.objects.values()]).toEqual([{ engine: "mysql" }]);
  });

  it("preview --json carries data_loss on the step", async () => {
    const { vars, made } = dbApp();
    const { prog } = await made;
    await run(prog, ["up", "--yes"]);
    vars.engine = "mysql";
    const r = await run(prog, ["preview", "--json"]);
    const plan = r.stdout.split("\n").map((l) => JSON.parse(l) as { type: string; steps?: { op: string; data_loss?: unknown }[] }).find((e) => e.type === "plan");
    expect(plan?.steps?.map((s) => [s.op, s.data_loss])).toEqual([["replace", { allowed: false }]]);
  });
});
