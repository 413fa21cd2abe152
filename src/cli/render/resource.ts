import type { Urn } from "../../core/urn.js";
import type { ResourceState } from "../../state/types.js";
import { SECRET_MASK } from "../../core/secret-mask.js";
import type { Colors } from "../../core/colors.js";
import { formatBlock, maskProps } from "../../core/value-text.js";

/** What `state show` prints of a resource: the record, its dependents, and whether secrets show in clear. */
export interface ShownResource {
  resource: ResourceState;
  /** Recorded resources that depend on it. */
  dependents: readonly Urn[];
  showSecrets?: boolean;
}

/**
 * A recorded resource for `state show --json`: its record with secret values masked (unless asked), and
 * the resources that depend on it.
 *
 * @example resourceToJson({ resource: r, dependents: [] }).inputs.password // "[secret]"
 */
export function resourceToJson(s: ShownResource): Record<string, unknown> {
  const r = s.resource;
  const keys = s.showSecrets ? [] : (r.secretKeys ?? []);
  const out: Record<string, unknown> = { ...r, inputs: maskProps(r.inputs, keys), outputs: maskProps(r.outputs, keys), dependents: [...s.dependents] };
  if (r.deposed) out.deposed = r.deposed.map((d) => ({ ...d, inputs: maskProps(d.inputs, s.showSecrets ? [] : (d.secretKeys ?? [])), outputs: maskProps(d.outputs, s.showSecrets ? [] : (d.secretKeys ?? [])) }));
  return out;
}

const label = (c: Colors, text: string) => c.dim(text.padEnd(11));

/** The provider instance a record names, for people: `default`, or the instance's name and settings. */
function providerText(r: ResourceState): string {
  if (!r.provider) return "default";
  const settings = Object.entries(r.provider.settings).map(([k, v]) => `${k}=${v}`);
  return settings.length ? `${r.provider.name} (${settings.join(", ")})` : r.provider.name;
}

/** One attribute per line, values whole (long ones as indented JSON), secrets masked unless asked. */
function props(values: Record<string, unknown>, secretKeys: readonly string[], showSecrets: boolean): string[] {
  const names = Object.keys(values).sort();
  if (names.length === 0) return ["    (none)"];
  return names.map((k) => `    ${k}: ${!showSecrets && secretKeys.includes(k) ? SECRET_MASK : formatBlock(values[k], "      ")}`);
}

/**
 * A recorded resource as `state show` prints it: URN, type, id, provider, parent, flags, dependencies
 * both ways, inputs and outputs (secrets masked unless `showSecrets`).
 *
 * @example renderResource({ resource: r, dependents: [] }, colors(false))
 */
export function renderResource(s: ShownResource, c: Colors): string {
  const r = s.resource;
  const flags = [
    r.protect ? "protected" : "",
    r.retainOnDelete ? "retained on delete" : "",
    r.tainted ? c.red("tainted (the next up replaces it)") : "",
    r.drift?.length ? c.yellow(`drifted: ${r.drift.join(", ")}`) : "",
  ].filter(Boolean);
  const secrets = r.secretKeys ?? [];
  const list = (urns: readonly string[]) => (urns.length ? urns.map((u) => `    ${u}`) : ["    (none)"]);
  return [
    c.bold(r.urn),
    `  ${label(c, "type")}${r.type}`,
    `  ${label(c, "id")}${r.id}`,
    `  ${label(c, "provider")}${providerText(r)}`,
    ...(r.parent ? [`  ${label(c, "parent")}${r.parent}`] : []),
    ...(flags.length ? [`  ${label(c, "flags")}${flags.join(", ")}`] : []),
    ...(r.deposed?.length ? [`  ${label(c, "deposed")}${r.deposed.map((d) => d.id).join(", ")} (old objects the next up deletes)`] : []),
    `  ${c.dim("depends on")}`,
    ...list(r.deps),
    `  ${c.dim("needed by")}`,
    ...list(s.dependents),
    `  ${c.dim("inputs")}`,
    ...props(r.inputs, secrets, s.showSecrets ?? false),
    `  ${c.dim("outputs")}`,
    ...props(r.outputs, secrets, s.showSecrets ?? false),
  ].join("\n");
}
