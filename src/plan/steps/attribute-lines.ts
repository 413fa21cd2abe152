import { isDeepStrictEqual } from "node:util";
import { containsUnknown } from "../../core/unknown.js";
import { SECRET_MASK } from "../../core/secret-mask.js";
import { childPath, diffAttributes, type AttrChange } from "../../core/attribute-diff.js";
import { formatValue, isUnknown, toJsonData } from "../../core/value-text.js";
import type { Props } from "../../state/types.js";
import type { ChangeStepFields, DetailOptions } from "./step-parts.js";

/** Values in the compact (default) plan are cut here; `--diff` shows them whole. */
const COMPACT_MAX = 80;
/** In `--diff`, a created value longer than this is listed path by path. */
const INLINE_MAX = 60;

/** What the attribute words read of an update or a replace. */
export type AttributeChange = Pick<ChangeStepFields, "olds" | "news" | "outputs" | "changed" | "drift" | "secretKeys">;

/**
 * Attributes the plan changes because they changed outside Cairn (drift): a refresh recorded what the
 * cloud holds (the step's `drift`), or the provider saw the object differ though the inputs did not.
 * @example driftedKeys(updateStep) // ["content"] when only the cloud's copy changed
 */
export function driftedKeys(step: AttributeChange): string[] {
  const sameInputs = step.changed.filter((k) => k in step.olds && k in step.news && !containsUnknown(step.news[k]) && isDeepStrictEqual(step.olds[k], step.news[k]));
  return [...new Set([...step.drift, ...sameInputs])];
}

const show = (v: unknown, max: number | undefined) => (v === SECRET_MASK ? SECRET_MASK : formatValue(v, max === undefined ? {} : { max }));

/** `path: before → after`, `path: + value`, `path: - value`. */
function changeText(ch: AttrChange, max: number | undefined): string {
  switch (ch.kind) {
    case "changed":
      return `${ch.path}: ${show(ch.before, max)} → ${show(ch.after, max)}`;
    case "added":
      return `${ch.path}: + ${show(ch.after, max)}`;
    case "removed":
      return `${ch.path}: - ${show(ch.before, max)}`;
    default: {
      const never: never = ch;
      return never;
    }
  }
}

/**
 * Attribute lines for a whole set of values (a create's inputs, a delete's attributes), dim.
 * @example valueLines({ content: "hi" }, [], { colors: noColors, diff: false }) // ['content: "hi"']
 */
export function valueLines(props: Props, secretKeys: readonly string[], o: DetailOptions): string[] {
  const keys = Object.keys(props);
  // A line per attribute, mapped into one array of that size: a plan prints this for every create.
  if (!o.diff) return keys.map((k) => o.colors.dim(`${k}: ${compact(props[k], secretKeys.includes(k))}`));
  // Long nested values are listed path by path; secrets and short values on one line.
  return keys.flatMap((k) => (secretKeys.includes(k) ? [`${k}: ${SECRET_MASK}`] : leafLines(k, props[k]))).map(o.colors.dim);
}

/**
 * `formatValue(v, { secret, max: COMPACT_MAX })`. A string, most attributes, is its JSON text: it holds no
 * unknown, so JSON.stringify needs no replacer (with one it takes its slow path, 2–4 times as long).
 */
function compact(v: unknown, secret: boolean): string {
  if (secret || typeof v !== "string") return formatValue(v, { secret, max: COMPACT_MAX });
  const text = JSON.stringify(v);
  return text.length > COMPACT_MAX ? `${text.slice(0, COMPACT_MAX - 1)}…` : text;
}

function leafLines(path: string, v: unknown): string[] {
  const text = typeof v === "string" ? JSON.stringify(v) : formatValue(v); // as in compact()
  if (v === null || typeof v !== "object" || isUnknown(v) || text.length <= INLINE_MAX) return [`${path}: ${text}`];
  if (Array.isArray(v)) return v.flatMap((x, i) => leafLines(childPath(path, i), x));
  return Object.entries(v).flatMap(([k, x]) => leafLines(childPath(path, k), x));
}

/** What each changed attribute changes from: the recorded input, or for drift what the cloud holds. */
function before(step: AttributeChange, drifted: readonly string[], missing?: string): Props {
  const out: Props = { ...step.olds };
  for (const k of drifted) {
    if (k in step.outputs) out[k] = step.outputs[k];
    else if (missing !== undefined) out[k] = missing;
  }
  return out;
}

/**
 * Lines for the changed attributes of an update or replace (dim), marking those in `forcing` as forcing
 * the replacement.
 * @example changeLines(updateStep, [], o) // ['content: "a" → "b"']
 */
export function changeLines(step: AttributeChange, forcing: readonly string[], o: DetailOptions): string[] {
  const c = o.colors;
  // A drifted attribute changes from what the cloud has (the read outputs) back to the declared value.
  const from = before(step, driftedKeys(step), "(changed outside Cairn)");
  const mark = (attr: string) => (forcing.includes(attr) ? ` ${c.red("(forces replacement)")}` : "");
  if (!o.diff) {
    const masked = (v: unknown, k: string) => show(step.secretKeys.includes(k) ? SECRET_MASK : v, COMPACT_MAX);
    return step.changed.map((k) => c.dim(`${k}: ${masked(from[k], k)} → ${masked(step.news[k], k)}${mark(k)}`));
  }
  return diffAttributes(from, step.news, step.changed, step.secretKeys).map((ch) => c.dim(`${changeText(ch, undefined)}${mark(ch.attribute)}`));
}

/** One changed path as `--json` prints it. */
export interface JsonChange {
  path: string;
  kind: AttrChange["kind"];
  before?: unknown;
  after?: unknown;
  forces_replacement: boolean;
}

/**
 * The changed attributes of an update or replace as `--json` prints them, path by path.
 * @example jsonChanges(updateStep, []) // [{ path: "content", kind: "changed", before: "a", after: "b", forces_replacement: false }]
 */
export function jsonChanges(step: AttributeChange, forcing: readonly string[]): JsonChange[] {
  const from = before(step, driftedKeys(step));
  return diffAttributes(from, step.news, step.changed, step.secretKeys).map((ch) => {
    const out: JsonChange = { path: ch.path, kind: ch.kind, forces_replacement: forcing.includes(ch.attribute) };
    if (ch.kind !== "added") out.before = toJsonData(ch.before);
    if (ch.kind !== "removed") out.after = toJsonData(ch.after);
    return out;
  });
}
