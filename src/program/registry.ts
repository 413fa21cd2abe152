import type { ResourceDefinition } from "./node.js";
import type { Urn } from "../core/urn.js";
import type { Provider } from "../provider/provider.js";
import { traceProvider, type DebugLog } from "../provider/trace.js";

/**
 * Every definition made in this process, by type token. A definition is code (a module's `defineResource`
 * runs once per import), never per-run data; the engine falls back to it only for an object in state whose
 * type the running program does not declare (to read, resume or delete it). A run looks in its own
 * definitions first ({@link RunDefinitions} in run-definitions.ts), so two programs or two tests that define
 * one token with different providers never borrow each other's.
 */
const definitions = new Map<string, ResourceDefinition[]>();

/**
 * Records a type definition (called by `defineResource`).
 *
 * @example registerDefinition(definition);
 */
export function registerDefinition(def: ResourceDefinition): void {
  const list = definitions.get(def.type);
  if (!list) definitions.set(def.type, [def]);
  else if (!list.includes(def)) list.push(def);
}

/**
 * The definition of a type token in this process, if exactly one provider is defined for it: when two
 * definitions of one token have different providers, which one an object in state belongs to cannot be
 * told, so none is guessed (the run's own definitions decide, or the provider is reported missing).
 *
 * @example findDefinition("local:File")?.provider
 */
export function findDefinition(type: string): ResourceDefinition | undefined {
  const list = definitions.get(type);
  if (!list) return undefined;
  const last = list[list.length - 1]!;
  return list.every((d) => d.provider === last.provider) ? last : undefined;
}

/**
 * Finds the provider that operates on an object: the engine asks it for every provider call, so a test
 * (mocks) or a library user (overrides) can stand in for any type without touching its definition.
 * `definition` is the program node's, when the object is declared.
 *
 * @example const provider = source("local:File", urn, node.definition);
 */
export type ProviderSource = (type: string, urn: Urn, definition?: ResourceDefinition) => Provider<any, any, any> | undefined;

/**
 * Providers to use instead of the types' own (`StackOptions.providers`): per type and URN, given the type's
 * own provider for this run (`own`, undefined when none is known), which an override may wrap or hand back.
 *
 * @example const overrides: ProviderOverrides = (type, _urn, own) => (type === "aws:acm:Certificate" ? fakeAcm : own);
 */
export type ProviderOverrides = (type: string, urn: Urn, own?: Provider<any, any, any>) => Provider<any, any, any> | undefined;

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
