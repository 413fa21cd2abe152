import type { ResourceDefinition } from "../program/node.js";

/**
 * Resource types by token. Types register themselves when defined, so the engine can still reach the
 * provider of a resource that is in state but no longer in the program (to delete it).
 * This holds type definitions (code), never per-run data.
 */
const definitions = new Map<string, ResourceDefinition>();

/** Records a type definition (the latest definition of a token wins). */
export function registerDefinition(def: ResourceDefinition): void {
  definitions.set(def.type, def);
}

/** The definition of a type token, if one has been defined in this process. */
export function findDefinition(type: string): ResourceDefinition | undefined {
  return definitions.get(type);
}
