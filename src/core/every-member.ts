/**
 * A list of every member of the string union `T`, checked by the compiler: leaving a member out, or adding
 * one the union lacks, is a type error naming it. So a kind is written in its union once, and the list that
 * tests, summaries and JSON schemas use cannot fall behind.
 *
 * @example
 * type Kind = "create" | "delete";
 * export const KINDS = everyMember<Kind>()(["create", "delete"]); // readonly ["create", "delete"]
 * everyMember<Kind>()(["create"]); // error: { missing: "delete" }
 */
export function everyMember<T extends string>() {
  return <const L extends readonly [T, ...T[]]>(list: L & ([T] extends [L[number]] ? unknown : { missing: Exclude<T, L[number]> })): L => list;
}
