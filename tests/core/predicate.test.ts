import { inspect } from "node:util";
import { describe, it, expect } from "vitest";
import {
  and,
  attributesRead,
  buildPredicate,
  evaluate,
  formatObserved,
  formatPath,
  formatPredicate,
  isPredicate,
  not,
  observe,
  or,
  readPaths,
  type Attrs,
  type Predicate,
} from "../../src/core/predicate.js";

interface CertOut {
  arn: string;
  status: "PENDING_VALIDATION" | "ISSUED" | "FAILED" | "REVOKED";
  inUseBy: string[];
  renewalSummary?: { renewalStatus: "PENDING" | "SUCCESS" };
  domainValidationOptions: { domainName: string; validationStatus?: "PENDING_VALIDATION" | "SUCCESS" }[];
  size: number;
  enabled: boolean;
  tags: Record<string, string>;
  created: string;
  meta: unknown;
}

/** Builds a predicate against CertOut. */
const P = (fn: (c: Attrs<CertOut>) => Predicate): Predicate => buildPredicate<CertOut>(fn, "test");
/** The runtime proxy, untyped, for poking at it directly. */
const proxy = (): Record<string | symbol, unknown> => {
  let root: unknown;
  buildPredicate<CertOut>((c) => ((root = c), c.arn.exists()), "test");
  return root as Record<string | symbol, unknown>;
};

const cert = {
  arn: "arn:aws:acm:1",
  status: "PENDING_VALIDATION",
  inUseBy: ["lb-1", "lb-2"],
  domainValidationOptions: [
    { domainName: "a.example.com", validationStatus: "SUCCESS" },
    { domainName: "b.example.com", validationStatus: "PENDING_VALIDATION" },
  ],
  size: 3,
  enabled: true,
  tags: { "team-name": "infra", env: "prod" },
  created: "2024-05-01T00:00:00Z",
  meta: { nested: { list: [1, { x: "y" }] } },
  nothing: null,
};

describe("buildPredicate", () => {
  it("turns proxy calls into plain data", () => {
    expect(P((c) => c.status.eq("ISSUED"))).toEqual({ op: "eq", path: ["status"], value: "ISSUED" });
    expect(P((c) => c.domainValidationOptions[1].validationStatus.ne("SUCCESS"))).toEqual({
      op: "ne",
      path: ["domainValidationOptions", 1, "validationStatus"],
      value: "SUCCESS",
    });
    expect(P((c) => c.size.gte(2))).toEqual({ op: "gte", path: ["size"], value: 2 });
    expect(P((c) => c.status.notIn(["FAILED"]))).toEqual({ op: "notIn", path: ["status"], values: ["FAILED"] });
    expect(P((c) => c.renewalSummary.exists())).toEqual({ op: "exists", path: ["renewalSummary"] });
    expect(P((c) => c.domainValidationOptions.every((o) => o.validationStatus.eq("SUCCESS")))).toEqual({
      op: "every",
      path: ["domainValidationOptions"],
      where: { op: "eq", path: ["validationStatus"], value: "SUCCESS" },
    });
    expect(P((c) => c.inUseBy.some((it) => it.eq("lb-1")))).toEqual({ op: "some", path: ["inUseBy"], where: { op: "eq", path: [], value: "lb-1" } });
    expect(P((c) => not(or(c.enabled.eq(false), and(c.size.lt(1)))))).toEqual({
      op: "not",
      arg: { op: "or", args: [{ op: "eq", path: ["enabled"], value: false }, { op: "and", args: [{ op: "lt", path: ["size"], value: 1 }] }] },
    });
  });

  it("keeps non-canonical numeric keys as strings", () => {
    const m = (c: Attrs<CertOut>) => c.meta as Record<string, { eq(v: unknown): Predicate }>;
    expect(P((c) => m(c)["01"]!.eq(1))).toMatchObject({ path: ["meta", "01"] });
    expect(P((c) => m(c)["-1"]!.eq(1))).toMatchObject({ path: ["meta", "-1"] });
    expect(P((c) => m(c)["10"]!.eq(1))).toMatchObject({ path: ["meta", 10] });
  });

  it("serves an attribute named like a method as both", () => {
    const p = buildPredicate<{ cfg: { exists: string } }>((c) => c.cfg.exists.eq("yes"), "t");
    expect(p).toEqual({ op: "eq", path: ["cfg", "exists"], value: "yes" });
    expect(buildPredicate<{ cfg: { other: string } }>((c) => c.cfg.exists(), "t")).toEqual({ op: "exists", path: ["cfg"] });
  });

  it("deep-copies values", () => {
    const value = { a: [1, 2] };
    const p = P((c) => c.meta.eq(value));
    value.a.push(3);
    expect(p).toEqual({ op: "eq", path: ["meta"], value: { a: [1, 2] } });
  });

  it("explains a boolean returned by == comparisons", () => {
    // eslint-like mistake: the user compares the proxy itself.
    const fn = ((c: Attrs<CertOut>) => (c.status as unknown) == "ISSUED") as unknown as (c: Attrs<CertOut>) => Predicate;
    expect(() => buildPredicate(fn, 'until of wait "issued"')).toThrow(/until of wait "issued".*boolean.*c\.status\.eq\("X"\)/s);
    const gt = ((c: Attrs<CertOut>) => (c.size as unknown as number) > 3) as unknown as (c: Attrs<CertOut>) => Predicate;
    expect(() => buildPredicate(gt, "until")).toThrow(/\.eq\(/);
  });

  it("explains other non-predicate results", () => {
    const bad = (r: unknown) => () => buildPredicate<CertOut>(r as (c: Attrs<CertOut>) => Predicate, "failWhen of wait \"w\"");
    expect(bad((c: Attrs<CertOut>) => c.status)).toThrow(/failWhen of wait "w".*attribute Attr\(status\).*\.eq\("X"\)/);
    expect(bad(() => undefined)).toThrow(/failWhen of wait "w" must return a predicate.*returned undefined/);
    expect(bad(async () => ({ op: "exists", path: ["arn"] }))).toThrow(/promise/);
    expect(bad(() => ({ op: "equals", path: ["arn"], value: 1 }))).toThrow(/returned an object/);
  });

  it("rejects a non-predicate from some/every callbacks", () => {
    const fn = ((c: Attrs<CertOut>) => c.inUseBy.some(((it: unknown) => it === "x") as never)) as (c: Attrs<CertOut>) => Predicate;
    expect(() => buildPredicate(fn, "until")).toThrow(/inUseBy\.some\(\.\.\.\).*boolean/);
  });

  it("rejects values that are not plain data", () => {
    class Output {
      toString(): string {
        throw new Error("do not stringify me");
      }
    }
    const eq = (v: unknown) => () => P((c) => c.meta.eq(v));
    expect(eq(new Output())).toThrow(/predicate values must be plain data: meta\.eq\(\.\.\.\) got an instance of Output/);
    expect(eq(() => 1)).toThrow(/plain data.*a function/);
    expect(eq({ nested: [new Map()] })).toThrow(/plain data.*an instance of Map/);
    expect(eq(new Date())).toThrow(/plain data.*a Date.*ISO string/);
    expect(eq(undefined)).toThrow(/plain data.*undefined.*exists/);
    expect(eq(NaN)).toThrow(/plain data.*NaN/);
    expect(eq(10n)).toThrow(/plain data.*bigint/);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(eq(cyclic)).toThrow(/circular/);
    expect(() => P((c) => c.arn.eq(c.status as never))).toThrow(/another attribute, Attr\(status\)/);
    expect(() => P((c) => c.status.in([c.status] as never))).toThrow(/another attribute/);
    expect(() => P((c) => c.status.in("ISSUED" as never))).toThrow(/status\.in\(\.\.\.\) needs an array/);
    expect(() => P((c) => c.enabled.eq(true) && c.meta.gt(true as never))).toThrow(/meta\.gt\(\.\.\.\) needs a number or a string, got true/);
    expect(() => P((c) => c.inUseBy.some("x" as never))).toThrow(/needs a function/);
    // Null-prototype objects and nested arrays are plain.
    expect(P((c) => c.meta.eq(Object.assign(Object.create(null) as object, { a: [null, true] }))).op).toBe("eq");
  });
});

describe("the runtime proxy", () => {
  it("is never a thenable and hides symbols", async () => {
    const c = proxy();
    expect(c.then).toBeUndefined();
    expect((c.status as Record<string, unknown>).then).toBeUndefined();
    expect(c[Symbol.iterator]).toBeUndefined();
    // Awaiting it resolves to the proxy itself instead of hanging.
    const status = c.status;
    expect(await (status as unknown as Promise<unknown>)).toBe(status);
  });

  it("is safe to inspect and to coerce", () => {
    const c = proxy() as unknown as Attrs<CertOut>;
    expect(inspect(c.status)).toBe("Attr(status)");
    expect(inspect(c.domainValidationOptions[0].validationStatus)).toBe("Attr(domainValidationOptions[0].validationStatus)");
    expect(inspect({ x: c.tags })).toContain("Attr(tags)");
    expect(`${c.status as unknown as string}`).toBe("Attr(status)");
    expect(() => JSON.stringify(c.status)).not.toThrow();
  });

  it("is read-only", () => {
    const c = proxy() as Record<string, unknown>;
    expect(() => {
      c.status = 1;
    }).toThrow(TypeError);
  });
});

describe("combinators", () => {
  it("reject non-predicates at runtime", () => {
    const c = proxy() as unknown as Attrs<CertOut>;
    expect(() => and(c.status as never, c.size.eq(1))).toThrow(/and\(\.\.\.\) argument 1 is not a predicate: got Attr\(status\)/);
    expect(() => or(c.size.eq(1), true as never)).toThrow(/or\(\.\.\.\) argument 2 is not a predicate: got true.*eq\(/);
    expect(() => not({ op: "nope" } as never)).toThrow(/not\(\.\.\.\) argument/);
  });
});

describe("evaluate", () => {
  const ev = (fn: (c: Attrs<CertOut>) => Predicate, attrs: Record<string, unknown> = cert) => evaluate(P(fn), attrs);

  it("eq / ne with deep equality", () => {
    expect(ev((c) => c.status.eq("PENDING_VALIDATION"))).toBe(true);
    expect(ev((c) => c.status.eq("ISSUED"))).toBe(false);
    expect(ev((c) => c.status.ne("ISSUED"))).toBe(true);
    expect(ev((c) => c.status.ne("PENDING_VALIDATION"))).toBe(false);
    expect(ev((c) => c.inUseBy.eq(["lb-1", "lb-2"]))).toBe(true);
    expect(ev((c) => c.inUseBy.eq(["lb-2", "lb-1"]))).toBe(false);
    expect(ev((c) => c.meta.eq({ nested: { list: [1, { x: "y" }] } }))).toBe(true);
    expect(ev((c) => c.meta.eq({ nested: { list: [1, { x: "z" }] } }))).toBe(false);
    expect(ev((c) => c.size.eq(3))).toBe(true);
    expect(ev((c) => c.size.eq("3" as never))).toBe(false); // strict: no coercion
  });

  it("missing paths and null", () => {
    expect(ev((c) => c.renewalSummary.renewalStatus.eq("SUCCESS"))).toBe(false);
    expect(ev((c) => c.renewalSummary.renewalStatus.ne("SUCCESS"))).toBe(true);
    expect(ev((c) => c.arn.eq("x"), {})).toBe(false);
    expect(evaluate({ op: "eq", path: ["nothing"], value: null }, cert)).toBe(true);
    expect(evaluate({ op: "eq", path: ["missing"], value: null }, cert)).toBe(false);
    expect(evaluate({ op: "eq", path: ["nothing", "deeper"], value: null }, cert)).toBe(false);
    expect(evaluate({ op: "eq", path: ["status", "length"], value: 18 }, cert)).toBe(false); // primitives have no attributes
    expect(evaluate({ op: "exists", path: ["tags", "constructor"] }, cert)).toBe(false); // own properties only
    expect(evaluate({ op: "eq", path: ["inUseBy", "length"], value: 2 }, cert)).toBe(true);
  });

  it("gt / gte / lt / lte only compare like with like", () => {
    expect(ev((c) => c.size.gt(2))).toBe(true);
    expect(ev((c) => c.size.gt(3))).toBe(false);
    expect(ev((c) => c.size.gte(3))).toBe(true);
    expect(ev((c) => c.size.gte(4))).toBe(false);
    expect(ev((c) => c.size.lt(4))).toBe(true);
    expect(ev((c) => c.size.lt(3))).toBe(false);
    expect(ev((c) => c.size.lte(3))).toBe(true);
    expect(ev((c) => c.size.lte(2))).toBe(false);
    expect(ev((c) => c.created.gte("2024-01-01"))).toBe(true);
    expect(ev((c) => c.created.lt("2024-01-01"))).toBe(false);
    expect(ev((c) => c.size.gt(2), { size: "10" })).toBe(false);
    expect(ev((c) => c.size.lt(20), { size: "10" })).toBe(false);
    expect(ev((c) => c.created.lt("z"), { created: 5 })).toBe(false);
    expect(ev((c) => c.size.gt(2), { size: null })).toBe(false);
    expect(ev((c) => c.size.lte(2), {})).toBe(false);
  });

  it("in / notIn with deep equality", () => {
    expect(ev((c) => c.status.in(["FAILED", "PENDING_VALIDATION"]))).toBe(true);
    expect(ev((c) => c.status.in(["FAILED", "ISSUED"]))).toBe(false);
    expect(ev((c) => c.status.in([]))).toBe(false);
    expect(ev((c) => c.status.notIn(["FAILED", "ISSUED"]))).toBe(true);
    expect(ev((c) => c.status.notIn(["PENDING_VALIDATION"]))).toBe(false);
    expect(evaluate({ op: "in", path: ["inUseBy"], values: [["x"], ["lb-1", "lb-2"]] }, cert)).toBe(true);
    expect(ev((c) => c.meta.in([{ nested: { list: [1, { x: "y" }] } }]))).toBe(true);
    expect(ev((c) => c.arn.in(["x"]), {})).toBe(false);
    expect(ev((c) => c.arn.notIn(["x"]), {})).toBe(true);
  });

  it("exists", () => {
    expect(ev((c) => c.arn.exists())).toBe(true);
    expect(ev((c) => c.renewalSummary.exists())).toBe(false);
    expect(evaluate({ op: "exists", path: ["nothing"] }, cert)).toBe(false);
    expect(ev((c) => c.enabled.exists(), { enabled: false })).toBe(true);
    expect(ev((c) => c.size.exists(), { size: 0 })).toBe(true);
    expect(ev((c) => c.arn.exists(), { arn: "" })).toBe(true);
  });

  it("nested paths and indices", () => {
    expect(ev((c) => c.domainValidationOptions[0].validationStatus.eq("SUCCESS"))).toBe(true);
    expect(ev((c) => c.domainValidationOptions[1].validationStatus.eq("SUCCESS"))).toBe(false);
    expect(ev((c) => c.domainValidationOptions[5].validationStatus.exists())).toBe(false);
    expect(ev((c) => c.tags["team-name"]!.eq("infra"))).toBe(true);
    expect(evaluate({ op: "eq", path: ["meta", "nested", "list", 1, "x"], value: "y" }, cert)).toBe(true);
  });

  it("some / every", () => {
    expect(ev((c) => c.domainValidationOptions.some((o) => o.validationStatus.eq("SUCCESS")))).toBe(true);
    expect(ev((c) => c.domainValidationOptions.every((o) => o.validationStatus.eq("SUCCESS")))).toBe(false);
    expect(ev((c) => c.domainValidationOptions.every((o) => o.domainName.exists()))).toBe(true);
    expect(ev((c) => c.domainValidationOptions.some((o) => o.domainName.eq("c.example.com")))).toBe(false);
    expect(ev((c) => c.inUseBy.some((it) => it.eq("lb-2")))).toBe(true);
    expect(ev((c) => c.inUseBy.every((it) => it.gt("lb")))).toBe(true);
    // Empty arrays: some is false, every is (vacuously) true.
    expect(ev((c) => c.inUseBy.some((it) => it.exists()), { inUseBy: [] })).toBe(false);
    expect(ev((c) => c.inUseBy.every((it) => it.eq("x")), { inUseBy: [] })).toBe(true);
    // Not an array (or absent): both false.
    expect(ev((c) => c.inUseBy.some((it) => it.exists()), { inUseBy: "lb-1" })).toBe(false);
    expect(ev((c) => c.inUseBy.every((it) => it.exists()), { inUseBy: { 0: "lb-1" } })).toBe(false);
    expect(ev((c) => c.inUseBy.every((it) => it.exists()), {})).toBe(false);
    // Elements that are not objects read nested paths as absent.
    expect(evaluate({ op: "some", path: ["xs"], where: { op: "exists", path: ["a"] } }, { xs: [1, null, "a"] })).toBe(false);
  });

  it("and / or / not", () => {
    const t = P((c) => c.arn.exists());
    const f = P((c) => c.status.eq("ISSUED"));
    expect(evaluate(and(t, t), cert)).toBe(true);
    expect(evaluate(and(t, f), cert)).toBe(false);
    expect(evaluate(and(), cert)).toBe(true);
    expect(evaluate(or(f, t), cert)).toBe(true);
    expect(evaluate(or(f, f), cert)).toBe(false);
    expect(evaluate(or(), cert)).toBe(false);
    expect(evaluate(not(f), cert)).toBe(true);
    expect(evaluate(not(t), cert)).toBe(false);
    expect(evaluate(not(or(f, and(t, not(f)))), cert)).toBe(false);
  });
});

describe("formatPredicate", () => {
  const fmt = (fn: (c: Attrs<CertOut>) => Predicate) => formatPredicate(P(fn), "cert");

  it("formats comparisons with JSON values", () => {
    expect(fmt((c) => c.status.eq("ISSUED"))).toBe('cert.status == "ISSUED"');
    expect(fmt((c) => c.status.ne("ISSUED"))).toBe('cert.status != "ISSUED"');
    expect(fmt((c) => c.size.gt(1))).toBe("cert.size > 1");
    expect(fmt((c) => c.size.gte(1))).toBe("cert.size >= 1");
    expect(fmt((c) => c.created.lt("2024"))).toBe('cert.created < "2024"');
    expect(fmt((c) => c.size.lte(1.5))).toBe("cert.size <= 1.5");
    expect(fmt((c) => c.enabled.eq(false))).toBe("cert.enabled == false");
    expect(fmt((c) => c.meta.eq({ a: [1, "b"], n: null }))).toBe('cert.meta == {"a":[1,"b"],"n":null}');
    expect(fmt((c) => c.status.in(["FAILED", "REVOKED"]))).toBe('cert.status in ["FAILED", "REVOKED"]');
    expect(fmt((c) => c.status.notIn(["FAILED"]))).toBe('cert.status not in ["FAILED"]');
    expect(fmt((c) => c.status.in([]))).toBe("cert.status in []");
    expect(fmt((c) => c.renewalSummary.exists())).toBe("exists(cert.renewalSummary)");
  });

  it("formats some / every with `it`", () => {
    expect(fmt((c) => c.domainValidationOptions.some((o) => o.validationStatus.eq("SUCCESS")))).toBe(
      'cert.domainValidationOptions.some(it.validationStatus == "SUCCESS")',
    );
    expect(fmt((c) => c.domainValidationOptions.every((o) => and(o.domainName.exists(), o.validationStatus.ne("SUCCESS"))))).toBe(
      'cert.domainValidationOptions.every(exists(it.domainName) && it.validationStatus != "SUCCESS")',
    );
    expect(fmt((c) => c.inUseBy.some((it) => it.eq("lb-1")))).toBe('cert.inUseBy.some(it == "lb-1")');
    expect(formatPredicate({ op: "some", path: ["a"], where: { op: "every", path: ["b"], where: { op: "exists", path: [0] } } }, "x")).toBe(
      "x.a.some(it.b.every(exists(it[0])))",
    );
  });

  it("formats and / or / not with parentheses where needed", () => {
    expect(fmt((c) => and(c.status.eq("ISSUED"), c.size.gt(0), c.enabled.eq(true)))).toBe('cert.status == "ISSUED" && cert.size > 0 && cert.enabled == true');
    expect(fmt((c) => or(c.status.eq("FAILED"), c.size.eq(0)))).toBe('cert.status == "FAILED" || cert.size == 0');
    expect(fmt((c) => and(or(c.status.eq("FAILED"), c.size.eq(0)), c.enabled.eq(true)))).toBe('(cert.status == "FAILED" || cert.size == 0) && cert.enabled == true');
    // && binds tighter than ||: no parentheses needed.
    expect(fmt((c) => or(c.size.eq(0), and(c.status.eq("FAILED"), c.enabled.eq(true))))).toBe('cert.size == 0 || cert.status == "FAILED" && cert.enabled == true');
    // not always parenthesises its operand.
    expect(fmt((c) => not(c.status.eq("FAILED")))).toBe('!(cert.status == "FAILED")');
    expect(fmt((c) => not(and(c.size.eq(0), c.enabled.eq(true))))).toBe("!(cert.size == 0 && cert.enabled == true)");
    expect(fmt((c) => not(not(c.arn.exists())))).toBe("!(!(exists(cert.arn)))");
    expect(formatPredicate(and(), "cert")).toBe("true");
    expect(formatPredicate(or(), "cert")).toBe("false");
    expect(formatPredicate(and(or(P((c) => c.arn.exists()))), "cert")).toBe("exists(cert.arn)");
  });

  it("formats paths with indices and non-identifier keys", () => {
    expect(fmt((c) => c.domainValidationOptions[0].validationStatus.eq("SUCCESS"))).toBe('cert.domainValidationOptions[0].validationStatus == "SUCCESS"');
    expect(fmt((c) => c.tags["team-name"]!.eq("infra"))).toBe('cert.tags["team-name"] == "infra"');
    expect(formatPath(["domainValidationOptions", 0, "validationStatus"])).toBe("domainValidationOptions[0].validationStatus");
    expect(formatPath(["weird-key", "$ok", "_x1", "1abc", ""])).toBe('["weird-key"].$ok._x1["1abc"][""]');
    expect(formatPath([0, "a"])).toBe("[0].a");
    expect(formatPath([])).toBe("");
  });
});

describe("readPaths / attributesRead", () => {
  const p = P((c) =>
    and(
      c.status.eq("ISSUED"),
      or(c.renewalSummary.renewalStatus.eq("SUCCESS"), c.status.ne("FAILED")),
      c.domainValidationOptions.every((o) => o.validationStatus.eq("SUCCESS")),
      not(c.renewalSummary.exists()),
      c.domainValidationOptions[0].domainName.exists(),
    ),
  );

  it("lists distinct read paths in order, with some/every as the array path", () => {
    expect(readPaths(p)).toEqual([
      ["status"],
      ["renewalSummary", "renewalStatus"],
      ["domainValidationOptions"],
      ["renewalSummary"],
      ["domainValidationOptions", 0, "domainName"],
    ]);
    expect(readPaths({ op: "and", args: [{ op: "exists", path: ["m", 0] }, { op: "exists", path: ["m", "0"] }] })).toEqual([
      ["m", 0],
      ["m", "0"],
    ]);
  });

  it("lists top-level attributes", () => {
    expect(attributesRead(p)).toEqual(["status", "renewalSummary", "domainValidationOptions"]);
  });
});

describe("observe / formatObserved", () => {
  const p = P((c) => and(c.status.eq("ISSUED"), c.size.gt(5), c.renewalSummary.renewalStatus.eq("SUCCESS"), c.arn.exists()));

  it("observes what the predicate reads", () => {
    expect(observe(p, cert)).toEqual([
      { path: "status", value: "PENDING_VALIDATION" },
      { path: "size", value: 3 },
      { path: "renewalSummary.renewalStatus", value: undefined },
      { path: "arn", value: "arn:aws:acm:1" },
    ]);
  });

  it("masks secret attributes, present or not", () => {
    expect(observe(p, cert, new Set(["arn", "renewalSummary"]))).toEqual([
      { path: "status", value: "PENDING_VALIDATION" },
      { path: "size", value: 3 },
      { path: "renewalSummary.renewalStatus", value: "[secret]" },
      { path: "arn", value: "[secret]" },
    ]);
  });

  it("formats observations", () => {
    expect(formatObserved(observe(p, cert, new Set(["arn"])))).toBe('status = "PENDING_VALIDATION", size = 3, renewalSummary.renewalStatus = (absent), arn = [secret]');
    expect(formatObserved([{ path: "tags", value: { a: [1] } }, { path: "x", value: null }])).toBe('tags = {"a":[1]}, x = null');
    expect(formatObserved([])).toBe("");
  });
});

describe("isPredicate", () => {
  it("accepts well-formed predicates, including JSON round trips", () => {
    const all = P((c) =>
      and(
        c.status.eq("ISSUED"),
        c.size.gt(1),
        c.status.in(["FAILED"]),
        not(c.arn.exists()),
        or(c.inUseBy.some((it) => it.eq("x")), c.domainValidationOptions.every((o) => o.domainName.lte("z"))),
      ),
    );
    expect(isPredicate(all)).toBe(true);
    expect(isPredicate(JSON.parse(JSON.stringify(all)))).toBe(true);
    expect(isPredicate({ op: "eq", path: [], value: null })).toBe(true);
    expect(isPredicate({ op: "and", args: [] })).toBe(true);
    expect(isPredicate(Object.assign(Object.create(null) as object, { op: "exists", path: ["a"] }))).toBe(true);
  });

  it("rejects malformed data", () => {
    const bad: unknown[] = [
      null,
      "eq",
      [],
      true,
      {},
      { op: "equals", path: ["a"], value: 1 },
      { op: "eq", path: "status", value: 1 },
      { op: "eq", path: ["a"] }, // value missing
      { op: "eq", path: ["a"], value: undefined },
      { op: "eq", path: ["a"], value: new Date() },
      { op: "eq", path: ["a"], value: 1, extra: true },
      { op: "eq", path: [-1], value: 1 },
      { op: "eq", path: [1.5], value: 1 },
      { op: "eq", path: [null], value: 1 },
      { op: "gt", path: ["a"], value: true },
      { op: "gt", path: ["a"], value: Infinity },
      { op: "in", path: ["a"], values: "x" },
      { op: "in", path: ["a"], values: [() => 1] },
      { op: "exists" },
      { op: "some", path: ["a"], where: true },
      { op: "every", path: ["a"], where: { op: "nope" } },
      { op: "and", args: [{ op: "exists", path: ["a"] }, 1] },
      { op: "or", args: { 0: { op: "exists", path: ["a"] } } },
      { op: "not", args: [{ op: "exists", path: ["a"] }] },
      { op: "not", arg: null },
      new (class {
        op = "exists";
        path = ["a"];
      })(),
    ];
    for (const b of bad) expect(isPredicate(b), inspect(b)).toBe(false);
    const cyclic: { op: string; arg?: unknown } = { op: "not" };
    cyclic.arg = cyclic;
    expect(isPredicate(cyclic)).toBe(false);
    expect(isPredicate(proxy().status)).toBe(false);
  });
});
