/**
 * The placeholder for a value that is not known until apply (an output of a resource still to be created).
 * It appears inside planned inputs, prints as `(known after apply)` and serialises as `{ "$unknown": true }`.
 */
export const UNKNOWN: Unknown = Object.freeze({ toJSON: () => ({ $unknown: true }) }) as Unknown;

/** The type of {@link UNKNOWN}. */
export type Unknown = { readonly toJSON: () => { $unknown: true } } & { readonly __brand: "Unknown" };

/** True when `v` is, or contains, an unknown value. */
export function containsUnknown(v: unknown): boolean {
  if (v === UNKNOWN) return true;
  if (Array.isArray(v)) return v.some(containsUnknown);
  if (v !== null && typeof v === "object") {
    for (const k in v) if (containsUnknown((v as Record<string, unknown>)[k])) return true;
  }
  return false;
}

