import { withPartial } from "./deferral/deferral-info.js";
import type { ValueState } from "./resolver.js";

/**
 * A field of a value: its own property `key` when `v` is an object or array that has one, else undefined
 * (a field of nothing is nothing; a method on a prototype is not data).
 *
 * @example fieldOf({ address: "db.local" }, "address") // "db.local"; fieldOf(undefined, "address") // undefined
 */
export function fieldOf(v: unknown, key: string): unknown {
  return v !== null && typeof v === "object" && Object.hasOwn(v, key) ? (v as Record<string, unknown>)[key] : undefined;
}

/**
 * The state of field `key` of a value in state `s`: the field's value, and everything else as `s` has it (secret,
 * dependencies, deferrals, unknown), as `apply((v) => v?.[key])` would give. An unknown value's known part,
 * if any, becomes the field's known part.
 *
 * @example fieldState({ known: true, value: { port: 5432 }, secret: true, deps: [] }, "port") // { known: true, value: 5432, secret: true, deps: [] }
 */
export function fieldState(s: ValueState<unknown>, key: string): ValueState<unknown> {
  if (s.known) return { ...s, value: fieldOf(s.value, key) };
  if (s.deferral?.partial === undefined) return s;
  const deferral = withPartial(s.deferral, fieldOf(s.deferral.partial, key));
  const { deferral: _, ...rest } = s;
  return deferral ? { ...rest, deferral } : rest;
}
