/**
 * Compile-time tests for the typed attribute proxy. Type-checked by `tsc --noEmit -p tsconfig.json`; never run.
 * Each `@ts-expect-error` must be needed: tsc reports an unused one, which is how these tests fail.
 */
import { and, buildPredicate, not, or, type Attr, type Attrs, type Predicate } from "../../src/core/predicate.js";

interface CertOut {
  arn: string;
  status: "PENDING_VALIDATION" | "ISSUED" | "FAILED";
  inUseBy: string[];
  renewalSummary?: { renewalStatus: "PENDING" | "SUCCESS" };
  domainValidationOptions: { domainName: string; validationStatus?: "PENDING_VALIDATION" | "SUCCESS" }[];
  size: number;
  enabled: boolean;
}
declare const c: Attrs<CertOut>;

export function mustCompile(): Predicate[] {
  return [
    c.status.eq("ISSUED"),
    c.status.ne("FAILED"),
    c.status.in(["FAILED", "ISSUED"]),
    c.status.notIn(["FAILED"]),
    c.status.gt("A"), // lexicographic comparisons are allowed on strings
    c.arn.eq("arn:aws:acm:x"),
    c.arn.exists(),
    c.renewalSummary.renewalStatus.eq("SUCCESS"),
    c.renewalSummary.exists(),
    c.domainValidationOptions[0].validationStatus.eq("SUCCESS"),
    c.domainValidationOptions[3].domainName.eq("example.com"),
    c.domainValidationOptions.every((o) => o.validationStatus.eq("SUCCESS")),
    c.domainValidationOptions.some((o) => and(o.domainName.eq("a.example.com"), o.validationStatus.exists())),
    c.domainValidationOptions.exists(),
    c.size.gte(3),
    c.size.lt(10),
    c.size.in([1, 2, 3]),
    c.enabled.eq(true),
    c.enabled.ne(false),
    and(c.status.eq("ISSUED"), not(c.size.lt(1))),
    or(c.status.eq("FAILED"), and(c.enabled.eq(false), c.size.eq(0))),
    c.inUseBy.exists(),
    c.inUseBy.eq(["a", "b"]),
    c.inUseBy.some((it) => it.eq("arn:aws:elb:x")),
    buildPredicate<CertOut>((x) => x.status.eq("ISSUED"), "t"),
  ];
}

export function mustNotCompile(): unknown[] {
  return [
    // @ts-expect-error wrong attribute name
    c.stauts.eq("ISSUED"),
    // @ts-expect-error value outside the enum
    c.status.eq("DONE"),
    // @ts-expect-error string for a number
    c.size.eq("3"),
    // @ts-expect-error string bound for a number
    c.size.gt("3"),
    // @ts-expect-error booleans are not ordered
    c.enabled.gt(1),
    // @ts-expect-error booleans have no `in`
    c.enabled.in([true]),
    // @ts-expect-error value outside the enum in a list
    c.status.in(["NOPE"]),
    // @ts-expect-error number bound for a string
    c.status.gt(1),
    // @ts-expect-error wrong nested attribute name
    c.renewalSummary.renewalStatuss,
    // @ts-expect-error objects have no eq
    c.renewalSummary.eq({ renewalStatus: "SUCCESS" }),
    // @ts-expect-error wrong element attribute
    c.domainValidationOptions[0].status,
    // @ts-expect-error wrong element attribute inside every
    c.domainValidationOptions.every((o) => o.status.eq("SUCCESS")),
    // @ts-expect-error wrong element value inside some
    c.inUseBy.some((it) => it.eq(1)),
    // @ts-expect-error an attribute is not a predicate
    and(c.status, c.size.eq(1)),
    // @ts-expect-error a boolean is not a predicate
    not(true),
    // @ts-expect-error fn must return a predicate, not a boolean
    buildPredicate<CertOut>((x) => true, "t"),
    // @ts-expect-error fn must return a predicate, not an attribute
    buildPredicate<CertOut>((x) => x.status, "t"),
  ];
}

// `any`/`unknown` attributes are permissive; nullability is ignored; unions stay together.
// Untyped targets: every attribute is permissive (not `| undefined` under noUncheckedIndexedAccess).
declare const untyped: Attrs<any>;
declare const record: Attrs<Record<string, unknown>>;
export function untypedTargets(): Predicate[] {
  return [untyped.status.eq("ISSUED"), untyped.a.b[0].gt(1), record.status.in(["A", "B"])];
}

declare const loose: Attrs<{ meta: unknown; raw: any; maybe: string | null | undefined; mixed: string | number }>;
export function permissive(): Predicate[] {
  const one: Attr<"A" | "B"> = null as unknown as Attr<"A" | "B">;
  return [
    loose.meta.eq({ anything: 1 }),
    loose.meta.deeply.nested.gt(3),
    loose.raw.some((it: Attr<unknown>) => it.x.eq(1)),
    loose.maybe.eq("x"),
    loose.maybe.gte("2024-01-01"),
    loose.mixed.eq(1),
    loose.mixed.in(["a", 2]),
    one.eq("A"),
    // @ts-expect-error "C" is not in "A" | "B"
    one.eq("C"),
    // @ts-expect-error mixed unions are not ordered
    loose.mixed.gt(1),
  ];
}
