import { describe, expect, it } from "vitest";
import { programIn, run } from "../cli/harness.js";
import { memoryType } from "../helpers.js";
import { output } from "../../src/program/output.js";

const box = memoryType<{ v: unknown }>("apply:decl:Box");
const count = (text: string, part: string) => text.split(part).length - 1;

describe("resources declared inside apply()", () => {
  it("are refused once, with the plan's verdict on stdout (never 'up to date')", async () => {
    const { prog } = await programIn("decl", () => {
      new box.Type("a", { v: output(1).apply(() => new box.Type("inner", { v: 2 }).id) });
    });
    const r = await run(prog, ["preview"]);
    expect(r.code).toBe(1);
    const all = `${r.stdout}\n${r.stderr}`;
    expect(count(all, `Resource "inner" (apply:decl:Box) was created inside an apply() callback`)).toBe(1);
    expect(r.stdout).toContain("The plan has 1 error(s): nothing can be applied until it is fixed.");
    expect(all).not.toContain("up to date");
  });

  it("are never dropped silently when nothing uses the apply: preview and up refuse, nothing is created", async () => {
    const { prog } = await programIn("decl", () => {
      new box.Type("b", { v: 1 });
      output("x").apply(() => {
        new box.Type("unused", { v: 2 });
        return 1;
      });
    });
    box.calls.length = 0;
    for (const argv of [["preview"], ["up", "--yes"]]) {
      const r = await run(prog, argv);
      expect(r.code, argv.join(" ")).toBe(1);
      expect(`${r.stdout}\n${r.stderr}`).toContain(`An apply() callback whose result nothing uses failed while planning: Resource "unused" (apply:decl:Box) was created inside an apply() callback`);
    }
    expect(box.calls.filter((c) => c.op === "create")).toEqual([]);
  });

  it("state commands work from the stored state alone: the program is not run", async () => {
    let runs = 0;
    let broken = false;
    const { prog } = await programIn("decl", () => {
      runs++;
      if (broken) throw new Error("the program is broken right now");
      new box.Type("c", { v: 1 });
    });
    expect((await run(prog, ["up", "--yes"])).code).toBe(0);
    broken = true;
    runs = 0;
    for (const argv of [["state", "list"], ["state", "show", "c"], ["state", "history"], ["outputs"], ["stack", "ls"], ["config", "list"]]) {
      const r = await run(prog, argv);
      expect(r.code, `${argv.join(" ")}: ${r.stderr}`).toBe(0);
    }
    expect(runs).toBe(0);
  });
});
