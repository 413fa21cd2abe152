import { UNKNOWN } from "../../core/unknown.js";

/**
 * How a stand-in prints inside a string (a name, an input): private-use characters a real name would
 * not hold, so a declared name that contains one is known to depend on the unknown value.
 */
const MARK = "\u{F8FF}";

/**
 * The text of a stand-in inside a string.
 *
 * @example `validation-${standIn()}` === `validation-${STAND_IN_TEXT}`
 */
export const STAND_IN_TEXT = `${MARK}…${MARK}`;

/**
 * True when `s` was built from a stand-in (a name that depends on an unknown value).
 *
 * @example hasStandIn(`validation-${STAND_IN_TEXT}`) // true
 */
export function hasStandIn(s: string): boolean {
  return s.includes(MARK);
}

/**
 * How a name built from a stand-in reads, its unknown parts as `…`.
 *
 * @example namePattern(`validation-${STAND_IN_TEXT}`) // "validation-…"
 */
export function namePattern(s: string): string {
  return s.split(STAND_IN_TEXT).join("…");
}

/** Array methods a stand-in answers as a one-element list: a callback that maps over it declares one of each. */
const LIST_METHODS = new Set(["map", "flatMap", "forEach", "filter", "find", "findLast", "some", "every", "reduce", "flat", "slice", "concat", "at", "entries", "values", "keys", "sort", "toSorted"]);

/**
 * A stand-in for an unknown value: an object that answers any use a callback makes of it with another
 * stand-in (a property, a call), prints as `…` in strings and iterates as one element. Running a callback
 * on stand-ins while planning shows what it would declare (types, and names that do not depend on the
 * value) without the value. Known parts of a partly known value are passed as they are.
 *
 * @example standIn({ domainName: "a.example.dev", resourceRecord: UNKNOWN }).domainName // "a.example.dev"
 */
export function standIn(partial: unknown = UNKNOWN): unknown {
  if (partial === UNKNOWN) return unknownStandIn();
  if (Array.isArray(partial)) return partial.map((x) => standIn(x));
  if (partial !== null && typeof partial === "object" && Object.getPrototypeOf(partial) === Object.prototype) {
    return Object.fromEntries(Object.entries(partial).map(([k, v]) => [k, standIn(v)]));
  }
  return partial;
}

/** Every stand-in made (to tell one given as a name from a mistake). */
const standIns = new WeakSet<object>();

/**
 * True for a stand-in (see {@link standIn}).
 *
 * @example isStandIn(standIn()) // true; isStandIn("a") // false
 */
export function isStandIn(v: unknown): boolean {
  return typeof v === "function" && standIns.has(v);
}

function unknownStandIn(): unknown {
  const self = new Proxy(function standInValue() {}, {
    get(_t, key) {
      if (key === Symbol.toPrimitive) return () => STAND_IN_TEXT;
      if (key === Symbol.iterator) return function* () { yield unknownStandIn(); };
      if (typeof key === "symbol" || key === "then") return undefined; // not a node, not a promise
      if (key === "toString" || key === "toJSON" || key === "valueOf") return () => STAND_IN_TEXT;
      if (key === "length") return 1;
      if (LIST_METHODS.has(key)) return (...args: unknown[]) => (([unknownStandIn()] as unknown as Record<string, (...a: unknown[]) => unknown>)[key]!)(...args);
      return unknownStandIn();
    },
    apply: () => unknownStandIn(),
    has: () => false,
    ownKeys: () => ["prototype"],
  });
  standIns.add(self);
  return self;
}
