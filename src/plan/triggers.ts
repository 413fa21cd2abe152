import { createHash } from "node:crypto";
import { firstValueFrom } from "rxjs";
import { collectResources, resolveDeep, type Resolver } from "../program/output.js";
import type { CustomNode, ResourceNode } from "../program/node.js";
import { containsUnknown } from "../core/unknown.js";

/** JSON with object keys sorted, so equal values always hash alike. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v !== null && typeof v === "object") {
    return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(",")}}`;
  }
  return JSON.stringify(v) ?? "null";
}

/** What a resource's `replaceTriggeredBy` says in this plan. */
export interface Triggers {
  /** Hash of the values to record in state; undefined while some are unknown (they change in this apply). */
  hash: string | undefined;
  /** Set when the resource must be replaced: which resources' values changed. */
  triggered?: string;
}

/**
 * Resolves `replaceTriggeredBy` and compares it with what state recorded (a hash, so secret values never
 * land in state). The first time the option is used nothing is replaced: its values are only recorded.
 *
 * @example await replaceTriggers(node, resolver, prior?.triggers) // { hash: "3f9a…", triggered: '"config"' }
 */
export async function replaceTriggers(node: CustomNode, r: Resolver, recorded: string | undefined): Promise<Triggers | undefined> {
  const list = node.options.replaceTriggeredBy;
  if (list.length === 0) return undefined;
  const s = await firstValueFrom(resolveDeep(list, r, "embed"));
  const value = s.known ? s.value : undefined;
  const hash = value === undefined || containsUnknown(value) ? undefined : createHash("sha256").update(canonical(value)).digest("hex").slice(0, 32);
  if (recorded === undefined || hash === recorded) return { hash };
  const sources = new Set<ResourceNode>();
  collectResources(list, sources);
  const names = [...sources].map((n) => `"${n.name}"`).join(", ") || "a value";
  return { hash, triggered: `${names} ${hash === undefined ? "changes in this plan" : "changed"}` };
}
