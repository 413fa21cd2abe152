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

/**
 * True when `v` holds the serialised form of an unknown (`{ "$unknown": true }`) as data: what a value
 * unknown at plan time becomes if it is read back without being revived. Never sent to a provider.
 *
 * @example containsUnknownMarker({ a: { $unknown: true } }) // true
 */
export function containsUnknownMarker(v: unknown): boolean {
  if (Array.isArray(v)) return v.some(containsUnknownMarker);
  if (v === null || typeof v !== "object" || v === UNKNOWN) return false;
  const o = v as Record<string, unknown>;
  if (o.$unknown === true && Object.keys(o).length === 1) return true;
  for (const k in o) if (containsUnknownMarker(o[k])) return true;
  return false;
}
