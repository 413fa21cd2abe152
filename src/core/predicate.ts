/**
 * Wait predicates: what `wait(target, { until: c => c.status.eq("ISSUED") })` polls for.
 *
 * The user builds a predicate through a typed attribute proxy; the result is plain data (an AST)
 * so it can be planned, stored, diffed and shown as surface text without running user code again.
 */
import { inspect, isDeepStrictEqual } from "node:util";

/** One step of an attribute path: a property name or an array index. @example const p: PathSeg[] = ["domainValidationOptions", 0, "validationStatus"]; */
export type PathSeg = string | number;

/**
 * A wait condition as plain data. Paths start at the target's attributes; inside `some`/`every`, `where`
 * paths start at each array element.
 *
 * @example
 * const p: Predicate = { op: "eq", path: ["status"], value: "ISSUED" };
 */
export type Predicate =
  | { op: "eq" | "ne"; path: PathSeg[]; value: unknown }
  | { op: "gt" | "gte" | "lt" | "lte"; path: PathSeg[]; value: number | string }
  | { op: "in" | "notIn"; path: PathSeg[]; values: unknown[] }
  | { op: "exists"; path: PathSeg[] }
  | { op: "some" | "every"; path: PathSeg[]; where: Predicate }
  | { op: "and" | "or"; args: Predicate[] }
  | { op: "not"; arg: Predicate };

interface Exists { exists(): Predicate }
interface Equatable<V> extends Exists { eq(v: V): Predicate; ne(v: V): Predicate }
interface Listable<V> extends Equatable<V> { in(vs: readonly V[]): Predicate; notIn(vs: readonly V[]): Predicate }
interface Ordered<V, O> extends Listable<V> { gt(v: O): Predicate; gte(v: O): Predicate; lt(v: O): Predicate; lte(v: O): Predicate }

/** What an `any`/`unknown` attribute offers: every method, any value, any nested property. */
interface AnyAttr extends Ordered<unknown, number | string> {
  some(f: (it: AnyAttr) => Predicate): Predicate;
  every(f: (it: AnyAttr) => Predicate): Predicate;
  // `any`, not AnyAttr: under noUncheckedIndexedAccess an index signature would read as `AnyAttr | undefined`.
  readonly [key: string]: any;
}

// Literal indices are real properties, so `c.opts[0].x` is not `| undefined` under noUncheckedIndexedAccess;
// the number index signature covers computed indices (which then need `!`).
type Index = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 | 13 | 14 | 15 | 16 | 17 | 18 | 19 | 20 | 21 | 22 | 23 | 24 | 25 | 26 | 27 | 28 | 29 | 30 | 31;
type ArrayAttr<E, U> = { readonly [I in Index]: Attr<E> } & { readonly [i: number]: Attr<E> } & Equatable<U> & {
  some(f: (it: Attr<E>) => Predicate): Predicate;
  every(f: (it: Attr<E>) => Predicate): Predicate;
};
// An attribute literally named `exists` wins over the method (the runtime proxy serves both).
type ObjectAttr<U> = { readonly [K in Exclude<keyof U, symbol>]-?: Attr<U[K]> } & ("exists" extends keyof U ? unknown : Exists);

// `[U] extends [X]` keeps unions such as "A" | "B" together instead of distributing over them.
type AttrOf<U> =
  [U] extends [never] ? Exists
  : [U] extends [string] ? Ordered<U, string>
  : [U] extends [number] ? Ordered<U, number>
  : [U] extends [boolean] ? Equatable<boolean>
  : [U] extends [readonly (infer E)[]] ? ArrayAttr<E, U>
  : [U] extends [object] ? ObjectAttr<U>
  : Listable<U>; // mixed unions (string | number, …): equality only

/**
 * Typed attribute proxy for one value of type `T`: comparison methods that fit `T`, nested attributes
 * for objects, indices and `some`/`every` for arrays. A wrong name or value type is a compile-time error.
 *
 * @example
 * const until = (c: Attrs<{ status: "ISSUED" | "FAILED"; size: number }>) => and(c.status.eq("ISSUED"), c.size.gte(1));
 */
export type Attr<T> = 0 extends 1 & T ? AnyAttr : unknown extends T ? AnyAttr : AttrOf<NonNullable<T>>;

/**
 * The proxy handed to `until`/`failWhen`: one {@link Attr} per attribute of `O`.
 * `any` and index-signature records (`Record<string, unknown>`) get a permissive proxy: under
 * noUncheckedIndexedAccess the mapped form would make every attribute `| undefined`.
 *
 * @example
 * const until = (c: Attrs<{ status: string }>) => c.status.eq("ISSUED");
 */
export type Attrs<O> = string extends keyof O ? { readonly [key: string]: any }
  : { readonly [K in keyof O]-?: Attr<O[K]> };

/** All of `ps` hold (true when empty). @example and(c.status.eq("ISSUED"), c.size.gt(0)) */
export function and(...ps: Predicate[]): Predicate {
  return { op: "and", args: ps.map((p, i) => checkArg(p, `and(...) argument ${i + 1}`)) };
}

/** Any of `ps` holds (false when empty). @example or(c.status.eq("FAILED"), c.status.eq("REVOKED")) */
export function or(...ps: Predicate[]): Predicate {
  return { op: "or", args: ps.map((p, i) => checkArg(p, `or(...) argument ${i + 1}`)) };
}

/** `p` does not hold. @example not(c.status.eq("PENDING_VALIDATION")) */
export function not(p: Predicate): Predicate {
  return { op: "not", arg: checkArg(p, "not(...) argument") };
}

/**
 * Calls `fn` with a runtime attribute proxy and returns the plain predicate it builds. Throws a clear error
 * naming `what` if `fn` returns anything else, e.g. a boolean from `c => c.status == "X"`.
 *
 * @example
 * buildPredicate<{ status: string }>((c) => c.status.eq("ISSUED"), 'until of wait "issued"');
 * // → { op: "eq", path: ["status"], value: "ISSUED" }
 */
export function buildPredicate<O>(fn: (attrs: Attrs<O>) => Predicate, what: string): Predicate {
  return checkResult(fn(attrProxy([]) as Attrs<O>), what);
}

/**
 * True if `v` is a well-formed predicate: known ops, exactly the expected keys, valid paths, plain-data values.
 *
 * @example
 * isPredicate({ op: "exists", path: ["arn"] }); // true
 * isPredicate({ op: "eq", path: "status" }); // false
 */
export function isPredicate(v: unknown): v is Predicate {
  return wellFormed(v, []);
}

/**
 * Evaluates `p` against a snapshot of the target's attributes. Missing paths read as `undefined`.
 *
 * @example
 * evaluate({ op: "eq", path: ["status"], value: "ISSUED" }, { status: "ISSUED" }); // true
 */
export function evaluate(p: Predicate, attrs: Record<string, unknown>): boolean {
  return evalAt(p, attrs);
}

/**
 * Surface text of `p`, with `subject` naming the target.
 *
 * @example
 * formatPredicate({ op: "eq", path: ["status"], value: "ISSUED" }, "cert"); // 'cert.status == "ISSUED"'
 */
export function formatPredicate(p: Predicate, subject: string): string {
  switch (p.op) {
    case "eq": case "ne": case "gt": case "gte": case "lt": case "lte":
      return `${ref(subject, p.path)} ${SYMBOL[p.op]} ${literal(p.value)}`;
    case "in": case "notIn":
      return `${ref(subject, p.path)} ${p.op === "in" ? "in" : "not in"} [${p.values.map(literal).join(", ")}]`;
    case "exists":
      return `exists(${ref(subject, p.path)})`;
    case "some": case "every":
      return `${ref(subject, p.path)}.${p.op}(${formatPredicate(p.where, "it")})`;
    case "and":
      if (p.args.length === 0) return "true";
      // && binds tighter than ||, so only an `or` inside an `and` needs parentheses.
      return p.args.map((a) => (a.op === "or" && a.args.length > 1 ? `(${formatPredicate(a, subject)})` : formatPredicate(a, subject))).join(" && ");
    case "or":
      return p.args.length === 0 ? "false" : p.args.map((a) => formatPredicate(a, subject)).join(" || ");
    case "not":
      return `!(${formatPredicate(p.arg, subject)})`;
    default: {
      const never: never = p;
      throw new Error(`unknown predicate ${inspect(never)}`);
    }
  }
}

/**
 * Formats an attribute path the way it would be written in JavaScript (without a subject).
 *
 * @example
 * formatPath(["domainValidationOptions", 0, "validationStatus"]); // "domainValidationOptions[0].validationStatus"
 * formatPath(["tags", "weird-key"]); // 'tags["weird-key"]'
 */
export function formatPath(path: readonly PathSeg[]): string {
  const s = ref("", path);
  return s.startsWith(".") ? s.slice(1) : s;
}

/**
 * The distinct paths `p` reads, in first-appearance order. For `some`/`every` this is the array path itself.
 *
 * @example
 * readPaths(and(c.status.eq("ISSUED"), c.status.ne("FAILED"), c.size.gt(1))); // [["status"], ["size"]]
 */
export function readPaths(p: Predicate): PathSeg[][] {
  const seen = new Map<string, PathSeg[]>();
  const visit = (q: Predicate): void => {
    switch (q.op) {
      case "eq": case "ne": case "gt": case "gte": case "lt": case "lte":
      case "in": case "notIn": case "exists": case "some": case "every": {
        const key = JSON.stringify(q.path); // distinguishes index 0 from key "0"
        if (!seen.has(key)) seen.set(key, [...q.path]);
        return;
      }
      case "and": case "or":
        return q.args.forEach(visit);
      case "not":
        return visit(q.arg);
      default: {
        const never: never = q;
        throw new Error(`unknown predicate ${inspect(never)}`);
      }
    }
  };
  visit(p);
  return [...seen.values()];
}

/**
 * Top-level attribute names `p` reads, distinct, in order.
 *
 * @example
 * attributesRead(and(c.renewalSummary.renewalStatus.eq("SUCCESS"), c.status.eq("ISSUED"))); // ["renewalSummary", "status"]
 */
export function attributesRead(p: Predicate): string[] {
  const names = readPaths(p).flatMap((path) => (path.length > 0 ? [String(path[0])] : []));
  return [...new Set(names)];
}

/**
 * What `p` reads, as observed on a snapshot. Values of attributes named in `secret` are replaced by `"[secret]"`.
 *
 * @example
 * observe(c.status.eq("ISSUED") , { status: "PENDING_VALIDATION" }); // [{ path: "status", value: "PENDING_VALIDATION" }]
 */
export function observe(p: Predicate, attrs: Record<string, unknown>, secret?: ReadonlySet<string>): { path: string; value: unknown }[] {
  return readPaths(p).map((path) => ({
    path: formatPath(path),
    value: path.length > 0 && secret?.has(String(path[0])) ? SECRET : read(attrs, path),
  }));
}

/**
 * Observations as text: values JSON-formatted, `undefined` as `(absent)`, masked secrets as `[secret]`.
 *
 * @example
 * formatObserved([{ path: "status", value: "PENDING_VALIDATION" }, { path: "size", value: 3 }]); // 'status = "PENDING_VALIDATION", size = 3'
 */
export function formatObserved(obs: readonly { path: string; value: unknown }[]): string {
  return obs.map(({ path, value }) => `${path} = ${value === undefined ? "(absent)" : value === SECRET ? SECRET : literal(value)}`).join(", ");
}

// ---- internals ----

const SECRET = "[secret]";
const SYMBOL = { eq: "==", ne: "!=", gt: ">", gte: ">=", lt: "<", lte: "<=" } as const;
const IDENT = /^[A-Za-z_$][\w$]*$/;
const ARRAY_INDEX = /^(?:0|[1-9]\d*)$/;
const METHODS = new Set(["eq", "ne", "gt", "gte", "lt", "lte", "in", "notIn", "exists", "some", "every"]);
const OPS: Record<string, readonly string[]> = {
  eq: ["path", "value"], ne: ["path", "value"],
  gt: ["path", "value"], gte: ["path", "value"], lt: ["path", "value"], lte: ["path", "value"],
  in: ["path", "values"], notIn: ["path", "values"], exists: ["path"],
  some: ["path", "where"], every: ["path", "where"], and: ["args"], or: ["args"], not: ["arg"],
};
/** Every proxy we hand out, with its label, so they can be recognised (and named) in errors. */
const LABELS = new WeakMap<object, string>();

function ref(subject: string, path: readonly PathSeg[]): string {
  return subject + path.map((s) => (typeof s === "number" ? `[${s}]` : IDENT.test(s) ? `.${s}` : `[${JSON.stringify(s)}]`)).join("");
}

function literal(v: unknown): string {
  return v === undefined ? "undefined" : JSON.stringify(v);
}

function read(root: unknown, path: readonly PathSeg[]): unknown {
  let cur = root;
  for (const seg of path) {
    // Own properties only: `constructor`, `toString` etc. are not attributes.
    if (cur === null || typeof cur !== "object" || !Object.hasOwn(cur, String(seg))) return undefined;
    cur = (cur as Record<string, unknown>)[String(seg)];
  }
  return cur;
}

function evalAt(p: Predicate, root: unknown): boolean {
  switch (p.op) {
    case "eq": return isDeepStrictEqual(read(root, p.path), p.value);
    case "ne": return !isDeepStrictEqual(read(root, p.path), p.value);
    case "gt": case "gte": case "lt": case "lte": {
      const a = read(root, p.path);
      const b = p.value;
      // Only like with like: no coercion surprises such as "10" < 9.
      if (!((typeof a === "number" && typeof b === "number") || (typeof a === "string" && typeof b === "string"))) return false;
      return p.op === "gt" ? a > b : p.op === "gte" ? a >= b : p.op === "lt" ? a < b : a <= b;
    }
    case "in": case "notIn": {
      const a = read(root, p.path);
      return p.values.some((v) => isDeepStrictEqual(a, v)) === (p.op === "in");
    }
    case "exists": {
      const a = read(root, p.path);
      return a !== undefined && a !== null;
    }
    case "some": case "every": {
      const a = read(root, p.path);
      if (!Array.isArray(a)) return false;
      return p.op === "some" ? a.some((e) => evalAt(p.where, e)) : a.every((e) => evalAt(p.where, e));
    }
    case "and": return p.args.every((q) => evalAt(q, root));
    case "or": return p.args.some((q) => evalAt(q, root));
    case "not": return !evalAt(p.arg, root);
    default: {
      const never: never = p;
      throw new Error(`unknown predicate ${inspect(never)}`);
    }
  }
}

function attrProxy(path: PathSeg[], method?: { name: string; call: (...args: unknown[]) => Predicate }): unknown {
  const label = `Attr(${formatPath(path)})`;
  // util.inspect looks at the proxy's target, not through the traps, so the hook lives on the target.
  const target: object = method ? (...args: unknown[]) => method.call(...args) : {};
  const show = (): string => label;
  Object.defineProperty(target, inspect.custom, { value: show });
  const proxy = new Proxy(target, {
    get(_t, key) {
      // A string on coercion, so `c.status == "X"` yields a boolean that buildPredicate can explain.
      if (key === inspect.custom || key === Symbol.toPrimitive) return show;
      if (typeof key === "symbol" || key === "then") return undefined; // never a thenable
      // A method is also the attribute of that name (for objects with e.g. an `exists` attribute).
      if (METHODS.has(key)) return attrProxy([...path, key], { name: key, call: (...args) => callMethod(path, key, args) });
      return attrProxy([...path, ARRAY_INDEX.test(key) && Number.isSafeInteger(Number(key)) ? Number(key) : key]);
    },
    set: () => false,
    defineProperty: () => false,
    deleteProperty: () => false,
  });
  LABELS.set(proxy, label);
  return proxy;
}

function callMethod(path: PathSeg[], name: string, args: unknown[]): Predicate {
  const where = `${formatPath(path) || "it"}.${name}(...)`;
  switch (name) {
    case "eq": case "ne":
      return { op: name, path, value: plain(args[0], where) };
    case "gt": case "gte": case "lt": case "lte": {
      const v = args[0];
      if (typeof v !== "number" && typeof v !== "string") throw new TypeError(`${where} needs a number or a string, got ${describe(v)}`);
      plain(v, where);
      return { op: name, path, value: v };
    }
    case "in": case "notIn": {
      const vs = args[0];
      if (!Array.isArray(vs)) throw new TypeError(`${where} needs an array of values, got ${describe(vs)}`);
      return { op: name, path, values: vs.map((v) => plain(v, where)) };
    }
    case "exists":
      return { op: "exists", path };
    case "some": case "every": {
      const f = args[0];
      if (typeof f !== "function") throw new TypeError(`${where} needs a function such as it => it.status.eq("X"), got ${describe(f)}`);
      return { op: name, path, where: checkResult((f as (it: unknown) => unknown)(attrProxy([])), `the function passed to ${where}`) };
    }
    default:
      throw new Error(`unknown attribute method ${name}`);
  }
}

/** A deep copy of `v`, or a clear error if it is not plain data. */
function plain(v: unknown, where: string): unknown {
  const problem = dataProblem(v, new Set());
  if (problem) throw new TypeError(`predicate values must be plain data: ${where} got ${problem}`);
  return structuredClone(v);
}

/** Why `v` is not plain, JSON-safe data (undefined when it is). */
function dataProblem(v: unknown, ancestors: Set<object>): string | undefined {
  if (v === null || typeof v === "string" || typeof v === "boolean") return undefined;
  if (typeof v === "number") return Number.isFinite(v) ? undefined : `${v} (only finite numbers survive being stored)`;
  if (v === undefined) return "undefined (to test for absence use not(c.x.exists()))";
  if (LABELS.has(v as object)) return `another attribute, ${LABELS.get(v as object)} (comparing two attributes is not supported)`;
  if (typeof v !== "object") return describe(v);
  if (ancestors.has(v)) return "a circular structure";
  const proto: unknown = Object.getPrototypeOf(v);
  if (!Array.isArray(v) && proto !== Object.prototype && proto !== null) {
    return v instanceof Date ? "a Date (use an ISO string: gt/lt compare strings lexicographically)" : describe(v);
  }
  ancestors.add(v);
  try {
    for (const x of Array.isArray(v) ? v : Object.values(v)) {
      const problem = dataProblem(x, ancestors);
      if (problem) return problem;
    }
    return undefined;
  } finally {
    ancestors.delete(v);
  }
}

/** A short description that never calls into the value (an Output throws on toString/toJSON). */
function describe(v: unknown): string {
  if (typeof v === "object" && v !== null && LABELS.has(v)) return LABELS.get(v) as string;
  if (typeof v === "function") return LABELS.get(v) ?? "a function";
  if (typeof v === "object" && v !== null) {
    const name: unknown = (Object.getPrototypeOf(v) as { constructor?: { name?: unknown } } | null)?.constructor?.name;
    return typeof name === "string" && name !== "Object" && name !== "Array" ? `an instance of ${name}` : Array.isArray(v) ? "an array" : "an object";
  }
  return typeof v === "string" ? JSON.stringify(v) : typeof v === "bigint" ? `a bigint (${v}n)` : String(v);
}

function checkResult(r: unknown, what: string): Predicate {
  if (typeof r === "boolean") {
    throw new TypeError(
      `${what} must return a predicate, but it returned a boolean. Attributes cannot be compared with ==, ===, <, > etc.: ` +
        `use their methods, e.g. c => c.status.eq("X") instead of c => c.status == "X", or c.size.gt(3) instead of c.size > 3.`,
    );
  }
  if (r instanceof Promise) throw new TypeError(`${what} must return a predicate synchronously, but it returned a promise (is it async?)`);
  if (typeof r === "object" && r !== null && LABELS.has(r)) {
    throw new TypeError(`${what} must return a predicate, but it returned the attribute ${LABELS.get(r)}: call a method on it, e.g. .eq("X") or .exists()`);
  }
  if (!isPredicate(r)) throw new TypeError(`${what} must return a predicate such as c => c.status.eq("X"), but it returned ${describe(r)}`);
  return structuredClone(r);
}

function checkArg(p: unknown, what: string): Predicate {
  if (isPredicate(p)) return p;
  const hint = typeof p === "boolean" ? ' (compare with methods such as c.status.eq("X"), not ==)' : "";
  throw new TypeError(`${what} is not a predicate: got ${describe(p)}${hint}`);
}

function wellFormed(v: unknown, ancestors: object[]): boolean {
  if (typeof v !== "object" || v === null || Array.isArray(v) || LABELS.has(v) || ancestors.includes(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return false;
  const o = v as Record<string, unknown>;
  const keys = typeof o.op === "string" && Object.hasOwn(OPS, o.op) ? OPS[o.op] : undefined;
  if (!keys || Object.keys(o).length !== keys.length + 1 || !keys.every((k) => Object.hasOwn(o, k))) return false;
  if ("path" in o && !(Array.isArray(o.path) && o.path.every((s) => typeof s === "string" || (Number.isSafeInteger(s) && (s as number) >= 0)))) return false;
  const inner = [...ancestors, v];
  switch (o.op) {
    case "eq": case "ne": return dataProblem(o.value, new Set()) === undefined;
    case "gt": case "gte": case "lt": case "lte": return typeof o.value === "string" || (typeof o.value === "number" && Number.isFinite(o.value));
    case "in": case "notIn": return Array.isArray(o.values) && dataProblem(o.values, new Set()) === undefined;
    case "exists": return true;
    case "some": case "every": return wellFormed(o.where, inner);
    case "and": case "or": return Array.isArray(o.args) && o.args.every((a) => wellFormed(a, inner));
    default: return wellFormed(o.arg, inner); // "not"
  }
}
