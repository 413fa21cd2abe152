import { access } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, tempProject } from "../e2e/cli-harness.js";

// What the program's own code does outside the run must not end it in silence: each way gets one message
// (what happened, where, what it means for the state), a non-zero exit, and the next run is not blocked.

const exists = (p: string) => access(p).then(() => true, () => false);

/** A program file whose body does `body` after declaring one file. */
const programFile = (body: string, name = `"bad"`) => `import { program } from "cairn-iac";
import { local } from "cairn-iac/local";
export default program(${name}, async () => {
  new local.File("a", { path: "out/a.txt", content: "x" });
  ${body}
});
`;

describe("a program that ends the process in the middle of a run", () => {
  it.each([["up", "--yes"], ["preview"]])("a body that awaits a promise that never settles fails `%s` naming the program() line, and releases the lock", async (...args) => {
    const dir = await tempProject({ "infra.ts": programFile("await new Promise(() => {});") });
    const r = await cli(dir, args);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toMatch(/The program "bad" failed while declaring its resources: the program's body never finished \(the program\(\.\.\.\) at infra\.ts:3:16\): it awaits something that never settles/);
    expect(await exists(join(dir, ".cairn/stacks/dev/lock"))).toBe(false);
    expect(await exists(join(dir, "out/a.txt"))).toBe(false);
  });

  it.each([
    ["0", 1],
    ["3", 3],
  ])("process.exit(%s) in the body is said, with its line, exits %s, and the next run takes the lock over", async (code, exit) => {
    const dir = await tempProject({ "infra.ts": programFile(`if (!process.env.FIXED) process.exit(${code});`) });
    const r = await cli(dir, ["up", "--yes"]);
    expect(r.code, r.stdout + r.stderr).toBe(exit);
    expect(r.stderr).toMatch(new RegExp(`error: the program called process\\.exit\\(${code}\\) at infra\\.ts:5:\\d+ while \`up\` was running: the run stopped there, unfinished.*the next run takes it over`));
    const next = await cli(dir, ["up", "--yes"], { FIXED: "1" });
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).toMatch(/removed a stale lock left by pid \d+/);
    expect(await exists(join(dir, "out/a.txt"))).toBe(true);
  });

  it("a promise that rejects after a successful up is said to come from the program after the run, state saved, exit 1, no trace", async () => {
    // Once the run is over and the process would go idle, the program's code rejects.
    const dir = await tempProject({ "infra.ts": programFile(`process.once("beforeExit", () => void Promise.reject(new Error("late boom")));`) });
    const r = await cli(dir, ["up", "--yes"]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(/Done: 1 created/);
    expect(r.stderr).toMatch(/error: after `up` finished, the program's own code failed: a promise rejected and nothing handled it \(late boom\)\. .*its state is saved/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const next = await cli(dir, ["preview"]);
    expect(next.stdout).toMatch(/No changes/);
  });

  it("a promise that rejects while up runs is said, the run still saves what it did, and exits 1", async () => {
    const dir = await tempProject({ "infra.ts": programFile(`void Promise.reject(new Error("early boom"));`) });
    const r = await cli(dir, ["up", "--yes"]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toMatch(/error: while `up` was running, the program's own code failed outside it: a promise rejected and nothing handled it \(early boom\)/);
    expect(await exists(join(dir, ".cairn/stacks/dev/lock"))).toBe(false);
    const next = await cli(dir, ["preview"]);
    expect(next.stderr).toMatch(/early boom/);
  });

  it("a program name with a space, from the environment, is one message naming the program() call and the variable, exit 1, no dump of code", async () => {
    const dir = await tempProject({ "infra.ts": `import { program } from "cairn-iac";\nexport default program(process.env.PROJECT as string, () => {});\n` });
    const r = await cli(dir, ["preview"], { PROJECT: "has space" });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      `error: Invalid program name "has space": a program's name may use only letters, digits, ".", "_" and "-".\n  --> infra.ts:2:16\n` +
        "The name is the first argument of program(...), and names the project in every URN and in the state. It is the value of $PROJECT in the environment.",
    );
  });
});

describe("who failed outside the run", () => {
  it("an error whose first frame is in Cairn's own code is Cairn's (a bug to report), else the program's", async () => {
    const { thrownByCairn } = await import("../../src/cli/process-guard.js");
    const at = (file: string) => Object.assign(new Error("x"), { stack: `Error: x\n    at f (${file}:1:2)\n    at g (/elsewhere.js:3:4)` });
    expect(thrownByCairn(at(join(import.meta.dirname, "../../src/apply/executor.ts")))).toBe(true);
    expect(thrownByCairn(at(join(import.meta.dirname, "../../dist/chunks/chunk-X.js")))).toBe(true);
    expect(thrownByCairn(at("/home/me/app/infra.ts"))).toBe(false);
    expect(thrownByCairn(new Error("made here, in a test of the program's side"))).toBe(false);
    expect(thrownByCairn("a string")).toBe(false);
  });
});
