import { UNKNOWN } from "../core/unknown.js";
import { findCycle } from "../program/cycles.js";
import type { Props } from "../state/types.js";
import type { ResourceSchema } from "../provider/schema.js";
import { jsonTypeOf } from "./schema-check.js";

/**
 * Why a value cannot be stored in state as JSON (and so could never compare equal to itself after a save),
 * with what to pass instead; undefined for plain data.
 */
function whyNotJson(v: unknown): string | undefined {
  switch (typeof v) {
    case "string":
    case "boolean":
      return undefined;
    case "number":
      return Number.isFinite(v) ? undefined : `${v}, which is not a finite number: pass a finite number, or null`;
    case "bigint":
      return "a bigint: pass it as a string or a number";
    case "function":
      return "a function: pass the value it computes";
    case "symbol":
      return "a symbol: pass a string";
    case "undefined":
      return "undefined inside a list: remove it or use null";
    default:
      break;
  }
  if (v === null || v === UNKNOWN || Array.isArray(v)) return undefined;
  if (v instanceof Date) return "a Date: pass date.toISOString()";
  if (v instanceof Map) return "a Map: pass Object.fromEntries(map)";
  if (v instanceof Set) return "a Set: pass [...set]";
  if (v instanceof Uint8Array) return "binary data: pass buffer.toString(\"base64\")";
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return `an instance of ${proto?.constructor?.name ?? "a class"}: pass plain data (objects, lists, strings, numbers, booleans)`;
  return undefined;
}

/** True when `v` is plain data with no `undefined` values (nothing to report, nothing to drop). */
function isCleanJson(v: unknown): boolean {
  if (v === null || v === UNKNOWN) return true;
  switch (typeof v) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(v);
    case "object":
      break;
    default:
      return false;
  }
  if (Array.isArray(v)) return v.every(isCleanJson);
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return false;
  for (const k in v as Props) if (!isCleanJson((v as Props)[k])) return false;
  return true;
}

/** Where values refer back to themselves (a cyclic object), as problems (looked for only once a walk overflowed). */
function cyclesIn(values: Props): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(values)) {
    const c = findCycle(v, k);
    if (c) out.push(`input "${c.at}" refers back to "${c.to}" (a cyclic object), which JSON cannot hold`);
  }
  return out.length ? out : ["inputs nested too deeply to be stored as JSON"];
}

/**
 * Checks resolved inputs are plain JSON data, naming the attribute path of each problem; keys whose value
 * is `undefined` are dropped, as saving to state would drop them.
 *
 * @example jsonInputs({ when: new Date(0) }).problems // ['input "when" is a Date: pass date.toISOString()']
 */
export function jsonInputs(values: Props): { values: Props; problems: string[] } {
  // Most inputs are plain already: check without copying, and copy only when something must change.
  let clean: boolean;
  try {
    clean = isCleanJson(values);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    return { values, problems: cyclesIn(values) }; // a cyclic value overflows any walk: say where the cycle is
  }
  if (clean) return { values, problems: [] };
  const problems: string[] = [];
  const walk = (v: unknown, path: string): unknown => {
    const why = whyNotJson(v);
    if (why) {
      problems.push(`input "${path}" is ${why}`);
      return v;
    }
    if (Array.isArray(v)) return v.map((x, i) => walk(x, `${path}[${i}]`));
    if (v === null || typeof v !== "object" || v === UNKNOWN) return v;
    const out: Props = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = walk(x, `${path}.${k}`);
    return out;
  };
  const out: Props = {};
  for (const [k, v] of Object.entries(values)) if (v !== undefined) out[k] = walk(v, k);
  return { values: out, problems };
}

/**
 * Stack outputs that state cannot hold as JSON, by name, with the message saying which and why.
 * @example outputProblems({ n: NaN }).get("n") // 'stack output "n" is NaN, which is not a finite number: …'
 */
export function outputProblems(values: Props): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(values)) {
    const { problems } = jsonInputs({ [k]: v });
    if (problems.length) out.set(k, `stack ${problems[0]!.replace(/^input /, "output ")}: stack outputs are stored as JSON, so this value cannot be kept; return plain data from the program`);
  }
  return out;
}

/**
 * Checks a provider's result is storable: an object of plain JSON values. Returns the problem, or undefined.
 *
 * @example outputsProblem(null) // "returned null outputs instead of an object"
 */
export function outputsProblem(outputs: unknown): string | undefined {
  if (outputs === null || typeof outputs !== "object" || Array.isArray(outputs)) return `returned ${outputs === null ? "null" : Array.isArray(outputs) ? "a list" : typeof outputs} outputs instead of an object`;
  const { problems } = jsonInputs(outputs as Props);
  return problems.length ? `returned outputs that are not plain data (${problems.join("; ").replaceAll("input ", "output ")})` : undefined;
}

/**
 * Outputs whose value does not have the type the resource's schema declares, e.g.
 * `output "size" is a string, but the schema says number`; empty when all match (absent values are fine).
 *
 * @example schemaProblems({ size: "3" }, { outputs: { size: { type: "number" } } }) // ['output "size" is a string, …']
 */
export function schemaProblems(outputs: Props, schema: ResourceSchema | undefined): string[] {
  const out: string[] = [];
  for (const [k, a] of Object.entries(schema?.outputs ?? {})) {
    const v = outputs[k];
    if (v === undefined || v === null || !a.type || a.type === "any") continue;
    const actual = jsonTypeOf(v);
    if (actual !== a.type) out.push(`output "${k}" is ${actual === "array" || actual === "object" ? "an" : "a"} ${actual}, but the schema says ${a.type}`);
  }
  return out;
}

/** Everything wrong with a provider's outputs (not an object, not plain data, not the schema's types), or undefined. */
export function resultProblem(outputs: unknown, schema: ResourceSchema | undefined): string | undefined {
  const bad = outputsProblem(outputs);
  if (bad) return bad;
  const types = schemaProblems(outputs as Props, schema);
  return types.length ? `returned outputs that do not match its schema (${types.join("; ")})` : undefined;
}
