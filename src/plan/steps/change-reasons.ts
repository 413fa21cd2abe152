import { containsUnknown } from "../../core/unknown.js";
import type { Urn } from "../../core/urn.js";
import { driftedKeys, type AttributeChange } from "./attribute-lines.js";
import type { AdoptedObject, PlanView } from "./step-parts.js";

/**
 * `a, b and c`.
 * @example listText(["a", "b", "c"]) // "a, b and c"
 */
export function listText(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/**
 * Where changed attributes' new values come from, in words: the program (or a stack output it reads), a
 * dependency that changes (the value is unknown until it has), or drift put back.
 *
 * @example causes(updateStep, ["content"], view) // "content changed in the program"
 */
export function causes(step: AttributeChange & { deps: Urn[] }, keys: readonly string[], plan: PlanView): string {
  const drifted = new Set(driftedKeys(step));
  const fromDeps = keys.filter((k) => containsUnknown(step.news[k]));
  const parts: string[] = [];
  const edited = keys.filter((k) => !drifted.has(k) && !fromDeps.includes(k));
  const reads = edited.length ? plan.stackReads(step.deps) : [];
  if (edited.length) parts.push(`${listText(edited)} changed ${reads.length ? `(${listText(reads)})` : "in the program"}`);
  const deps = plan.changingDeps(step.deps);
  if (fromDeps.length) parts.push(`${listText(fromDeps)} ${fromDeps.length === 1 ? "comes" : "come"} from ${deps.length ? listText(deps) : "a resource that changes"}`);
  const d = keys.filter((k) => drifted.has(k));
  if (d.length) parts.push(`${listText(d)} changed outside Cairn (drift): the declared value is put back`);
  return parts.join("; ");
}

/**
 * `import: adopts the existing object <id>; then <why>` for an adopted object that also changes.
 * @example adopting({ adopt: { id: "i-1", … } }, "size changed in the program") // "import: adopts the existing object i-1; then size changed …"
 */
export function adopting(step: { adopt?: AdoptedObject }, why: string): string {
  return step.adopt ? `import: adopts the existing object ${step.adopt.id}; then ${why}` : why;
}

/**
 * `; changed a, b` (nothing when the list is empty), for the debug trace.
 * @example keysText("changed", ["a", "b"]) // "; changed a, b"
 */
export function keysText(label: string, list: readonly string[]): string {
  return list.length ? `; ${label} ${list.join(", ")}` : "";
}
