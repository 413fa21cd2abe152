import { nameOf } from "../../core/urn.js";
import type { Colors } from "../../core/colors.js";
import { listText } from "./change-reasons.js";
import type { DataLoss, PlanMode, ReplaceReason } from "./step-parts.js";

/**
 * The words of a data-loss marking (see {@link DataLoss}): what a replace or a delete does to a stateful
 * object, for the plan's `! data loss:` line and `up`'s refusal. Structural parameters, so the step kinds'
 * files use them without this file knowing the kinds.
 */

/** The type's own name, for a sentence: `aws:rds:DBInstance` → `DBInstance`. */
export function typeNoun(type: string): string {
  return type.slice(type.lastIndexOf(":") + 1) || type;
}

/** What a replace is for, in a few words, for the data-loss line (the step's `why` has the details). */
function replaceCause(step: { reason: ReplaceReason; replaceKeys: readonly string[]; changed: readonly string[]; cause?: string }): string {
  const reason: ReplaceReason = step.reason;
  switch (reason) {
    case "attributes":
    case "replaceOnChanges": {
      const keys = step.replaceKeys.length ? step.replaceKeys : step.changed;
      return `${listText(keys)} changed`;
    }
    case "requested":
      return "--replace asks for it";
    case "provider":
      return "its provider settings changed (it moves)";
    case "dependency":
      return `it references ${nameOf(step.cause ?? "")}, which is replaced delete-first`;
    case "triggered":
      return "a replaceTriggeredBy value changed";
    case "tainted":
      return "its object is tainted";
    default: {
      const never: never = reason;
      return String(never);
    }
  }
}

/**
 * What a replace that loses data does: `replaces the DBInstance because engine changed: the old one is
 * deleted with its data`.
 *
 * @example replaceLossText({ type: "aws:rds:DBInstance", reason: "attributes", replaceKeys: ["engine"], changed: ["engine"] })
 */
export function replaceLossText(step: { type: string; reason: ReplaceReason; replaceKeys: readonly string[]; changed: readonly string[]; cause?: string }): string {
  return `replaces the ${typeNoun(step.type)} because ${replaceCause(step)}: the old one is deleted with its data`;
}

/**
 * What a delete that loses data does: `deletes the Bucket and its data because it left the program`
 * (`destroy` deletes everything, so it gives no cause).
 *
 * @example deleteLossText({ type: "aws:s3:Bucket" }, "update") // "deletes the Bucket and its data because it left the program"
 */
export function deleteLossText(step: { type: string }, mode: PlanMode): string {
  return `deletes the ${typeNoun(step.type)} and its data${mode === "destroy" ? "" : " because it left the program"}`;
}

/**
 * The plan's line for a step that loses data: `! data loss: <what>`, and who allowed it when the program did.
 * @example dataLossLine({ allowed: false }, "deletes the Bucket and its data …", colors)
 */
export function dataLossLine(loss: DataLoss, what: string, c: Colors): string {
  return c.red(`! data loss: ${what}${loss.allowed ? " (allowed: allowDataLoss)" : ""}`);
}
