import type { Provider } from "../provider/provider.js";
import type { Urn } from "../core/urn.js";
import type { Props } from "../state/types.js";
import { targetOf } from "./mock-provider.js";
import { Mock, type MockEnv } from "./mocks.js";
import { UserError } from "../core/diagnostic.js";

/** Which resources a mock answers for: a type token (`"aws:acm:Certificate"`), or a resource name (`{ name: "cert" }`, optionally with its `type`). */
export type MockSelector = string | { name: string; type?: string };

/**
 * The mocks of a test run: by type token (`{ "aws:acm:Certificate": mocks.resource() }`), or as pairs when some
 * are per resource name (`[["aws:acm:Certificate", a], [{ name: "cert" }, b]]`). A mock for a resource name wins
 * over one for its type.
 */
export type MockTable = Readonly<Record<string, Mock>> | Iterable<readonly [MockSelector, Mock]>;

/** One call the engine made to a mocked provider, in the order made. */
export interface MockCall {
  op: "check" | "diff" | "lookup" | "read" | "readMany" | "create" | "update" | "delete";
  type: string;
  /** The resource's name (for `readMany`, the first target's). */
  name: string;
  urn: Urn;
  /** The cloud id operated on (read, update, delete, diff). */
  id?: string;
  /** The inputs the provider received (create, check; the new inputs for update and diff). */
  inputs?: Props;
  /** The previous inputs (update, diff). */
  olds?: Props;
  /** The query of a lookup by query. */
  query?: unknown;
  /** Every target of a `readMany`. */
  targets?: Urn[];
}

/** A resource, lookup or wait target the program declares or the state holds, which needs a provider. */
export interface Needed {
  type: string;
  urn: Urn;
  kind: "resource" | "lookup";
}

interface Rule {
  type?: string;
  name?: string;
  mock: Mock;
}

/**
 * Thrown when a test run reaches a resource type nobody mocked: names each one and says how to mock it.
 *
 * @example // no mock for probe:dns:Record (resource publish); mock it with mocks.resource(...)
 */
export class MissingMockError extends UserError {
  constructor(readonly missing: readonly Needed[]) {
    super(missing.map(describeMissing).join("\n"));
    this.name = "MissingMockError";
  }
}

function describeMissing(n: Needed): string {
  const { name } = targetOf(n.type, n.urn);
  const how = n.kind === "lookup" ? "mocks.lookup(...)" : "mocks.resource(...)";
  return `no mock for ${n.type} (${n.kind} ${name}); mock it with ${how}`;
}

function rulesOf(table: MockTable | undefined): Rule[] {
  if (!table) return [];
  const entries: (readonly [MockSelector, unknown])[] =
    Symbol.iterator in table ? [...(table as Iterable<readonly [MockSelector, Mock]>)] : Object.entries(table as Record<string, Mock>);
  return entries.map(([sel, mock]) => {
    const where = typeof sel === "string" ? `"${sel}"` : JSON.stringify(sel);
    if (!(mock instanceof Mock)) throw new TypeError(`The mock for ${where} is not a mock: make it with mocks.resource(...), mocks.lookup(...), mocks.provider(...) or mocks.real().`);
    if (typeof sel === "string") return { type: sel, mock };
    if (!sel || typeof sel.name !== "string") throw new TypeError(`Mock selector ${where} is neither a type token nor { name: "<resource name>" }.`);
    return { name: sel.name, ...(sel.type ? { type: sel.type } : {}), mock };
  });
}

/**
 * The providers of one test run: every engine call for a resource goes through here (as `StackOptions.providers`),
 * finds the resource's mock, and is recorded in `calls`. Built afresh per run, so nothing is shared between tests.
 */
export class MockProviders {
  private readonly rules: Rule[];
  private readonly built = new Map<Rule, Provider<any, any, any>>();
  private readonly reals = new Map<Provider<any, any, any>, Provider<any, any, any>>();

  constructor(
    table: MockTable | undefined,
    private readonly calls: MockCall[],
    private readonly env: MockEnv,
  ) {
    this.rules = rulesOf(table);
  }

  private ruleFor(type: string, urn: Urn): Rule | undefined {
    const { name } = targetOf(type, urn);
    return (
      this.rules.find((r) => r.name === name && r.type === type) ??
      this.rules.find((r) => r.name === name && r.type === undefined) ??
      this.rules.find((r) => r.name === undefined && r.type === type)
    );
  }

  /** The provider for a resource: its mock's (recorded), or one that fails naming what to mock. */
  provider = (type: string, urn: Urn, own?: Provider<any, any, any>): Provider<any, any, any> | undefined => {
    const rule = this.ruleFor(type, urn);
    if (!rule) return missingMockProvider(type);
    let p = this.built.get(rule);
    if (!p) {
      const made = rule.mock.build(this.env);
      if (made) this.built.set(rule, (p = recording(made, type, this.calls)));
    }
    if (p) return p;
    // mocks.real(): the type's own provider for this stack (the engine hands it over), still recorded.
    if (!own) return undefined;
    let real = this.reals.get(own);
    if (!real) this.reals.set(own, (real = recording(own, type, this.calls)));
    return real;
  };

  /** Those of `needed` that no mock covers. */
  missing(needed: readonly Needed[]): Needed[] {
    return needed.filter((n) => !this.ruleFor(n.type, n.urn));
  }
}

/** Fails every call naming the type and resource, for a resource the test did not mock. */
function missingMockProvider(type: string): Provider<any, any, any> {
  const fail = (urn: Urn, lookup = false): never => {
    throw new MissingMockError([{ type, urn, kind: lookup ? "lookup" : "resource" }]);
  };
  return {
    create: async ({ urn }) => fail(urn),
    read: async ({ urn }) => fail(urn),
    lookup: async ({ urn }) => fail(urn, true),
    update: async ({ urn }) => fail(urn),
    delete: async ({ urn }) => fail(urn),
  };
}

/** A copy safe to keep in a call record (what the provider saw at that moment). */
function snapshot<T>(v: T): T {
  try {
    return structuredClone(v);
  } catch {
    return v;
  }
}

type Args = Record<string, any>;

/** Wraps a provider so each call is recorded (in order, before it runs). */
function recording(p: Provider<any, any, any>, type: string, calls: MockCall[]): Provider<any, any, any> {
  /** Records the call, then makes it. */
  const call = <R>(op: MockCall["op"], a: Args, extra: Partial<MockCall>, make: () => R): R => {
    calls.push({ op, type, urn: a.urn as Urn, name: targetOf(type, a.urn as Urn).name, ...extra });
    return make();
  };
  const out: Provider<any, any, any> = {
    create: (a) => call("create", a, { inputs: snapshot(a.inputs) }, () => p.create(a)),
    read: (a) => call("read", a, { id: a.id }, () => p.read(a)),
    delete: (a) => call("delete", a, { id: a.id }, () => p.delete(a)),
  };
  if (p.check) out.check = (a) => call("check", a, { inputs: snapshot(a.inputs) }, () => p.check!(a));
  if (p.diff) out.diff = (a) => call("diff", a, { id: a.id, inputs: snapshot(a.news), olds: snapshot(a.olds) }, () => p.diff!(a));
  if (p.update) out.update = (a) => call("update", a, { id: a.id, inputs: snapshot(a.news), olds: snapshot(a.olds) }, () => p.update!(a));
  if (p.lookup) out.lookup = (a) => call("lookup", a, { query: snapshot(a.query) }, () => p.lookup!(a));
  if (p.readMany) {
    out.readMany = (a) => {
      const first = a.targets[0];
      if (first) calls.push({ op: "readMany", type, urn: first.urn, name: targetOf(type, first.urn).name, targets: a.targets.map((t) => t.urn) });
      return p.readMany!(a);
    };
  }
  return out;
}
