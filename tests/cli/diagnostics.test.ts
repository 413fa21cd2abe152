import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { jsonEvent } from "../../src/cli/json/schema.js";
import { local } from "../../src/providers/local/index.js";
import { BUG_NOTE, EXIT, reportError, UsageError } from "../../src/cli/errors.js";
import { DiagnosticsError, UserError } from "../../src/core/diagnostic.js";
import { noColors } from "../../src/core/colors.js";
import { output } from "../../src/program/output.js";
import { programIn, run } from "./harness.js";

/** The line of this file that declares the bad file, as a site prints it. */
const BAD_LINE = readFileSync(new URL(import.meta.url), "utf8").split("\n").findIndex((l) => l.trimStart().startsWith('new local.File("bad"')) + 1;
const SITE = new RegExp(`^tests/cli/diagnostics\\.test\\.ts:${BAD_LINE}:\\d+$`);
const URN = "urn:cairn:dev::diag::local:File::bad";
const LOOP_LINE = readFileSync(new URL(import.meta.url), "utf8").split("\n").findIndex((l) => l.trimStart().startsWith("for (const n of [1, 2]) output(n)")) + 1;

const badProgram = () => {
  new local.File("bad", { path: "", content: "x" });
};

/** What `reportError` prints for `e`, and its exit code. */
function reported(e: unknown, debug = false): { code: number; text: string } {
  const lines: string[] = [];
  const code = reportError(e, (s) => lines.push(s), noColors, debug);
  return { code, text: lines.join("\n") };
}

const site = { toString: () => "infra.ts:12:3" };

describe("diagnostics, as the CLI shows them", () => {
  it("a provider's check diagnostic reaches preview with its attribute and site, and the site is printed once", async () => {
    const { prog } = await programIn("diag", badProgram);
    const r = await run(prog, ["preview"]);
    expect(r.code).toBe(EXIT.failure);
    const lines = r.stdout.split("\n");
    const at = lines.findIndex((l) => l === 'error: "bad" (local:File), input "path": must be a non-empty string');
    expect(at, r.stdout).toBeGreaterThanOrEqual(0);
    expect(lines[at + 1]).toMatch(new RegExp(`^  --> tests/cli/diagnostics\\.test\\.ts:${BAD_LINE}:\\d+$`));
    expect(r.stdout.split(`diagnostics.test.ts:${BAD_LINE}:`)).toHaveLength(2);
  });

  it("--json carries the diagnostic's site as a string, with its attribute and URN, in the plan event", async () => {
    const { prog } = await programIn("diag", badProgram);
    const r = await run(prog, ["preview", "--json"]);
    const plan = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as { type: string; diagnostics?: Record<string, unknown>[] }).find((e) => e.type === "plan")!;
    expect(() => jsonEvent.parse(plan)).not.toThrow();
    expect(plan.diagnostics).toEqual([
      {
        severity: "error", urn: URN, attribute: "path", site: expect.stringMatching(SITE),
        summary: '"bad" (local:File), input "path": must be a non-empty string', message: '"bad" (local:File), input "path": must be a non-empty string',
      },
    ]);
  });

  it("a command's error event in --json carries the diagnostics of an error the user can fix", async () => {
    const { prog } = await programIn("diag", () => {});
    const r = await run(prog, ["up", "--yes", "--plan", "no-such-plan.json", "--json"]);
    expect(r.code).toBe(EXIT.failure);
    const error = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as { type: string }).find((e) => e.type === "error")!;
    expect(() => jsonEvent.parse(error)).not.toThrow();
    expect(error).toMatchObject({ diagnostics: [{ severity: "error", summary: expect.stringMatching(/Cannot read the plan file .*no-such-plan\.json/) }] });
  });
});

describe("reportError", () => {
  it("prints an error the user can fix as its diagnostic: summary, where, what to do, and no stack trace", () => {
    const e = new UserError({ summary: 'two resources are named "db"', detail: "Give one of them another name.", urn: "urn:cairn:dev::p::t:m:T::db", site });
    const { code, text } = reported(e);
    expect(code).toBe(EXIT.failure);
    expect(text).toBe('error: two resources are named "db"\n  --> infra.ts:12:3\nGive one of them another name.');
  });

  it("prints every diagnostic of a DiagnosticsError under its heading, each site once", () => {
    const e = new DiagnosticsError(
      [
        { severity: "error", summary: "a is wrong", urn: "urn:a", site },
        { severity: "error", summary: "b is wrong" },
      ],
      "The plan has 2 error(s); nothing was changed:",
    );
    expect(reported(e).text).toBe("error: The plan has 2 error(s); nothing was changed:\n  - a is wrong\n    --> infra.ts:12:3\n  - b is wrong");
  });

  it("prints any other error as a fault of Cairn or a provider: its message and the note, its stack only with --debug", () => {
    const e = new TypeError("Cannot read properties of undefined (reading 'x')");
    const plain = reported(e);
    expect(plain.code).toBe(EXIT.failure);
    expect(plain.text).toBe(`error: Cannot read properties of undefined (reading 'x')\n${BUG_NOTE}`);
    expect(plain.text).not.toMatch(/\n\s+at /);
    const debug = reported(e, true);
    expect(debug.text).toContain(e.stack!);
    expect(debug.text).not.toContain(BUG_NOTE);
  });

  it("a UserError's stack is shown only with --debug too", () => {
    const e = new UserError({ summary: "no region" });
    expect(reported(e).text).toBe("error: no region");
    expect(reported(e, true).text).toContain(e.stack!);
  });

  it("a usage error is a user error that exits 2", () => {
    const e = new UsageError("up needs confirmation: pass --yes");
    expect(e).toBeInstanceOf(UserError);
    expect(reported(e)).toEqual({ code: EXIT.usage, text: "error: up needs confirmation: pass --yes" });
  });

  it("the CLI passes --debug on to the error report: a non-user error's stack is printed only then", async () => {
    const { prog } = await programIn("diag", () => void new local.File("f", { path: "f.txt", content: "x" }));
    const boom = new Error("internal invariant broken");
    const io = { confirm: async () => { throw boom; }, stdinIsTTY: true, stdoutIsTTY: true };
    const plain = await run(prog, ["up", "--no-color"], io);
    const debug = await run(prog, ["up", "--no-color", "--debug"], io);
    expect(plain.stderr).toContain("error: internal invariant broken");
    expect(plain.stderr).toContain(BUG_NOTE);
    expect(plain.stderr).not.toContain(boom.stack!.split("\n")[1]!);
    expect(debug.stderr).toContain(boom.stack!.split("\n")[1]!);
  });
});

describe("the planner's diagnostics", () => {
  it("one problem reported twice is one diagnostic (by key): two unused apply() callbacks that fail the same way", async () => {
    const { prog } = await programIn("diag", () => {
      const fail = () => {
        throw new Error("zone not found");
      };
      for (const n of [1, 2]) output(n).apply(fail); // one line: the same problem twice
    });
    const r = await run(prog, ["preview", "--json"]);
    const plan = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as { type: string; diagnostics?: { summary: string }[] }).find((e) => e.type === "plan")!;
    expect(plan.diagnostics?.map((d) => d.summary)).toEqual([
      expect.stringMatching(new RegExp(`^An apply\\(\\) callback whose result nothing uses failed while planning: zone not found \\(thrown by the apply\\(\\) callback at tests/cli/diagnostics\\.test\\.ts:${LOOP_LINE}:\\d+ on a value\\)$`)),
    ]);
  });
});

describe("an error the program's body throws", () => {
  it("a UserError that names the user's line reaches the CLI as it is, its site printed once under the summary", async () => {
    const { prog } = await programIn("diag", () => {
      throw new UserError({ summary: "the zone name is empty", detail: "Set config zone.", urn: "urn:cairn:dev::diag::x:y:Z::zone", site: { toString: () => "infra.ts:7:3" } });
    });
    const r = await run(prog, ["preview", "--no-color"]);
    expect(r.code).toBe(EXIT.failure);
    expect(r.stderr).toContain("error: the zone name is empty\n  --> infra.ts:7:3\nSet config zone.");
    expect(r.stderr.split("infra.ts:7:3")).toHaveLength(2);
  });
});
