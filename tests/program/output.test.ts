import { describe, expect, it } from "vitest";
import { firstValueFrom } from "rxjs";
import { Output, all, interpolate, output, secret } from "../../src/program/output.js";
import { UNKNOWN } from "../../src/core/unknown.js";
import { EvalContext, runInContext } from "../../src/program/context.js";
import { ValueResolver, unknownValue } from "../../src/runtime/values.js";
import { NODE } from "../../src/program/resource.js";
import { memoryType } from "../helpers.js";

const ctx = () => new EvalContext("p", "dev", "npx tsx infra.ts");

describe("Output", () => {
  const { Type: Thing } = memoryType<{ n: number }, { n: number; label: string }>("test:out:Thing", { inputs: { n: {} }, outputs: { n: {}, label: {} } });

  it("apply maps known values and tracks the resource it came from", async () => {
    const r = new ValueResolver();
    const t = runInContext(ctx(), () => new Thing("t", { n: 2 }));
    r.publish(t[NODE], { id: "x", outputs: { n: 2, label: "two" }, unknown: new Set(), restUnknown: false, secretKeys: new Set() });
    const doubled = t.n.apply((n) => n * 2);
    expect(doubled.resources).toEqual([t[NODE]]);
    const s = await firstValueFrom(doubled.resolve(r));
    expect(s).toMatchObject({ known: true, value: 4, secret: false });
  });

  it("never runs apply callbacks on unknown values", async () => {
    const r = new ValueResolver();
    const t = runInContext(ctx(), () => new Thing("t", { n: 2 }));
    r.publish(t[NODE], unknownValue());
    let calls = 0;
    const o = t.label.apply((l) => {
      calls++;
      return l.toUpperCase();
    });
    const s = await firstValueFrom(o.resolve(r));
    expect(s.known).toBe(false);
    expect(calls).toBe(0);
  });

  it("all, output and interpolate combine inputs of every kind", async () => {
    const r = new ValueResolver();
    const combined = all([output(1), Promise.resolve("two"), 3] as const);
    expect(await firstValueFrom(combined.resolve(r))).toMatchObject({ known: true, value: [1, "two", 3] });
    const rec = all({ a: output("x"), b: Promise.resolve(2) });
    expect(await firstValueFrom(rec.resolve(r))).toMatchObject({ known: true, value: { a: "x", b: 2 } });
    const text = interpolate`a=${output(1)} b=${Promise.resolve("z")}`;
    expect(await firstValueFrom(text.resolve(r))).toMatchObject({ known: true, value: "a=1 b=z" });
    const nested = output({ list: [output(1), { deep: Promise.resolve(output("d")) }] });
    expect(await firstValueFrom(nested.resolve(r))).toMatchObject({ known: true, value: { list: [1, { deep: "d" }] } });
  });

  it("apply may return an output, which is flattened", async () => {
    const o = output(2).apply((n) => output(n + 1).apply((m) => Promise.resolve(m * 10)));
    expect(await firstValueFrom(o.resolve(new ValueResolver()))).toMatchObject({ known: true, value: 30 });
  });

  it("secret taints everything derived from it", async () => {
    const r = new ValueResolver();
    const pw = secret("hunter2");
    const url = interpolate`postgres://u:${pw}@db`;
    const s = await firstValueFrom(url.resolve(r));
    expect(s).toMatchObject({ known: true, secret: true });
    const both = all([pw, output("plain")]);
    expect((await firstValueFrom(both.resolve(r))).secret).toBe(true);
    expect((await firstValueFrom(output("plain").resolve(r))).secret).toBe(false);
  });

  it("an unknown part makes all() unknown", async () => {
    const r = new ValueResolver();
    const t = runInContext(ctx(), () => new Thing("t", { n: 1 }));
    r.publish(t[NODE], unknownValue());
    const s = await firstValueFrom(all([output(1), t.label]).resolve(r));
    expect(s.known).toBe(false);
  });

  it("toString and JSON.stringify fail with a message that says what to do", () => {
    const o = output("x");
    expect(() => `${o}`).toThrow(/interpolate`…\$\{out\}…` or out\.apply\(\(v\) =>/);
    expect(() => JSON.stringify({ o })).toThrow(/out\.apply\(\(v\) => JSON\.stringify\(v\)\)/);
  });

  it("resolves each output once per phase (callbacks are not re-run per reader)", async () => {
    let calls = 0;
    const o = output(1).apply((n) => {
      calls++;
      return n + 1;
    });
    const r = new ValueResolver();
    const a = o.apply((n) => n * 2);
    const b = o.apply((n) => n * 3);
    await firstValueFrom(all([a, b]).resolve(r));
    expect(calls).toBe(1);
  });

  it("UNKNOWN serialises as a marker", () => {
    expect(JSON.stringify({ a: UNKNOWN })).toBe('{"a":{"$unknown":true}}');
    expect(new Output([], () => { throw new Error("unused"); })).toBeInstanceOf(Output);
  });
});
