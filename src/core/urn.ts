import { UserError } from "./diagnostic.js";

/**
 * A URN names a resource stably across runs: the state is keyed by it.
 *
 * Shape: `urn:cairn:<stack>::<project>::<parent types joined by $, then type>::<name>`.
 *
 * @example
 * makeUrn({ stack: "dev", project: "hello", parentTypes: [], type: "local:File", name: "config" })
 * // "urn:cairn:dev::hello::local:File::config"
 */
export type Urn = string & { readonly __brand: "Urn" };

/** The parts a URN is made of. */
export interface UrnParts {
  stack: string;
  project: string;
  /** Types of the enclosing components, outermost first. */
  parentTypes: readonly string[];
  type: string;
  name: string;
}

/** Builds the URN of a resource from its parts. */
export function makeUrn(p: UrnParts): Urn {
  const qualified = p.parentTypes.length ? [...p.parentTypes, p.type].join("$") : p.type;
  // Joined, not a template: a template makes a rope of seven pieces, each kept (~220 bytes a URN) until the
  // string is first flattened; `join` makes the flat string at once.
  return ["urn:cairn:", p.stack, "::", p.project, "::", qualified, "::", p.name].join("") as Urn;
}

/**
 * Splits a URN into its parts, or throws naming the text if it is not a Cairn URN.
 *
 * @example parseUrn("urn:cairn:dev::hello::local:File::config").name // "config"
 */
export function parseUrn(urn: string): UrnParts {
  const at = urnSpans(urn);
  if (!at) throw new UserError(`"${urn}" is not a Cairn URN (expected urn:cairn:<stack>::<project>::<type>::<name>)`);
  const types = urn.slice(at.type, at.name - 2).split("$");
  return { stack: urn.slice(STACK_AT, at.project - 2), project: urn.slice(at.project, at.type - 2), parentTypes: types.slice(0, -1), type: types[types.length - 1]!, name: urn.slice(at.name) };
}

/** Casts a string already known to be a URN (e.g. read from state). */
export function asUrn(s: string): Urn {
  return s as Urn;
}

/** Where a URN's stack starts, after `urn:cairn:`. */
const STACK_AT = 10;

/**
 * Where the project, the type and the name start in a URN, or undefined when the text is not one: stack
 * and project without `:`, the type (at least one character) up to the next `::`, the name the rest.
 * Without a regular expression: messages and journal lines ask it for every resource.
 */
function urnSpans(urn: string): { project: number; type: number; name: number } | undefined {
  if (!urn.startsWith("urn:cairn:")) return undefined;
  const stackEnd = urn.indexOf("::", STACK_AT);
  if (stackEnd < 0 || urn.indexOf(":", STACK_AT) !== stackEnd) return undefined;
  const projectEnd = urn.indexOf("::", stackEnd + 2);
  if (projectEnd < 0 || urn.indexOf(":", stackEnd + 2) !== projectEnd) return undefined;
  const typeEnd = urn.indexOf("::", projectEnd + 3); // a type has at least one character
  if (typeEnd < 0) return undefined;
  return { project: stackEnd + 2, type: projectEnd + 2, name: typeEnd + 2 };
}

/**
 * The name part of a URN, for messages (the text itself when it is not a URN).
 * @example nameOf("urn:cairn:dev::app::local:File::a") // "a"
 */
export function nameOf(urn: string): string {
  const at = urnSpans(urn);
  return at ? urn.slice(at.name) : urn;
}

/**
 * The resource type in a URN, without the parent types before `$` ("" when it is not a URN).
 * @example typeOf("urn:cairn:dev::p::my:Comp$local:File::cfg") // "local:File"
 */
export function typeOf(urn: string): string {
  const at = urnSpans(urn);
  if (!at) return "";
  const qualified = urn.slice(at.type, at.name - 2);
  return qualified.slice(qualified.lastIndexOf("$") + 1);
}
