/**
 * What a program function may return: nothing, or its stack outputs as a plain object of names to values.
 * Anything else (a number, a string, a list, a Map) would silently become no outputs or numbered ones, so it
 * is refused, naming where the program was declared.
 *
 * @module
 */
import { isOutput } from "./output.js";
import { UserError } from "../core/diagnostic.js";

/**
 * The stack outputs a program function returned (`{}` for nothing); throws when they are not an object.
 *
 * @example programOutputs({ url: site.url }, "infra.ts:3:16") // { url: site.url }
 */
export function programOutputs(returned: unknown, site: string): Record<string, unknown> {
  if (returned === undefined) return {};
  if (isPlainObject(returned)) return returned;
  const where = site ? ` (the program(...) at ${site})` : "";
  throw new UserError(`the program's body returned ${describe(returned)} as its stack outputs${where}: return an object of named outputs, e.g. \`return { url: site.url }\`, or nothing.`);
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
