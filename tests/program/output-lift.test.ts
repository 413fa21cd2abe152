import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { firstValueFrom } from "rxjs";
import { Output, all, output, secret } from "../../src/program/output.js";
import { OutputMisuseError } from "../../src/program/output-misuse.js";
import { EvalContext, runInContext } from "../../src/program/context.js";
import { ValueResolver, unknownValue } from "../../src/runtime/values.js";
import { NODE } from "../../src/program/resource.js";
import { memoryType } from "../helpers.js";
import { program } from "../../src/entry/program.js";
import { wait } from "../../src/wait/wait.js";
import { seconds } from "../../src/core/duration.js";
import { UNKNOWN } from "../../src/core/unknown.js";
import { Command } from "../../src/providers/local/command.js";
import { File } from "../../src/providers/local/file.js";
import { mocks, testProgram } from "../../src/testing/index.js";

const ctx = () => new EvalContext("p", "dev", "npx tsx infra.ts");
type Endpoint = { address: string; port?: number; apply?: string; node?: string; next?: string; attribute?: string };
const { Type: Db } = memoryType<{ n: number }, { n: number; endpoint: Endpoint; hosts: string[] }>("test:lift:Db", {
  inputs: { n: {} },
  outputs: { n: {}, endpoint: {}, hosts: {} },
});

/** A resolver in which resource `db` has published `outputs` (with `secretKeys` secret). */
function published(outputs: Record<string, unknown>, secretKeys: string[] = []) {
  const r = new ValueResolver();
  const db = runInContext(ctx(), () => new Db("db", { n: 1 }));
  r.publish(db[NODE], { id: "db-1", outputs, unknown: new Set(), restUnknown: false, secretKeys: new Set(secretKeys) });
  return { r, db };
}

const state = <T>(o: Output<T>, r: ValueResolver) => firstValueFrom(o.resolve(r));

describe("lifted property access on outputs", () => {
  const endpoint = { address: "db.local", port: 5432, apply: "field named apply" };

  it("a field of an output's object is an output of the field's value", async () => {
    const { r, db } = published({ n: 1, endpoint, hosts: ["a", "b"] });
    const address = db.endpoint.address;
    expect(address).toBeInstanceOf(Output);
    expect(await state(address, r)).toMatchObject({ known: true, value: "db.local", secret: false });
    expect(await state(db.endpoint.port, r)).toMatchObject({ known: true, value: 5432 });
  });

  it("array elements and length are lifted too", async () => {
    const { r, db } = published({ n: 1, endpoint, hosts: ["a", "b"] });
    // Under noUncheckedIndexedAccess an index reads as possibly undefined; the output is always there.
    expect(await state(db.hosts[1]!, r)).toMatchObject({ known: true, value: "b" });
    expect(await state(db.hosts[5]!, r)).toMatchObject({ known: true, value: undefined });
    expect(await state(db.hosts.length, r)).toMatchObject({ known: true, value: 2 });
  });

  it("lifting goes as deep as the value does, and a field of nothing is undefined", async () => {
    const o = output<{ a?: { b: { c: number } } }>({ a: { b: { c: 3 } } });
    const r = new ValueResolver();
    expect(await state(o.a.b.c, r)).toMatchObject({ known: true, value: 3 });
    expect(await state(output<{ a?: { b: number } }>({}).a.b, r)).toMatchObject({ known: true, value: undefined });
  });

  it("a field depends on the parent's resources, as apply does", async () => {
    const { r, db } = published({ n: 1, endpoint, hosts: [] });
    expect(db.endpoint.address.resources).toEqual([db[NODE]]);
    expect(db.endpoint.address.resources).toEqual(db.endpoint.apply((e) => e.address).resources);
    expect((await state(db.endpoint.address, r)).deps).toEqual([db[NODE]]);
  });

  it("a field of a secret is secret", async () => {
    const { r, db } = published({ n: 1, endpoint, hosts: [] }, ["endpoint"]);
    expect(await state(db.endpoint.address, r)).toMatchObject({ known: true, value: "db.local", secret: true });
    expect(await state(secret({ k: "v" }).k, r)).toMatchObject({ known: true, value: "v", secret: true });
    expect((await state(output({ k: "v" }).k, r)).secret).toBe(false);
  });

  it("a field of an unknown is unknown, and keeps the parent's secrecy", async () => {
    const r = new ValueResolver();
    const db = runInContext(ctx(), () => new Db("db", { n: 1 }));
    r.publish(db[NODE], unknownValue(new Set(["endpoint"])));
    const s = await state(db.endpoint.address, r);
    expect(s).toMatchObject({ known: false, secret: true });
    expect(await state(db.endpoint.apply((e) => e.address), r)).toMatchObject({ known: false, secret: true });
  });

  it("the output's own members win over fields of the same name: such a field is reached through apply", async () => {
    const { r, db } = published({ n: 1, endpoint, hosts: [] });
    expect(typeof db.endpoint.apply).toBe("function");
    expect(await state(db.endpoint.apply((e) => e.apply), r)).toMatchObject({ value: "field named apply" });
  });

  it("an output's internal state hides no field: node, next and attribute are lifted like any other", async () => {
    const { r, db } = published({ n: 1, endpoint: { ...endpoint, node: "N", next: "X", attribute: "A" }, hosts: [] });
    expect(await state(all([db.endpoint.node, db.endpoint.next, db.endpoint.attribute]), r)).toMatchObject({ known: true, value: ["N", "X", "A"] });
  });

  it("an output is not thenable, and names every object has are not lifted", async () => {
    const o = output({ then: 1, hasOwnProperty: 2 });
    expect((o as unknown as { then?: unknown }).then).toBeUndefined();
    expect(await Promise.resolve(o)).toBe(o);
    expect(typeof o.hasOwnProperty).toBe("function");
    expect("address" in output({ address: "x" })).toBe(false); // `in` is not lifted: duck-typing stays false
  });

  it("lifted fields compose with all and apply", async () => {
    const { r, db } = published({ n: 1, endpoint, hosts: [] });
    const url = all([db.endpoint.address, db.endpoint.port]).apply(([a, p]) => `${a}:${p}`);
    expect(await state(url, r)).toMatchObject({ known: true, value: "db.local:5432" });
  });
});

/** The line of this file holding `marker` (so the expected site follows edits to the file). */
function lineOf(marker: string): number {
  const lines = readFileSync(fileURLToPath(import.meta.url), "utf8").split("\n");
  return lines.findIndex((l) => l.includes(marker) && !l.includes("lineOf(")) + 1;
}

/** The error `f` throws. */
function thrown(f: () => unknown): Error {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error("did not throw");
}

describe("an output misused as a string names the user's line", () => {
  const here = relative(process.cwd(), fileURLToPath(import.meta.url));
  const o = output({ address: "db.local" });

  it("in a template string: the message names file:line and says to use interpolate or apply", () => {
    const e = thrown(() => `host=${o.address}`); // misuse: template
    expect(e).toBeInstanceOf(OutputMisuseError);
    expect(e.message).toContain(`used as a string at ${here}:${lineOf("misuse: template")}:`);
    expect(e.message).toContain("interpolate`…${out}…`");
    expect(e.message).toContain("out.apply((v) => `…${v}…`)");
    expect((e as OutputMisuseError).site).toMatch(new RegExp(`^${here}:${lineOf("misuse: template")}:\\d+$`));
  });

  it("in string concatenation and String()", () => {
    const plus = thrown(() => "host=" + o.address); // misuse: plus
    expect(plus.message).toContain(`${here}:${lineOf("misuse: plus")}:`);
    const str = thrown(() => String(o)); // misuse: String
    expect(str.message).toContain(`${here}:${lineOf("misuse: String")}:`);
    const call = thrown(() => o.toString()); // misuse: toString
    expect(call.message).toContain(`${here}:${lineOf("misuse: toString")}:`);
  });

  it("in JSON.stringify: the message names file:line and says to stringify inside apply", () => {
    const e = thrown(() => JSON.stringify({ nested: { o } })); // misuse: json
    expect(e.message).toContain(`passed to JSON.stringify at ${here}:${lineOf("misuse: json")}:`);
    expect(e.message).toContain("out.apply((v) => JSON.stringify(v))");
  });

  it("names the output by its resource and attribute when it has one", () => {
    const { db } = published({ n: 1, endpoint: { address: "x" }, hosts: [] });
    expect(thrown(() => `${db.endpoint.address}`).message).toMatch(/^The Output db\.endpoint\.address was used as a string at /);
    expect(thrown(() => `${o}`).message).toMatch(/^An Output was used as a string at /);
  });
});

describe("a lifted field of a wait's attribute is gated like apply", () => {
  type Health = { status: string; url: string };
  const starting: Health = { status: "starting", url: "http://x" };
  const ready: Health = { status: "ready", url: "http://x" };

  /** A server whose read reports `states` in turn (switchable), a wait for "ready", and its url read both ways. */
  function gated() {
    let list = [starting];
    let n = 0;
    const mock = mocks.provider({
      async create() {
        n = 0;
        return { id: "cmd-1", outputs: { stdout: "", attributes: list[0] } };
      },
      async read({ outputs }) {
        return { ...(outputs as object), attributes: list[Math.min(n++, list.length - 1)]! };
      },
    });
    const fn = program("lift-gate", () => {
      const s = new Command<Health>("server", { create: "start", read: "health" });
      const ok = wait(s, { name: "healthy", until: (x) => x.attributes.status.eq("ready"), timeout: seconds(3) });
      new File("lifted", { path: "out/lifted.txt", content: ok.attributes.url });
      new File("applied", { path: "out/applied.txt", content: ok.attributes.apply((h) => h.url) });
      return { lifted: ok.attributes.url, applied: ok.attributes.apply((h) => h.url) };
    });
    return { fn, mock, set: (s: Health[]) => ((list = s), (n = 0)) };
  }

  it("before the wait held both are unknown, with the same note, and nothing reading either is created", async () => {
    const g = gated();
    const run = await testProgram(g.fn, { mocks: { "local:Command": g.mock, "local:File": mocks.resource() } });
    const first = await run.up();
    expect(first.waits.healthy!.outcome).toBe("timed-out");
    expect(first.outputs).toEqual({});
    expect(run.calls.filter((c) => c.name === "lifted" || c.name === "applied")).toEqual([]);
    const plan = await run.preview();
    expect(plan.outputs.lifted).toBe(UNKNOWN);
    expect(plan.plan.outputNotes?.lifted).toBe("waits for healthy, which has not held yet");
    expect(plan.plan.outputNotes?.lifted).toBe(plan.plan.outputNotes?.applied);
  });

  it("once the wait held both are known and equal, and both readers are created", async () => {
    const g = gated();
    const run = await testProgram(g.fn, { mocks: { "local:Command": g.mock, "local:File": mocks.resource() } });
    await run.up();
    g.set([ready]);
    const second = await run.up();
    expect(second.waits.healthy!.outcome).toBe("satisfied");
    expect(second.outputs).toEqual({ lifted: "http://x", applied: "http://x" });
    expect(second.inputs.lifted).toMatchObject({ content: "http://x" });
    expect(second.inputs.applied).toMatchObject({ content: "http://x" });
  });
});
