import type { DeferredPart, Plan } from "../../plan/plan.js";
import { noColors, type Colors } from "../../core/colors.js";

/** How one deferred part reads: what it is, what it waits for, and where the program declares it. */
function partLine(p: DeferredPart): string {
  const name = p.name ?? p.pattern ?? "…";
  const what = p.type === "cairn:wait" ? `wait "${name}"` : `${p.type} "${name}"`;
  const at = p.site ? ` at ${p.site.toString()}` : "";
  switch (p.kind) {
    case "declared":
      return `${what}: declared in apply() on ${p.waitsFor}${at}${p.name === undefined ? " (its name, and how many, are known then)" : ""}`;
    case "node":
      return `${what}: reads what apply() on ${p.waitsFor} declares${at}`;
    case "kept":
      return `${what}: kept until apply() on ${p.waitsFor} runs again (it declared it last time)`;
    default: {
      const never: never = p.kind;
      return never;
    }
  }
}

/**
 * The plan's deferred parts as a block: each waits for a value only the apply makes known, and `up`
 * plans and applies it in a later round of the same run. Empty for a complete plan.
 *
 * @example deferredBlock(plan) // "Deferred until values known during apply (up plans them in its next round):\n  … aws:route53:RecordSet \"validation-a.example.dev\": …"
 */
export function deferredBlock(plan: Plan, c: Colors = noColors): string | undefined {
  const parts = plan.deferred ?? [];
  const unforeseen = (plan.unforeseen ?? []).map((v) => c.dim(`  apply() on ${v} could not run on stand-ins: whether it declares resources is known once ${v} is (up plans once more after applying).`));
  if (parts.length === 0) return unforeseen.length ? unforeseen.join("\n") : undefined;
  const lines = parts.map((p) => `  ${c.cyan("…")} ${partLine(p)}`);
  return [c.cyan(`Deferred until values known during apply (up plans them in its next round):`), ...lines, ...unforeseen].join("\n");
}

/** `2 deferred to a later round` for the count line, or undefined. */
export function deferredCount(plan: Plan): string | undefined {
  const n = (plan.deferred ?? []).filter((p) => p.kind !== "kept").length;
  return n ? `${n} deferred to a later round` : undefined;
}
