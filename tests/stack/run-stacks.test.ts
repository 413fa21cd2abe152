import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { program } from "../../src/entry/program.js";
import { runStacks, stackOrder } from "../../src/stack/run-stacks.js";
import { stackOutputs } from "../../src/program/stack-outputs.js";
import { twoStacks } from "../state/two-stacks/two-stacks.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cairn-runstacks-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("runStacks: several stacks in dependency order, in one process", () => {
  it("orders network before the app that reads it, whatever order they are given in", async () => {
    const t = twoStacks({ stateDir: dir, passphrase: "test-pass" }, "order");
    const { order } = await stackOrder([t.app, t.network]);
    expect(order.map((s) => s.name)).toEqual(["network", "app"]);
  });

  it("brings both up in one call, previews them together, and destroys them in reverse without --force", async () => {
    const t = twoStacks({ stateDir: dir, passphrase: "test-pass" }, "runall");
    const up = await runStacks([t.app, t.network], "up");
    expect(up.map((r) => [r.stack.name, r.status])).toEqual([["network", "done"], ["app", "done"]]);
    expect([...t.Server.objects.values()]).toEqual([{ vpc: "vpc-1", password: "s3cret-pw" }]);

    // network's own plan changes its output: app's preview reads it as that plan leaves it, and says so
    t.net.vpc = "vpc-2";
    const pre = await runStacks([t.app, t.network], "preview");
    expect(pre[0]!.plan!.outputsChanged).toBe(true);
    expect(pre[1]!.notes.join("\n")).toContain("network/network, which this stack reads, changes its outputs in its own plan: this plan reads them as that plan leaves them");
    expect(pre[1]!.plan!.steps.filter((s) => s.kind !== "same").map((s) => [s.kind, s.urn.split("::").pop()])).toEqual([["update", "network"], ["update", "server"]]); // the reference records the values it read
    // alone, app's preview reads what network has committed: nothing to do yet
    expect((await t.app.preview()).steps.filter((s) => s.kind !== "same")).toEqual([]);

    const again = await runStacks([t.app, t.network], "up");
    expect(again.map((r) => r.status)).toEqual(["done", "done"]);
    expect([...t.Server.objects.values()]).toEqual([{ vpc: "vpc-2", password: "s3cret-pw" }]);

    const down = await runStacks([t.network, t.app], "destroy");
    expect(down.map((r) => [r.stack.name, r.status])).toEqual([["app", "done"], ["network", "done"]]);
    expect(t.Server.objects.size + t.Subnet.objects.size).toBe(0);
  });

  it("skips a stack whose upstream was not applied, instead of running it against stale outputs", async () => {
    const t = twoStacks({ stateDir: dir, passphrase: "test-pass" }, "skip");
    const r = await runStacks([t.network, t.app], "up", { confirm: async (s) => s !== t.network });
    expect(r.map((x) => [x.stack.name, x.status, x.error])).toEqual([
      ["network", "failed", "not confirmed"],
      ["app", "skipped", "skipped: network/network did not finish"],
    ]);
    expect(t.Server.objects.size).toBe(0);
  });

  it("refuses stacks that read each other in a cycle, naming it", async () => {
    const a = program("a", () => void stackOutputs("b", { stack: "b" })).stack({ stateDir: dir, stack: "a" });
    const b = program("b", () => void stackOutputs("a", { stack: "a" })).stack({ stateDir: dir, stack: "b" });
    await expect(stackOrder([a, b])).rejects.toThrow("These stacks read each other's outputs in a cycle: a/a → b/b → a/a.");
  });
});
