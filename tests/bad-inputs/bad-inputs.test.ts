import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Program } from "../../src/entry/program.js";
import { table, AREAS } from "./table.js";
import { runTrial } from "./trial.js";
import { judge } from "./classify.js";
import { removeFolders } from "./run-cli.js";

// The table of bad inputs users have tried, and the one answer each gets: what is wrong, where it came from,
// what to do. Usage mistakes exit 2; everything else exits 1. Every case also checks that the answer came
// without a stack trace, and that neither the state nor the (fake) cloud changed. `npm run trials` runs
// every case and prints the table; this file runs one case in two of each area (all of them with
// CAIRN_TRIALS=all), and fails on any judged wrong. Grow the table when a new one is found.

const all = process.env.CAIRN_TRIALS === "all";
/** One case in two, of each area, so every area is tried on each run. */
const slice = AREAS.flatMap((area) => table.filter((c) => c.area === area).filter((_, i) => all || i % 2 === 0));

const before = process.env.CAIRN_PASSPHRASE;
beforeAll(() => void (process.env.CAIRN_PASSPHRASE = "cli-test"));
afterAll(async () => {
  if (before === undefined) delete process.env.CAIRN_PASSPHRASE;
  else process.env.CAIRN_PASSPHRASE = before;
  await removeFolders();
});

describe("bad inputs: one clear answer each; exit 2 for usage, 1 otherwise; state and cloud unchanged", () => {
  it("the table holds at least 300 cases over every area, each named once", () => {
    expect(table.length).toBeGreaterThanOrEqual(300);
    expect(new Set(table.map((c) => c.what)).size).toBe(table.length);
    for (const area of AREAS.filter((a) => a !== "process exits")) expect(table.some((c) => c.area === area), area).toBe(true);
  });

  it.each(slice.map((c) => [`[${c.area}] ${c.what}`, c] as const))("%s", async (_what, c) => {
    const { outcome: o, judged } = await runTrial(c);
    expect(judged.verdict, `${judged.reasons.join("; ")}\n${o.stdout}\n${o.stderr}`).not.toBe("wrong");
    expect(o.code, `${o.stdout}\n${o.stderr}`).toBe(c.code);
    // Plan errors print with the plan (stdout); everything else on stderr.
    expect(`${o.stderr}\n${o.stdout}`).toMatch(c.message);
    expect(o.stderr).not.toMatch(/\n\s+at .*\(.*:\d+:\d+\)/); // no stack trace
    expect(o.stateChanged, "state unchanged").toBe(false);
    expect(o.cloudChanged, "cloud unchanged").toBe(false);
  });

  it("a program name with a space is refused where it is declared", () => {
    expect(() => new Program("has space", () => {})).toThrow(/Invalid program name "has space": a program's name may use only letters, digits, ".", "_" and "-"/);
  });
});

describe("the judge of a bad input's answer", () => {
  const refused = { code: 1, stdout: "", stateChanged: false, cloudChanged: false };
  const expected = { code: 1, message: /bad lease/ };

  it("calls an answer clear when it says what, where and what to do, with the expected exit", () => {
    expect(judge({ ...refused, stderr: 'error: bad lease "0" in s3://a/b: use lease=60' }, expected).verdict).toBe("clear");
  });

  it("calls an answer harmless when it does not say what to do", () => {
    expect(judge({ ...refused, stderr: 'error: bad lease "0" in s3://a/b' }, expected)).toEqual({ verdict: "harmless", reasons: ["does not say what to do"] });
  });

  it.each([
    ["an accepted input", { ...refused, code: 0, stderr: "" }, /accepted/],
    ["a hang", { ...refused, code: undefined, stderr: "" }, /hung/],
    ["a stack trace", { ...refused, stderr: "error: bad lease\n    at f (/x.js:1:2)" }, /crashed/],
    ["an engine error", { ...refused, stderr: "error: Maximum call stack size exceeded" }, /crashed/],
    ["a changed state", { ...refused, stderr: "error: bad lease: use 60", stateChanged: true }, /the state changed/],
    ["a changed cloud", { ...refused, stderr: "error: bad lease: use 60", cloudChanged: true }, /the cloud changed/],
  ])("calls %s wrong", (_what, outcome, reason) => {
    const j = judge(outcome, expected);
    expect(j.verdict).toBe("wrong");
    expect(j.reasons.join("; ")).toMatch(reason);
  });
});
