import { describe, expect, it } from "vitest";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { programIn, run } from "./cli/harness.js";
import { defineResource } from "../src/program/define.js";
import { ComponentResource } from "../src/program/resource.js";
import { output } from "../src/program/output.js";
import { wait } from "../src/wait/wait.js";
import { Program } from "../src/program/program.js";
import type { ProgramFn } from "../src/program/program.js";
import { memoryProvider } from "./helpers.js";

// The table of bad inputs users have tried, and the one-line answer each gets: what is wrong, where it
// came from, what is allowed. Usage mistakes exit 2; everything else exits 1. Grow it when a new one is found.

const Box = defineResource<{ v?: unknown }, { v?: unknown }>("bad:in:Box", { provider: memoryProvider().provider as never, schema: { inputs: { v: {} }, outputs: { v: {} } } });
const OtherPkg = { package: "other", name: "p", settings: {} };

interface Case {
  what: string;
  argv: string[];
  program?: ProgramFn;
  code: 1 | 2;
  message: RegExp;
  /** Prepares the stack folder before the run. */
  before?: (dir: string) => Promise<void>;
}

const ok: ProgramFn = () => void new Box("a", { v: 1 });

const cases: Case[] = [
  // The command line (usage: exit 2).
  { what: "--parallel below 1", argv: ["preview", "--parallel", "0"], code: 2, message: /--parallel.*It must be a whole number ≥ 1/ },
  { what: "--parallel not a number", argv: ["preview", "--parallel", "many"], code: 2, message: /--parallel.*It must be a whole number ≥ 1/ },
  { what: "a mistyped command", argv: ["upp"], code: 2, message: /unknown command 'upp'.*up/s },
  { what: "a mistyped option", argv: ["up", "--yess"], code: 2, message: /unknown option '--yess'/ },
  { what: "an option without its value", argv: ["up", "--plan"], code: 2, message: /option '--plan <file>' argument missing/ },
  { what: "--plan with planning options", argv: ["up", "--plan", "p.json", "--target", "urn:x"], code: 2, message: /--plan applies a saved plan as it is: --target, --replace/ },
  { what: "a rollback version that is not a number", argv: ["state", "rollback", "latest"], code: 2, message: /a version is a whole number from `state history` \(got "latest"\)/ },
  { what: "config set without a value", argv: ["config", "set", "region"], code: 2, message: /missing required argument 'value'/ },
  { what: "up with changes, off a terminal, without --yes", argv: ["up"], code: 2, message: /pass --yes/ },
  // The command line (not usage: exit 1).
  { what: "an unknown --stack for destroy", argv: ["destroy", "--yes", "--stack", "prdo"], code: 1, message: /Stack "prdo" does not exist/ },
  { what: "a --target that names nothing", argv: ["preview", "--target", "urn:cairn:dev::bad::bad:in:Box::nope"], code: 1, message: /--target urn:cairn:dev::bad::bad:in:Box::nope: no resource with this URN/ },
  { what: "a --replace that names nothing", argv: ["preview", "--replace", "urn:nope"], code: 1, message: /--replace urn:nope: no resource with this URN in the program/ },
  { what: "a plan file that does not exist", argv: ["up", "--plan", "missing.json", "--yes"], code: 1, message: /Cannot read the plan file missing.json: .*Write one with `preview --out missing.json`/ },
  { what: "a reserved config key", argv: ["config", "set", "__proto__", "x"], code: 1, message: /__proto__.*is reserved/ },
  { what: "a backend URL of an unknown kind", argv: ["preview", "--backend", "ftp://host/state"], code: 1, message: /ftp/ },
  // The program (exit 1, naming the resource and option).
  { what: "two resources with one type and name", program: () => { new Box("a", {}); new Box("a", {}); }, argv: ["preview"], code: 1, message: /Duplicate resource URN urn:cairn:dev::bad::bad:in:Box::a: resource "a" \(bad:in:Box\) and resource "a" \(bad:in:Box\)/ },
  { what: 'a name with "::"', program: () => void new Box("a::b", {}), argv: ["preview"], code: 1, message: /The name "a::b" of a bad:in:Box resource cannot contain "::"/ },
  { what: "an empty name", program: () => void new Box("", {}), argv: ["preview"], code: 1, message: /A bad:in:Box resource needs a non-empty name \(got ""\)/ },
  { what: "customTimeouts that are not durations", program: () => void new Box("a", {}, { customTimeouts: { create: "soon" } }), argv: ["preview"], code: 1, message: /customTimeouts.create of Resource "a" \(bad:in:Box\): invalid duration "soon"/ },
  { what: "a zero timeout", program: () => void new Box("a", {}, { customTimeouts: { update: "0s" } }), argv: ["preview"], code: 1, message: /must be longer than zero \(got "0s"\)/ },
  { what: "a wait that would poll without pause", program: () => void wait(new Box("a", {}), { until: (b) => b.v.eq(1), interval: "0s" }), argv: ["preview"], code: 1, message: /interval of wait\(a\) must be longer than zero/ },
  { what: "a wait timeout that is not a duration", program: () => void wait(new Box("a", {}), { until: (b) => b.v.eq(1), timeout: "forever" }), argv: ["preview"], code: 1, message: /timeout of wait\(a\): invalid duration "forever"/ },
  { what: "a wait on a component", program: () => void wait(new ComponentResource("bad:in:Group", "g") as never, { until: () => undefined as never }), argv: ["preview"], code: 1, message: /wait\(\) cannot wait on the component "g"/ },
  { what: "ignoreChanges as one string", program: () => void new Box("a", {}, { ignoreChanges: "v" as never }), argv: ["preview"], code: 1, message: /ignoreChanges must be a list of input attribute names/ },
  { what: "protect as text", program: () => void new Box("a", {}, { protect: "yes" as never }), argv: ["preview"], code: 1, message: /protect must be true or false \(got "yes"\)/ },
  { what: "dependsOn something that is not a resource", program: () => void new Box("a", {}, { dependsOn: ["b" as never] }), argv: ["preview"], code: 1, message: /dependsOn of "a" \(bad:in:Box\) must list resources or waits; got b/ },
  { what: "a provider of another package", program: () => void new Box("a", {}, { provider: OtherPkg }), argv: ["preview"], code: 1, message: /was given the other provider "p", which cannot manage bad resources/ },
  { what: "a Date as an input", program: () => void new Box("a", { v: new Date(0) }), argv: ["preview"], code: 1, message: /input "v" is a Date: pass date.toISOString\(\)/ },
  { what: "NaN inside an input", program: () => void new Box("a", { v: { n: [Number.NaN] } }), argv: ["preview"], code: 1, message: /input "v.n\[0\]" is NaN, which is not a finite number/ },
  { what: "a resource created inside apply()", program: () => void new Box("a", { v: output(1).apply(() => new Box("inner", {}).v) }), argv: ["preview"], code: 1, message: /Resource "inner" \(bad:in:Box\) was created inside an apply\(\) callback/ },
  { what: "a required config value that is not set", program: ({ config }) => void new Box("a", { v: config.require("region") }), argv: ["preview"], code: 1, message: /Missing required configuration "region" for stack "dev": set it with `npx tsx infra.ts config set region <value> --stack dev`/ },
  { what: "an output used as a string", program: () => void new Box("a", { v: `${new Box("b", {}).v}` }), argv: ["preview"], code: 1, message: /An Output was used as a string.*use `out.apply/s },
  // State (exit 1, naming the file).
  {
    what: "a state file from a newer Cairn",
    argv: ["preview"],
    code: 1,
    message: /state.json was written by a newer Cairn \(format v99, this build reads v1\): upgrade cairn/,
    before: async (dir) => {
      await mkdir(join(dir, ".cairn/stacks/dev"), { recursive: true });
      await writeFile(join(dir, ".cairn/stacks/dev/state.json"), JSON.stringify({ version: 99, project: "bad", stack: "dev", serial: 1, resources: {}, outputs: {} }));
    },
  },
];

describe("bad inputs: a one-line answer each, exit 2 for usage and 1 otherwise", () => {
  it.each(cases.map((c) => [c.what, c] as const))("%s", async (_what, c) => {
    const { prog, dir } = await programIn("bad", c.program ?? ok);
    await c.before?.(dir);
    if (c.argv.includes("destroy")) await run(prog, ["up", "--yes"]);
    const r = await run(prog, c.argv);
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(c.code);
    // Plan errors print with the plan (stdout); everything else on stderr.
    expect(`${r.stderr}\n${r.stdout}`).toMatch(c.message);
    expect(r.stderr).not.toMatch(/\n\s+at .*\(.*:\d+:\d+\)/); // no stack trace
  });

  it("a program name with a space is refused where it is declared", () => {
    expect(() => new Program("has space", () => {})).toThrow(/Invalid program name "has space": use letters, digits, ".", "_" or "-"/);
  });
});
