import { UNKNOWN } from "./unknown.js";
import { SECRET_MASK } from "./secret-mask.js";

/** Printed for a value not known until apply. */
export const UNKNOWN_TEXT = "(known after apply)";

const isUnknownJson = (x: unknown) => x !== null && typeof x === "object" && (x as { $unknown?: unknown }).$unknown === true && Object.keys(x).length === 1;

/**
 * True for the unknown placeholder, as a value or as its JSON form.
 * @example isUnknown(UNKNOWN) // true
 */
export function isUnknown(v: unknown): boolean {
  return v === UNKNOWN || isUnknownJson(v);
}

/**
 * A value as one line of text: JSON, with `(known after apply)` for unknowns and `[secret]` for secrets.
 * Cut to `max` characters (with `…`) only when `max` is given: outputs and `--diff` are never cut.
 *
 * @example formatValue({ a: 1 }) // '{"a":1}'
 */
export function formatValue(v: unknown, opts: { secret?: boolean; max?: number } = {}): string {
  if (opts.secret) return SECRET_MASK;
  if (isUnknown(v)) return UNKNOWN_TEXT;
  if (v === undefined) return "(none)";
  // JSON.stringify calls UNKNOWN's toJSON before the replacer sees it: match what it serialises to.
  const text = JSON.stringify(v, (_k, x) => (isUnknown(x) ? UNKNOWN_TEXT : x)) ?? String(v);
  return opts.max !== undefined && text.length > opts.max ? `${text.slice(0, opts.max - 1)}…` : text;
}

/**
 * A value for an `Outputs:` block: one line when short, else indented JSON on the following lines. Never cut.
 * @example formatBlock({ a: 1 }, "  ") // '{"a":1}'
 */
export function formatBlock(v: unknown, indent: string, width = 100): string {
  const line = formatValue(v);
  if (line.length <= width || v === null || typeof v !== "object") return line;
  return JSON.stringify(v, (_k, x) => (isUnknown(x) ? UNKNOWN_TEXT : x), 2).replace(/\n/g, `\n${indent}`);
}

/**
 * A copy of `props` with secret attributes replaced by `[secret]`: safe to print or serialise.
 * @example maskProps({ a: 1, pw: "x" }, ["pw"]) // { a: 1, pw: "[secret]" }
 */
export function maskProps(props: Record<string, unknown>, secretKeys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(props)) out[k] = secretKeys.includes(k) ? SECRET_MASK : v;
  return out;
}

/**
 * A value as plain JSON data: unknowns become `{ "$unknown": true }`, undefined entries are dropped.
 * @example toJsonData({ a: UNKNOWN }) // { a: { $unknown: true } }
 */
export function toJsonData(v: unknown): unknown {
  return v === undefined ? undefined : JSON.parse(JSON.stringify(v));
}
