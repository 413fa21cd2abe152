import { randomBytes } from "node:crypto";
import type { AutoNaming } from "../plan/auto-names.js";
import type { StackParts } from "./stack-parts.js";

/** Each stack's seed, when its options give none: random, and the same for every plan the stack makes. */
const seeds = new WeakMap<object, string>();

/**
 * How a stack's plans name objects: its options' `nameSeed` (tests fix it) or a random seed of its own, and
 * the program's `autoName` setting.
 *
 * @example planProgram({ ...input, autoNames: autoNamingOf(parts) })
 */
export function autoNamingOf(parts: Pick<StackParts, "options" | "program">): AutoNaming {
  let seed = parts.options.nameSeed ?? seeds.get(parts);
  if (seed === undefined) seeds.set(parts, (seed = randomBytes(16).toString("hex")));
  return { seed, enabled: parts.program.options?.autoName ?? true };
}
