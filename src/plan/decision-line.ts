import type { PlanStep } from "./plan.js";

/** `; changed a, b` (nothing when the list is empty). */
function keys(label: string, list: readonly string[]): string {
  return list.length ? `; ${label} ${list.join(", ")}` : "";
}

/**
 * One plan decision as a line of the debug trace: the step kind, its URN, and why: the changed keys of an
 * update, the reason and forcing keys of a replace, why a delete or wait is there. Names and keys only,
 * never values (the trace is redacted too, but values have no place in it).
 *
 * @example decisionLine(updateStep) // "plan update urn:cairn:dev::app::local:File::cfg: changed content"
 */
export function decisionLine(step: PlanStep): string {
  const head = `plan ${step.kind} ${step.urn}`;
  switch (step.kind) {
    case "create":
      return `${head}: not in state${step.movedFrom ? ` (moved from ${step.movedFrom})` : ""}`;
    case "update":
      return `${head}: changed ${step.changed.join(", ")}${keys("drifted", step.drift)}${step.adopt ? "; adopts an existing object" : ""}`;
    case "replace":
      return `${head}: ${step.reason}${step.cause && step.reason === "dependency" ? ` (${step.cause})` : ""}${keys("replace keys", step.replaceKeys)}${keys("changed", step.changed)}${step.deleteFirst ? "; delete first" : "; create first"}`;
    case "delete":
      return `${head}: ${step.deposed ? "deposed object" : step.retain ? "not in the program (retainOnDelete: forgotten)" : "not in the program"}`;
    case "read":
      return `${head}: ${step.deferred ? "deferred to apply" : "read now"}`;
    case "wait":
      return `${head}: ${step.needed ? "runs" : "not needed"} (${step.why})`;
    case "same":
      return `${head}: no change${step.movedFrom ? ` (moved from ${step.movedFrom})` : ""}${step.adopt ? "; adopts an existing object" : ""}`;
    default: {
      const never: never = step;
      return String(never);
    }
  }
}
