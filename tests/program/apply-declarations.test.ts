import { describe, expect, it } from "vitest";
import { programIn, run } from "../cli/harness.js";
import { memoryType } from "../helpers.js";
import { output } from "../../src/program/output.js";
import { readFile } from "node:fs/promises";

const box = memoryType<{ v: unknown }, { v: unknown; made: string }>("apply:decl:Box", { inputs: { v: {} }, outputs: { v: {}, made: {} } }, { outputs: (inputs, id) => ({ made: `${String(inputs.v)}@${id}` }) });
const creates = () => box.calls.filter((c) => c.op === "create").map((c) => c.urn.split("::").pop());

describe("resources declared inside apply() (the CLI)", () => {
  it("on a value known while planning: planned like any other, in one round", async () => {
    const { prog } = await programIn("decl", () => {
      new box.Type("a", { v: output(1).apply((n) => new box.Type("inner", { v: n + 1 }).v) });
    });
    box.calls.length = 0;
    const p = await run(prog, ["preview"]);
    expect(p.code).toBe(0);
    expect(p.stdout).toContain("Plan: 2 to create.");
    expect((await run(prog, ["up", "--yes"])).code).toBe(0);
    expect(creates()).toEqual(["inner", "a"]);
  });

  it("on a value known only after apply: preview shows them deferred (exit 3, JSON partial); up applies them in a second round", async () => {
    const { prog } = await programIn("decl", () => {
      const a = new box.Type("a", { v: "x" });
      a.made.apply((m) => new box.Type(`from-${m.split("@")[0]}`, { v: m }));
    });
    box.calls.length = 0;
    const p = await run(prog, ["preview"]);
    expect(p.code).toBe(3);
    expect(p.stdout).toContain("Deferred until values known during apply (up plans them in its next round):");
    expect(p.stdout).toMatch(/apply:decl:Box "from-…": declared in apply\(\) on a\.made at .*apply-declarations\.test\.ts:\d+:\d+ \(its name, and how many, are known then\)/);
    expect(p.stdout).toContain("Plan: 1 to create, 1 deferred to a later round.");
    const j = await run(prog, ["preview", "--json"]);
    const plan = j.stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l)).find((e) => e.type === "plan");
    expect(plan.partial).toBe(true);
    expect(plan.deferred).toEqual([{ kind: "declared", resource_type: "apply:decl:Box", waits_for: "a.made", name_pattern: "from-…" }]);
    const up = await run(prog, ["up", "--yes"]);
    expect(up.code, up.stderr).toBe(0);
    expect(`${up.stdout}\n${up.stderr}`).toContain("Round 2: the values the first round waited for are known now; planning what they declare.");
    expect(creates()).toEqual(["a", "from-x"]);
    const again = await run(prog, ["preview"]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("No changes.");
  });

  it("a saved plan records what it deferred; up --plan applies it, says so, and plans and applies the rest in the same run", async () => {
    const { prog, dir } = await programIn("decl", () => {
      const a = new box.Type("a", { v: "y" });
      a.made.apply((m) => new box.Type(`from-${m.split("@")[0]}`, { v: m }));
    });
    box.calls.length = 0;
    const file = `${dir}/plan.json`;
    expect((await run(prog, ["preview", "--out", file])).code).toBe(3);
    const saved = JSON.parse(await readFile(file, "utf8")) as { plan: { deferred: unknown[] } };
    expect(saved.plan.deferred).toEqual([{ kind: "declared", type: "apply:decl:Box", pattern: "from-…", waitsFor: "a.made" }]);
    const up = await run(prog, ["up", "--plan", file, "--yes"]);
    expect(up.code, up.stderr).toBe(0);
    expect(`${up.stdout}\n${up.stderr}`).toContain("This plan left 1 part(s) for a later round");
    expect(creates()).toEqual(["a", "from-y"]);
  });

  it("in a terminal, a later round is asked about only when it deletes or replaces something", async () => {
    const names = { list: ["a", "b", "c"] };
    const { prog } = await programIn("decl", () => {
      const src = new box.Type("src", { v: names.list.join(",") });
      src.made.apply((m) => m.split("@")[0]!.split(",").map((n) => new box.Type(`item-${n}`, { v: n })));
    });
    const questions: string[] = [];
    const tty = { stdinIsTTY: true, stdoutIsTTY: true, confirm: async (q: string) => (questions.push(q), true) };
    expect((await run(prog, ["up"], tty)).code).toBe(0);
    expect(questions).toEqual(['Apply these changes to stack "dev"?']); // round 2 only creates: not asked again
    names.list = ["a", "c"];
    questions.length = 0;
    box.calls.length = 0;
    const r = await run(prog, ["up"], tty);
    expect(r.code, r.stderr).toBe(0);
    expect(questions).toEqual(['Apply these changes to stack "dev"?', 'Round 2 deletes or replaces resources. Apply it to stack "dev"?']);
    expect(box.calls.filter((c) => c.op === "delete").map((c) => c.urn.split("::").pop())).toEqual(["item-b"]);
  });
});
