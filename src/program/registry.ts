import type { ResourceDefinition } from "./node.js";
import type { Urn } from "../core/urn.js";
import type { Provider } from "../provider/provider.js";

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

/**
 * Finds the provider that operates on an object: the engine asks it for every provider call, so a test
 * (mocks) or a library user (overrides) can stand in for any type without touching its definition.
 */
export type ProviderSource = (type: string, urn: Urn, definition?: ResourceDefinition) => Provider<any, any, any> | undefined;

/**
 * The default source: the type's definition in the program, else one loaded in this process.
 *
 * @example definedProviders("local:File", urn)?.create(...)
 */
export const definedProviders: ProviderSource = (type, _urn, definition) => (definition ?? definitions.get(type))?.provider;

/**
 * A source that asks `overrides` first (per type and URN), then the definitions.
 *
 * @example withOverrides((type) => (type === "aws:acm:Certificate" ? fakeAcm : undefined))
 */
export function withOverrides(overrides: (type: string, urn: Urn) => Provider<any, any, any> | undefined): ProviderSource {
  return (type, urn, definition) => overrides(type, urn) ?? definedProviders(type, urn, definition);
}
