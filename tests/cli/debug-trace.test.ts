import { describe, expect, it } from "vitest";
import type { ProgramFn } from "../../src/entry/program.js";
import { defineResource } from "../../src/program/define.js";
import { secret } from "../../src/program/output.js";
import type { Provider } from "../../src/provider/provider.js";
import { programIn, run } from "./harness.js";
import "../../src/providers/aws/error-kinds.js"; // ThrottlingException is classified as the AWS layer says

const PASSWORD = "hunter2-very-secret";
let throttles = 0; // transient failures the next creates of "flaky" meet before one succeeds

const provider: Provider<{ v: number; password?: string }, { v: number }> = {
  async create({ urn, inputs }) {
    if (inputs.password) throw new Error(`login refused for password ${inputs.password}`);
    if (urn.endsWith("::flaky") && throttles-- > 0) throw Object.assign(new Error("Rate exceeded"), { name: "ThrottlingException" });
    return { id: urn, outputs: { v: inputs.v } };
  },
  async read({ outputs }) {
    return outputs;
  },
  async update({ news }) {
    return { v: news.v };
  },
  async delete() {},
};
const Thing = defineResource<{ v: number; password?: string }, { v: number }>("dbg:Thing", { provider, schema: { inputs: { v: {}, password: {} }, outputs: { v: {} } } });

let v = 1; // the value the "plain" program declares
const plain: ProgramFn = () => void new Thing("plain", { v });
const lines = (stderr: string) => stderr.split("\n").filter((l) => l.startsWith("[debug] "));

describe("the debug trace (--debug, CAIRN_LOG=debug)", () => {
  it("prints a line per provider call with its duration and outcome, and a line per plan decision with its reason", async () => {
    v = 1;
    const { prog } = await programIn("dbg", plain);
    const first = await run(prog, ["up", "--yes", "--debug"]);
    expect(first.code, first.stderr).toBe(0);
    expect(lines(first.stderr)).toEqual([
      "[debug] plan create urn:cairn:dev::dbg::dbg:Thing::plain: not in state",
      expect.stringMatching(/^\[debug\] provider create dbg:Thing urn:cairn:dev::dbg::dbg:Thing::plain \d+ms ok$/),
    ]);
    // WHEN the program changes v THEN the plan says which key changed, and the update call is traced
    v = 2;
    const changed = await run(prog, ["up", "--yes", "--debug"]);
    expect(lines(changed.stderr)).toEqual([
      "[debug] plan update urn:cairn:dev::dbg::dbg:Thing::plain: changed v",
      expect.stringMatching(/^\[debug\] provider update dbg:Thing urn:cairn:dev::dbg::dbg:Thing::plain \d+ms ok$/),
    ]);
  });

  it("says which calls failed, how (transient or not), and which were retries", async () => {
    throttles = 1;
    const { prog } = await programIn("dbg", () => void new Thing("flaky", { v: 1 }));
    const r = await run(prog, ["up", "--yes"], { env: { PATH: process.env.PATH, CAIRN_PASSPHRASE: "cli-test", CAIRN_LOG: "debug" } });
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stderr).filter((l) => l.includes("provider create"))).toEqual([
      expect.stringMatching(/provider create dbg:Thing \S+::flaky \d+ms error \(transient\): Rate exceeded$/),
      expect.stringMatching(/provider create dbg:Thing \S+::flaky \d+ms ok \(retry 1\)$/),
    ]);
  });

  it("never shows a secret input, even in a provider's error message", async () => {
    const { prog } = await programIn("dbg", () => void new Thing("login", { v: 1, password: secret(PASSWORD) as unknown as string }));
    const r = await run(prog, ["up", "--yes", "--debug"]);
    expect(r.code).toBe(1);
    expect(lines(r.stderr)).toContainEqual(expect.stringMatching(/provider create dbg:Thing \S+::login \d+ms error \(permanent\): login refused for password \[secret\]$/));
    expect(r.stderr).not.toContain(PASSWORD);
  });

  it("with --json, the trace goes to stderr and stdout stays one JSON event a line", async () => {
    v = 1;
    const { prog } = await programIn("dbg", plain);
    const r = await run(prog, ["up", "--yes", "--json", "--debug"]);
    expect(r.code, r.stderr).toBe(0);
    for (const line of r.stdout.split("\n").filter(Boolean)) expect(() => JSON.parse(line), line).not.toThrow();
    expect(lines(r.stderr)).toContainEqual(expect.stringMatching(/provider create dbg:Thing \S+::plain \d+ms ok$/));
  });

  it("prints nothing without --debug or CAIRN_LOG=debug", async () => {
    v = 1;
    const { prog } = await programIn("dbg", plain);
    const r = await run(prog, ["up", "--yes"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain("[debug]");
  });
});
