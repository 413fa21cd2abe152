/**
 * Names made for objects whose type has an optional name input the program leaves out: the resource's
 * logical name and a random suffix (`jobs-1a2b3c4`), fitted to the input's length and pattern. A type states
 * the rule in its schema ({@link AutoNameRule}); the planner chooses the name once and keeps it in state.
 */

/**
 * How a type's objects are named when the program gives no name: the input that names them and the
 * constraints a name must meet (as the type's schema states them).
 *
 * @example
 * const bucket: AutoNameRule = { input: "bucketName", minLength: 3, maxLength: 63, pattern: "^[a-z0-9][a-z0-9.-]*[a-z0-9]$" };
 */
export interface AutoNameRule {
  /** The input attribute that names the object. */
  input: string;
  minLength?: number;
  maxLength?: number;
  /** A regular expression (JSON Schema `pattern`, ECMAScript syntax) the name must match. */
  pattern?: string;
  /** Lower-case names are preferred (the service lower-cases what it is given, as RDS does). */
  lowerCase?: boolean;
  /** Text the name must end with while another input is `true` (an SQS FIFO queue's `.fifo`). */
  endsWith?: { text: string; when: string };
}

/** Hex digits in a suffix: 16⁷ ≈ 268 million names per logical name. */
export const SUFFIX_LENGTH = 7;

/** How the logical name is cleaned: characters kept (the rest become `sep`), and the separator before the suffix. */
const STYLES: readonly { drop: RegExp; sep: string; runs?: RegExp }[] = [
  { drop: /[^A-Za-z0-9_-]+/g, sep: "-", runs: /-{2,}/g },
  { drop: /[^A-Za-z0-9-]+/g, sep: "-", runs: /-{2,}/g },
  { drop: /[^A-Za-z0-9_]+/g, sep: "_", runs: /_{2,}/g },
  { drop: /[^A-Za-z0-9]+/g, sep: "" },
];

const compiled = new Map<string, { anchored?: RegExp; loose?: RegExp }>();

/** The pattern as a regular expression, anchored and as written (JSON Schema patterns are unanchored); none if it does not compile. */
function patternOf(pattern: string): { anchored?: RegExp; loose?: RegExp } {
  let out = compiled.get(pattern);
  if (out) return out;
  out = {};
  for (const flags of ["u", ""]) {
    try {
      out = { anchored: new RegExp(`^(?:${pattern})$`, flags), loose: new RegExp(pattern, flags) };
      break;
    } catch {
      // The registry's patterns are written for several regex dialects: try without the unicode flag.
    }
  }
  compiled.set(pattern, out);
  return out;
}

/** The logical name cleaned to one style: disallowed runs become the separator, none doubled or at either end. */
function cleaned(logical: string, style: (typeof STYLES)[number], lower: boolean, letterFirst: boolean): string {
  let s = logical.replace(style.drop, style.sep);
  if (style.runs) s = s.replace(style.runs, style.sep).replace(/^[-_]+|[-_]+$/g, "");
  if (lower) s = s.toLowerCase();
  if (letterFirst) s = s.replace(/^[^A-Za-z]+/, "");
  return s;
}

/** Every name worth trying, most faithful to the logical name first. */
function* candidates(logical: string, suffix: string, tail: string, rule: AutoNameRule): Generator<string> {
  const cases = rule.lowerCase ? [true] : [false, true];
  for (const letterFirst of [false, true]) {
    for (const style of STYLES) {
      for (const lower of cases) {
        const budget = (rule.maxLength ?? Infinity) - style.sep.length - suffix.length - tail.length;
        if (budget < 0) continue;
        const base = cleaned(logical, style, lower, letterFirst).slice(0, budget).replace(/[-_.]+$/, "");
        yield base ? `${base}${style.sep}${suffix}${tail}` : `${suffix}${tail}`;
      }
    }
  }
}

/**
 * The name of a new object: `logical` cleaned (characters the pattern refuses replaced, lower-cased when the
 * pattern needs it, cut to fit), then `suffix`, then the ending the rule asks for; the first candidate that
 * fits the length and the pattern (anchored first, then as the schema writes it). Undefined when none fits:
 * the cloud then names the object itself.
 *
 * @example fitName("Assets", "1a2b3c4", { input: "bucketName", maxLength: 63, pattern: "^[a-z0-9][a-z0-9.-]*[a-z0-9]$" }, {}) // "assets-1a2b3c4"
 */
export function fitName(logical: string, suffix: string, rule: AutoNameRule, inputs: Readonly<Record<string, unknown>>): string | undefined {
  const tail = rule.endsWith && inputs[rule.endsWith.when] === true ? rule.endsWith.text : "";
  const { anchored, loose } = rule.pattern ? patternOf(rule.pattern) : {};
  const fits = (name: string, re: RegExp | undefined) => name.length >= (rule.minLength ?? 1) && name.length <= (rule.maxLength ?? Infinity) && (!re || re.test(name));
  // Nearly always the first candidate fits: the others are made only when it does not.
  for (const name of candidates(logical, suffix, tail, rule)) if (fits(name, anchored)) return name;
  if (loose) for (const name of candidates(logical, suffix, tail, rule)) if (fits(name, loose)) return name;
  return undefined;
}
