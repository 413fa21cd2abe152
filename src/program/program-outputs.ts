/**
 * What a program function may return: nothing, or its stack outputs as a plain object of names to values.
 * Anything else (a number, a string, a list, a Map) would silently become no outputs or numbered ones, so it
 * is refused, naming where the program was declared.
 *
 * @module
 */
import { isOutput } from "./output.js";
import { findCycle } from "./cycles.js";
import { UserError, type SiteText } from "../core/diagnostic.js";

/**
 * The stack outputs a program function returned (`{}` for nothing); throws when they are not an object, or
 * when a value refers back to itself (state holds outputs as JSON, and walking a cycle would overflow the
 * stack), naming the output's path and `site`, where the program was declared.
 *
 * @example programOutputs({ url: site.url }, programSite) // { url: site.url }
 */
export function programOutputs(returned: unknown, site: SiteText | undefined): Record<string, unknown> {
  if (returned === undefined) return {};
  const at = site?.toString() ? { site } : {};
  if (!isPlainObject(returned)) {
    throw new UserError({ summary: `The program's body returned ${describe(returned)} as its stack outputs.`, detail: "Return an object of named outputs, e.g. `return { url: site.url }`, or nothing.", ...at });
  }
  for (const [k, v] of Object.entries(returned)) {
    const cycle = cycleIn(v, k);
    if (cycle) {
      throw new UserError({
        summary: `The program's stack output "${cycle.at}" refers back to "${cycle.to}" (a cyclic object).`,
        detail: "Stack outputs are stored as JSON, which cannot hold a cycle: return plain data from the program function, without the back-reference.",
        attribute: cycle.at,
        ...at,
      });
    }
  }
  return returned;
}

/** Where `v` refers back to itself; undefined also when it is nested too deeply to walk (resolving it says so). */
function cycleIn(v: unknown, path: string): { at: string; to: string } | undefined {
  try {
    return findCycle(v, path);
  } catch {
    return undefined;
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (isOutput(v)) return "an Output (one value known only when the engine runs), not an object of named outputs,";
  if (Array.isArray(v)) return `a list (${short(v)})`;
  switch (typeof v) {
    case "string":
      return `a string (${short(v)})`;
    case "number":
    case "boolean":
    case "bigint":
      return `the ${typeof v} ${String(v)}`;
    case "function":
      return "a function";
    case "symbol":
      return "a symbol";
    default:
      return `an instance of ${(v as object).constructor?.name ?? "a class"}`;
  }
}

function short(v: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(v) ?? String(v);
  } catch {
    text = String(v);
  }
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
