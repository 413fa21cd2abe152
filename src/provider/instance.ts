import type { ProviderInstance } from "./provider.js";
import type { ProviderRecord } from "../state/types.js";

/**
 * What state records of a provider instance: its name and settings, never credentials.
 *
 * @example providerRecord(new aws.Provider("use1", { region: "us-east-1" })) // { name: "use1", settings: { region: "us-east-1" } }
 */
export function providerRecord(p: ProviderInstance | undefined): ProviderRecord | undefined {
  return p ? { name: p.name, settings: { ...p.settings } } : undefined;
}

/**
 * The key of a provider instance among a program's instances: its package and name.
 *
 * @example instanceKey("aws:acm:Certificate", "use1") // "aws|use1"
 */
export function instanceKey(type: string, name: string): string {
  return `${type.split(":")[0]}|${name}`;
}

/**
 * The provider instance for an operation on an object recorded with `record`: the program's live instance
 * when it still declares one with the same settings (it holds the credentials), else the recorded name and
 * settings (the package resolves credentials by name or from its default chain).
 *
 * @example providerFor("aws:acm:Certificate", { name: "use1", settings: { region: "us-east-1" } }, node.provider)
 */
export function providerInstanceFor(type: string, record: ProviderRecord | undefined, live?: ProviderInstance): ProviderInstance | undefined {
  if (!record) return undefined;
  if (live && live.name === record.name && sameSettings(live.settings, record.settings)) return live;
  return { package: type.split(":")[0] ?? type, name: record.name, settings: record.settings };
}

function sameSettings(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}
