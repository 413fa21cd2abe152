import { describe, expect, it } from "vitest";
import { defineResource } from "../../src/program/define.js";
import { evaluateProgram, type ProgramFn } from "../../src/program/evaluate.js";
import { buildGraph } from "../../src/graph/graph.js";
import { fingerprint } from "../../src/plan/fingerprint.js";
import { wait } from "../../src/wait/wait.js";
import type { Provider } from "../../src/provider/provider.js";

type Args = { name: string; size?: number; ref?: unknown };
const provider: Provider<Args, Args & { status: string }> = {
  async create({ inputs }) {
    return { id: inputs.name, outputs: { ...inputs, status: "READY" } };
  },
  async read({ outputs }) {
    return outputs;
  },
  async delete() {},
};
const Thing = defineResource<Args, Args & { status: string }>("fp:test:Thing", { provider, schema: { inputs: { name: {}, size: {}, ref: {} }, outputs: { name: {}, size: {}, status: {} } } });

/** The fingerprint of one evaluation of `fn` (config as given). */
async function fp(fn: ProgramFn, config: Record<string, { value: string; secret: boolean }> = {}): Promise<string> {
  const spec = { name: "fp", fn, location: { dir: ".", command: "npx tsx infra.ts" } };
  const ev = await evaluateProgram(spec, { stack: "dev", config });
  expect(ev.diagnostics).toEqual([]);
  return fingerprint(buildGraph(ev.nodes), ev.outputs, config);
}

const base: ProgramFn = () => {
  const a = new Thing("a", { name: "a", size: 1 });
  const b = new Thing("b", { name: "b", ref: a.name });
  wait(a, { until: (x) => x.status.eq("READY") });
  return { bName: b.name };
};

describe("fingerprint: what a program declared, so a saved plan is refused for another program", () => {
  it("is the same for the same program, evaluated twice", async () => {
    expect(await fp(base)).toBe(await fp(base));
  });

  it("changes with a plain input, an option, a dependency, a wait's condition, the outputs or the config", async () => {
    const b = await fp(base);
    const variants: Record<string, ProgramFn> = {
      input: () => void new Thing("a", { name: "a", size: 2 }),
      option: () => {
        new Thing("a", { name: "a", size: 1 }, { protect: true });
      },
      dependency: () => {
        const a = new Thing("a", { name: "a", size: 1 });
        const b2 = new Thing("b", { name: "b" }, { dependsOn: [a] });
        return { bName: b2.name };
      },
      wait: () => {
        const a = new Thing("a", { name: "a", size: 1 });
        const b2 = new Thing("b", { name: "b", ref: a.name });
        wait(a, { until: (x) => x.status.eq("ACTIVE") });
        return { bName: b2.name };
      },
      outputs: () => {
        const a = new Thing("a", { name: "a", size: 1 });
        const b2 = new Thing("b", { name: "b", ref: a.name });
        wait(a, { until: (x) => x.status.eq("READY") });
        return { bName: b2.name, extra: "x" };
      },
    };
    const seen = new Set([b]);
    for (const [what, fn] of Object.entries(variants)) {
      const f = await fp(fn);
      expect(seen.has(f), what).toBe(false);
      seen.add(f);
    }
    expect(await fp(base, { region: { value: "eu-west-1", secret: false } })).not.toBe(b);
  });

  it("describes a value known only at apply by where it comes from, not by a value", async () => {
    // The same reference twice (a.name) fingerprints the same, though its value is unknown while planning.
    const viaOutput: ProgramFn = () => {
      const a = new Thing("a", { name: "a" });
      new Thing("b", { name: "b", ref: a.name.apply((n) => `${n}-suffix`) });
    };
    expect(await fp(viaOutput)).toBe(await fp(viaOutput));
    const other: ProgramFn = () => {
      const a = new Thing("a", { name: "a" });
      const c = new Thing("c", { name: "c" });
      new Thing("b", { name: "b", ref: c.name });
      void a;
    };
    expect(await fp(other)).not.toBe(await fp(viaOutput));
  });
});
