/** The name part of a URN (its last `::` segment). @example nameOf("urn:cairn:dev::p::local:File::cfg") // "cfg" */
export function nameOf(urn: string): string {
  return urn.slice(urn.lastIndexOf("::") + 2);
}

/**
 * The resource type in a URN (without the parent types before `$`).
 * @example typeOf("urn:cairn:dev::p::my:Comp$local:File::cfg") // "local:File"
 */
export function typeOf(urn: string): string {
  const parts = urn.split("::");
  const types = parts[parts.length - 2] ?? "";
  return types.slice(types.lastIndexOf("$") + 1);
}
