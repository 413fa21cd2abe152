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
  const qualified = [...p.parentTypes, p.type].join("$");
  return `urn:cairn:${p.stack}::${p.project}::${qualified}::${p.name}` as Urn;
}

/**
 * Splits a URN into its parts, or throws naming the text if it is not a Cairn URN.
 *
 * @example parseUrn("urn:cairn:dev::hello::local:File::config").name // "config"
 */
export function parseUrn(urn: string): UrnParts {
  const m = /^urn:cairn:([^:]*)::([^:]*)::(.+?)::(.*)$/s.exec(urn);
  if (!m) throw new Error(`"${urn}" is not a Cairn URN (expected urn:cairn:<stack>::<project>::<type>::<name>)`);
  const types = m[3]!.split("$");
  return { stack: m[1]!, project: m[2]!, parentTypes: types.slice(0, -1), type: types[types.length - 1]!, name: m[4]! };
}

/** Casts a string already known to be a URN (e.g. read from state). */
export function asUrn(s: string): Urn {
  return s as Urn;
}

const URN_SHAPE = /^urn:cairn:[^:]*::[^:]*::(.+?)::(.*)$/s;

/**
 * The name part of a URN, for messages (the text itself when it is not a URN).
 * @example nameOf("urn:cairn:dev::app::local:File::a") // "a"
 */
export function nameOf(urn: string): string {
  const m = URN_SHAPE.exec(urn);
  return m ? m[2]! : urn;
}

/**
 * The resource type in a URN, without the parent types before `$` ("" when it is not a URN).
 * @example typeOf("urn:cairn:dev::p::my:Comp$local:File::cfg") // "local:File"
 */
export function typeOf(urn: string): string {
  const m = URN_SHAPE.exec(urn);
  return m ? m[1]!.slice(m[1]!.lastIndexOf("$") + 1) : "";
}
