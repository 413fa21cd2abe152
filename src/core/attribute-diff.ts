import { isDeepStrictEqual } from "node:util";
import { SECRET_MASK } from "./secret-mask.js";
import { isUnknown } from "./value-text.js";

/** One attribute-level difference, at a path inside an attribute (`tags.env`, `records[1]`). */
export type AttrChange =
  | { attribute: string; path: string; kind: "changed"; before: unknown; after: unknown }
  | { attribute: string; path: string; kind: "added"; after: unknown }
  | { attribute: string; path: string; kind: "removed"; before: unknown };

const IDENT = /^[A-Za-z_$][\w$]*$/;

/**
 * `base.key`, or `base["odd key"]` when the key is not an identifier.
 * @example childPath("tags", "env") // "tags.env"; childPath("records", 1) // "records[1]"
 */
export function childPath(base: string, key: string | number): string {
  if (typeof key === "number") return `${base}[${key}]`;
  if (base === "") return key;
  return IDENT.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v) && !isUnknown(v);

// Arrays longer than this (product of both lengths) are shown as one change rather than aligned element by element.
const ALIGN_LIMIT = 40_000;

/**
 * The differences between two values of one attribute, as compactly as they can be said: nested objects
 * and equal-length arrays recurse; arrays of other lengths are aligned (longest common subsequence) into
 * added and removed elements; an unknown new value is one change.
 *
 * @example diffValue("tags", { env: "dev" }, { env: "prod" }) // [{ path: "tags.env", kind: "changed", before: "dev", after: "prod", attribute: "tags" }]
 */
export function diffValue(attribute: string, before: unknown, after: unknown, path = attribute): AttrChange[] {
  if (isDeepStrictEqual(before, after)) return [];
  if (before === undefined) return [{ attribute, path, kind: "added", after }];
  if (after === undefined) return [{ attribute, path, kind: "removed", before }];
  if (isPlainObject(before) && isPlainObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.flatMap((k) => diffValue(attribute, before[k], after[k], childPath(path, k)));
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    if (before.length === after.length) return before.flatMap((b, i) => diffValue(attribute, b, after[i], childPath(path, i)));
    if (before.length * after.length <= ALIGN_LIMIT) return alignArrays(attribute, path, before, after);
  }
  return [{ attribute, path, kind: "changed", before, after }];
}

/** Added and removed elements of two arrays, by their longest common subsequence (indexes: old for removed, new for added). */
function alignArrays(attribute: string, path: string, a: unknown[], b: unknown[]): AttrChange[] {
  // lcs[i][j] = length of the LCS of a[i..] and b[j..].
  const lcs = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) lcs[i]![j] = isDeepStrictEqual(a[i], b[j]) ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  }
  const out: AttrChange[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && isDeepStrictEqual(a[i], b[j])) {
      i++;
      j++;
    } else if (j < b.length && (i === a.length || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) {
      out.push({ attribute, path: childPath(path, j), kind: "added", after: b[j] });
      j++;
    } else {
      out.push({ attribute, path: childPath(path, i), kind: "removed", before: a[i] });
      i++;
    }
  }
  return out;
}

/**
 * The attribute-level changes of a step's inputs, for the given attributes. A secret attribute is one
 * change of `[secret]` to `[secret]`: its structure is as private as its values.
 *
 * @example diffAttributes({ a: 1, s: "x" }, { a: 2, s: "y" }, ["a", "s"], ["s"]) // a: 1 → 2, s: [secret] → [secret]
 */
export function diffAttributes(before: Record<string, unknown>, after: Record<string, unknown>, keys: readonly string[], secretKeys: readonly string[]): AttrChange[] {
  return keys.flatMap((k): AttrChange[] => {
    if (!secretKeys.includes(k)) return diffValue(k, before[k], after[k]);
    if (before[k] === undefined) return [{ attribute: k, path: k, kind: "added", after: SECRET_MASK }];
    if (after[k] === undefined) return [{ attribute: k, path: k, kind: "removed", before: SECRET_MASK }];
    return [{ attribute: k, path: k, kind: "changed", before: SECRET_MASK, after: isUnknown(after[k]) ? after[k] : SECRET_MASK }];
  });
}
