import { UNKNOWN } from "../program/unknown.js";
import { SECRET_MASK } from "../apply/redact.js";

/** Text for a value in plan output: `(known after apply)` for unknowns, `[secret]` for secrets, long text cut. */
export function formatValue(v: unknown, isSecret = false, max = 80): string {
  if (isSecret) return SECRET_MASK;
  if (v === UNKNOWN) return "(known after apply)";
  if (v === undefined) return "(none)";
  // JSON.stringify calls UNKNOWN's toJSON before the replacer sees it: match what it serialises to.
  const text = JSON.stringify(v, (_k, x) => (x === UNKNOWN || isUnknownJson(x) ? "(known after apply)" : x));
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

const isUnknownJson = (x: unknown) => x !== null && typeof x === "object" && (x as { $unknown?: unknown }).$unknown === true && Object.keys(x).length === 1;

/** A copy of `props` with secret attributes replaced by `[secret]` and unknowns by `{ "$unknown": true }`: safe to print as JSON. */
export function maskProps(props: Record<string, unknown>, secretKeys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(props)) out[k] = secretKeys.includes(k) ? SECRET_MASK : v;
  return out;
}
