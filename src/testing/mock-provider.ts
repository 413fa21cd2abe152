import type { Provider } from "../provider/provider.js";
import { nameOf, parseUrn, type Urn } from "../core/urn.js";
import type { Props } from "../state/types.js";
import type { MockEnv, MockFailure, MockTarget, ResourceMockOptions } from "./mock-types.js";
import { UserError } from "../core/diagnostic.js";

/** The resource a URN names, as a mock sees it. */
export function targetOf(type: string, urn: Urn): MockTarget {
  return { type, urn, name: nameOf(urn) };
}

/** The error a `fail` entry stands for; a code-like text also becomes the error's name (as AWS errors have it). */
function failureError(f: string | Error): Error {
  if (f instanceof Error) return f;
  return Object.assign(new Error(f), { name: /^[A-Za-z][\w.]*$/.test(f) ? f : "MockFailure" });
}

/** Throws the configured failure of `op` for this resource, unless its `times` are used up. */
function failIfAsked(fail: ResourceMockOptions["fail"], op: "create" | "read" | "update" | "delete", urn: Urn, counts: Map<string, number>): void {
  const f: MockFailure | undefined = fail?.[op];
  if (f === undefined) return;
  const key = `${op}|${urn}`;
  const n = (counts.get(key) ?? 0) + 1;
  counts.set(key, n);
  if (typeof f === "object" && !(f instanceof Error)) {
    if (f.times === undefined || n <= f.times) throw failureError(f.error);
    return;
  }
  throw failureError(f);
}

/** A copy of `o` without the keys of `drop` (an update's old inputs leave the outputs). */
function without(o: Props, drop: Props): Props {
  const out: Props = {};
  for (const [k, v] of Object.entries(o)) if (!(k in drop)) out[k] = v;
  return out;
}

/**
 * The provider of `mocks.resource(opts)` for one run: stateless towards the engine (reads answer from the
 * outputs the engine passes in), with per-resource counters for reads, failures and ids.
 */
export function resourceMockProvider(opts: ResourceMockOptions, env: MockEnv): Provider<Props, Props, Props> {
  const reads = new Map<string, number>();
  const failures = new Map<string, number>();
  const extra = (inputs: Props, t: MockTarget): Props => (typeof opts.outputs === "function" ? opts.outputs(inputs, t) : (opts.outputs ?? {}));
  const newId = (inputs: Props, t: MockTarget): string => {
    if (opts.id !== undefined) return typeof opts.id === "function" ? opts.id(inputs, t) : opts.id;
    let n = 1;
    while (env.ids.has(`${t.name}-${n}`)) n++;
    return `${t.name}-${n}`;
  };
  const nextRead = (urn: Urn): Props | null | undefined => {
    const list = opts.reads;
    if (!list?.length) return undefined;
    const i = reads.get(urn) ?? 0;
    reads.set(urn, i + 1);
    return list[Math.min(i, list.length - 1)];
  };
  return {
    async create({ urn, inputs }) {
      failIfAsked(opts.fail, "create", urn, failures);
      const t = targetOf(targetType(urn), urn);
      const id = newId(inputs, t);
      env.ids.add(id);
      return { id, outputs: { ...inputs, ...extra(inputs, t) } };
    },
    async read({ urn, outputs }) {
      failIfAsked(opts.fail, "read", urn, failures);
      const next = nextRead(urn);
      if (next === null) return undefined;
      return { ...outputs, ...(next ?? {}) };
    },
    async lookup({ urn, query }) {
      const t = targetOf(targetType(urn), urn);
      const q = query !== null && typeof query === "object" ? query : {};
      return { id: t.name, outputs: { ...q, ...extra(q, t) } };
    },
    async update({ urn, olds, news, outputs }) {
      failIfAsked(opts.fail, "update", urn, failures);
      return { ...without(outputs, olds), ...news, ...extra(news, targetOf(targetType(urn), urn)) };
    },
    async delete({ urn }) {
      failIfAsked(opts.fail, "delete", urn, failures);
    },
  };
}

/** The type token inside a URN. */
function targetType(urn: Urn): string {
  return parseUrn(urn).type;
}

/** The provider of `mocks.lookup(outputs)`: finds one object (or nothing), and refuses to manage anything. */
export function lookupMockProvider(outputs: Props | undefined): Provider<Props, Props, Props> {
  const refuse = (op: string, urn: Urn): never => {
    const t = targetOf(targetType(urn), urn);
    throw new UserError(`${t.type} "${t.name}" is mocked with mocks.lookup(...), which can only be read, so it cannot ${op} it; mock it with mocks.resource(...) to manage it`);
  };
  return {
    async lookup({ urn }) {
      if (outputs === undefined) return undefined;
      return { id: typeof outputs.id === "string" ? outputs.id : targetOf(targetType(urn), urn).name, outputs: { ...outputs } };
    },
    async read() {
      return outputs === undefined ? undefined : { ...outputs };
    },
    create: async ({ urn }) => refuse("create", urn),
    update: async ({ urn }) => refuse("update", urn),
    delete: async ({ urn }) => refuse("delete", urn),
  };
}

/** `mocks.provider(partial)`: the methods given replace `mocks.resource()`'s; one given as `undefined` is removed. */
export function partialMockProvider(partial: Partial<Provider<any, any, any>>, env: MockEnv): Provider<any, any, any> {
  const base = resourceMockProvider({}, env) as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = { ...base };
  for (const key of Object.keys(partial) as (keyof Provider)[]) {
    const method = partial[key];
    if (method === undefined) delete out[key];
    else out[key] = (args: unknown) => (method as (a: unknown) => unknown).call(partial, args);
  }
  return out as unknown as Provider<any, any, any>;
}
