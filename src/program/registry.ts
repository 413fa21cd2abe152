import type { ResourceDefinition } from "./node.js";
import type { Urn } from "../core/urn.js";
import type { Provider } from "../provider/provider.js";
import { traceProvider, type DebugLog } from "../provider/trace.js";

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

/**
 * A source whose providers write every call to `log` (the debug trace). Each provider is wrapped once, so
 * the engine sees one stable object per provider, as without tracing.
 *
 * @example const providers = tracedProviders(definedProviders, (line) => console.error(line));
 */
export function tracedProviders(source: ProviderSource, log: DebugLog): ProviderSource {
  // By provider, then type: one provider may serve several types, and each line names the type.
  const wrapped = new WeakMap<Provider<any, any, any>, Map<string, Provider<any, any, any>>>();
  return (type, urn, definition) => {
    const p = source(type, urn, definition);
    if (!p) return undefined;
    let byType = wrapped.get(p);
    if (!byType) wrapped.set(p, (byType = new Map()));
    let t = byType.get(type);
    if (!t) byType.set(type, (t = traceProvider(p, type, log)));
    return t;
  };
}
