/**
 * A string matching a registry schema's `pattern`, for the subset of regular expressions the schemas use:
 * literals and escapes, `.`, `\d \w \s` and their negations, classes (ranges, negated), groups (capturing,
 * `(?:`), alternation, and the quantifiers `* + ? {n} {n,} {n,m}` (lazy ones too). Lookarounds are skipped.
 */

type Node =
  | { t: "chars"; pick: (i: number) => string }
  | { t: "group"; alts: Node[][] }
  | { t: "repeat"; node: Node; min: number; max: number };

const DIGITS = "0123456789";
const WORD = "abcdefghijklmnopqrstuvwxyz";

/** A class's members as a picker: the i-th allowed character (cycling), from a small candidate alphabet. */
function classPicker(allowed: (c: string) => boolean): (i: number) => string {
  const alphabet = `${WORD}${DIGITS}${WORD.toUpperCase()}-_./:=@+ ,`;
  const members = [...alphabet].filter(allowed);
  return (i) => members[i % Math.max(1, members.length)] ?? "a";
}

function escapeTest(c: string): ((ch: string) => boolean) | string {
  switch (c) {
    case "d":
      return (ch) => /\d/.test(ch);
    case "D":
      return (ch) => !/\d/.test(ch);
    case "w":
      return (ch) => /\w/.test(ch);
    case "W":
      return (ch) => !/\w/.test(ch);
    case "s":
      return (ch) => ch === " ";
    case "S":
      return (ch) => ch !== " ";
    case "n":
      return "\n";
    case "t":
      return "\t";
    default:
      return c;
  }
}

class Parser {
  i = 0;
  constructor(private readonly src: string) {}

  parse(): Node[][] {
    const alts: Node[][] = [[]];
    while (this.i < this.src.length) {
      const c = this.src[this.i]!;
      if (c === ")") break;
      this.i++;
      if (c === "|") {
        alts.push([]);
        continue;
      }
      if (c === "^" || c === "$") continue;
      let node: Node | undefined;
      if (c === "(") node = this.group();
      else if (c === "[") node = this.cls();
      else if (c === ".") node = { t: "chars", pick: classPicker((ch) => ch !== "\n") };
      else if (c === "\\") node = this.escape();
      else node = { t: "chars", pick: () => c };
      if (node) alts.at(-1)!.push(this.quantified(node));
    }
    return alts;
  }

  private group(): Node | undefined {
    let look = false;
    if (this.src[this.i] === "?") {
      const kind = this.src.slice(this.i, this.i + 3);
      look = kind.startsWith("?=") || kind.startsWith("?!") || kind.startsWith("?<=") || kind.startsWith("?<!");
      this.i += kind.startsWith("?<=") || kind.startsWith("?<!") ? 3 : 2;
      if (kind.startsWith("?<") && !look) while (this.src[this.i - 1] !== ">" && this.i < this.src.length) this.i++; // (?<name>
    }
    const alts = this.parse();
    this.i++; // ")"
    return look ? undefined : { t: "group", alts };
  }

  private escape(): Node {
    const c = this.src[this.i++]!;
    const e = escapeTest(c);
    return typeof e === "string" ? { t: "chars", pick: () => e } : { t: "chars", pick: classPicker(e) };
  }

  private cls(): Node {
    const negate = this.src[this.i] === "^";
    if (negate) this.i++;
    const tests: ((ch: string) => boolean)[] = [];
    let first = true;
    while (this.i < this.src.length && (this.src[this.i] !== "]" || first)) {
      first = false;
      let c = this.src[this.i++]!;
      if (c === "\\") {
        const e = escapeTest(this.src[this.i++]!);
        if (typeof e !== "string") {
          tests.push(e);
          continue;
        }
        c = e;
      }
      if (this.src[this.i] === "-" && this.src[this.i + 1] !== "]" && this.i + 1 < this.src.length) {
        let hi = this.src[this.i + 1]!;
        this.i += 2;
        if (hi === "\\") hi = this.src[this.i++]!;
        const lo = c;
        tests.push((ch) => ch >= lo && ch <= hi);
      } else tests.push((ch) => ch === c);
    }
    this.i++; // "]"
    const inClass = (ch: string) => tests.some((t) => t(ch));
    return { t: "chars", pick: classPicker(negate ? (ch) => !inClass(ch) : inClass) };
  }

  private quantified(node: Node): Node {
    const c = this.src[this.i];
    let min = 1;
    let max = 1;
    if (c === "*") [min, max] = [0, Infinity];
    else if (c === "+") [min, max] = [1, Infinity];
    else if (c === "?") [min, max] = [0, 1];
    else if (c === "{") {
      const m = /^\{(\d*)(,(\d*))?\}/.exec(this.src.slice(this.i));
      if (!m) return node;
      min = Number(m[1] || 0);
      max = m[2] ? (m[3] ? Number(m[3]) : Infinity) : min;
      this.i += m[0].length - 1;
    } else return node;
    this.i++;
    if (this.src[this.i] === "?" || this.src[this.i] === "+") this.i++; // lazy / possessive
    return { t: "repeat", node, min, max };
  }
}

/** Renders the parse: every repeat takes `min + grow` turns (within its max), every alternation its `branch`-th choice. */
function render(alts: Node[][], grow: number, branch: number): string {
  const seq = alts[Math.min(branch, alts.length - 1)] ?? [];
  let out = "";
  for (const n of seq) out += renderNode(n, grow, branch, 0);
  return out;
}

function renderNode(n: Node, grow: number, branch: number, k: number): string {
  if (n.t === "chars") return n.pick(k);
  if (n.t === "group") return render(n.alts, grow, branch);
  const count = Math.min(n.max, n.min + grow);
  let s = "";
  for (let i = 0; i < count; i++) s += renderNode(n.node, grow, branch, i);
  return s;
}

/**
 * A string that matches `pattern` and has a length within the bounds, or undefined when none of the
 * candidates this generator tries does.
 *
 * @example matching("^[a-z][a-z0-9-]{2,62}$") // "aab"
 * @example matching("^arn:aws[a-z-]*:iam::\\d{12}:role/.+$") // "arn:aws:iam::000000000000:role/a"
 */
export function matching(pattern: string, minLength = 0, maxLength = Infinity): string | undefined {
  let re: RegExp;
  let alts: Node[][];
  try {
    re = new RegExp(pattern, "u");
    alts = new Parser(pattern).parse();
  } catch {
    return undefined;
  }
  for (let branch = 0; branch < 4; branch++) {
    for (let grow = 0; grow <= Math.min(64, Math.max(8, minLength)); grow++) {
      const s = render(alts, grow, branch);
      if (s.length > maxLength) break;
      if (s.length >= minLength && re.test(s)) return s;
    }
  }
  return undefined;
}
