import { firstValueFrom, of } from "rxjs";
import { program, type ProgramFn, type Program } from "../src/entry/program.js";
import { defineResource } from "../src/program/define.js";
import type { Provider } from "../src/provider/provider.js";
import type { ResourceSchema } from "../src/provider/schema.js";
import { ValueResolver } from "../src/runtime/values.js";
import type { Output } from "../src/program/output.js";

/** A program made in a test, with its state in a fresh temp dir. */
export function testProgram(name: string, fn: ProgramFn): Program {
  return program(name, fn);
}

/** Resolves an output against a resolver where nothing has been published except what the test gives. */
export async function resolveWith<T>(o: Output<T>, r: ValueResolver = new ValueResolver()) {
  return firstValueFrom(o.resolve(r));
}

export type MemOutputs = Record<string, unknown>;

/** An in-memory provider recording calls; `fail` makes chosen operations throw. */
export function memoryProvider(opts: { fail?: (op: string, urn: string, inputs: Record<string, unknown>) => string | undefined; outputs?: (inputs: Record<string, unknown>, id: string) => MemOutputs } = {}) {
  const objects = new Map<string, Record<string, unknown>>();
  const calls: { op: string; urn: string; id?: string }[] = [];
  let next = 1;
  const provider: Provider<Record<string, unknown>, Record<string, unknown>> = {
    async create({ urn, inputs }) {
      calls.push({ op: "create", urn });
      const f = opts.fail?.("create", urn, inputs);
      if (f) throw new Error(f);
      const id = `id-${next++}`;
      const out = { ...inputs, ...(opts.outputs?.(inputs, id) ?? {}) };
      objects.set(id, out);
      return { id, outputs: out };
    },
    async read({ urn, id }) {
      calls.push({ op: "read", urn, id });
      const o = objects.get(id);
      return o ? { ...o } : undefined;
    },
    async update({ urn, id, news }) {
      calls.push({ op: "update", urn, id });
      const f = opts.fail?.("update", urn, news);
      if (f) throw new Error(f);
      const out = { ...news, ...(opts.outputs?.(news, id) ?? {}) };
      objects.set(id, out);
      return out;
    },
    async delete({ urn, id }) {
      calls.push({ op: "delete", urn, id });
      const f = opts.fail?.("delete", urn, {});
      if (f) throw new Error(f);
      objects.delete(id);
    },
  };
  return { provider, objects, calls };
}

/** Defines a test resource type backed by a memory provider. */
export function memoryType<I extends object, O extends object = I>(type: string, schema?: ResourceSchema, opts?: Parameters<typeof memoryProvider>[0]) {
  const mem = memoryProvider(opts);
  const Type = defineResource<I, O>(type, { provider: mem.provider as unknown as Provider<I, O>, schema: schema ?? { inputs: {}, outputs: {} } });
  return { Type, ...mem };
}

export { of };
