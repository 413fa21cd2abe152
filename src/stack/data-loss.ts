import type { ProgramRuntime } from "../apply/executor.js";
import { nameOf } from "../core/urn.js";
import { refusedLosses, unusedAllows, type LossStep } from "../plan/data-loss.js";
import type { Plan } from "../plan/plan.js";
import { stepKindOf } from "../plan/steps/index.js";
import { CairnError } from "./errors.js";

/**
 * What the refusal needs besides the plan: what the run allows, where the program declared each resource.
 * @example const check: DataLossCheck = { allow: ["db"], program: runtime, round: 1 };
 */
export interface DataLossCheck {
  /** `--allow-data-loss` (names or URNs). */
  allow: readonly string[];
  /** The evaluated program, for the declaration sites a saved plan does not carry. */
  program?: ProgramRuntime | undefined;
  /** Which round of `up` the plan is (after the first, earlier rounds were applied). */
  round: number;
}

/** One refused step as a line: URN, type, where it is declared, and what it does. */
function refusedLine(l: LossStep, program: ProgramRuntime | undefined): string {
  const site = l.step.site ?? program?.nodeByUrn.get(l.step.urn)?.site;
  return `${l.step.urn} (${l.step.type}${site ? `, declared at ${site.toString()}` : ""}): ${l.what}`;
}

/** What to do, naming the flags to add (by name when that is unambiguous, else by URN). */
function remedy(refused: readonly LossStep[]): string {
  const names = refused.map((l) => l.step.urn).map((urn) => (refused.filter((x) => nameOf(x.step.urn) === nameOf(urn)).length > 1 ? urn : nameOf(urn)));
  const flags = [...new Set(names)].map((n) => `--allow-data-loss ${n}`).join(" ");
  // Only a resource the program still declares (a replaced one) can take the option.
  const declared = refused.some((l) => stepKindOf(l.step).inProgram);
  return [
    `To go ahead and lose that data, add \`${flags}\` to the up command`,
    declared ? ", or give each replaced resource the option `allowDataLoss: true`. " : ". ",
    "To keep an object instead, set `retainOnDelete: true` on it and run up before removing or replacing it (it stays in the cloud, forgotten by Cairn); ",
    "if you renamed a resource, list its old name in `aliases` so its object is kept; or undo the change.",
  ].join("");
}

/**
 * Refuses, before anything of it is applied, a plan that replaces or deletes a stateful object with its
 * data when neither the program (`allowDataLoss: true`) nor the run (`allow`) allows it. Names each such
 * resource (URN, type, the program line, replaced because … / deleted because it left the program) and
 * what to do. Returns the `allow` entries that name no data-loss step (for a warning).
 *
 * @example const unused = refuseDataLoss(plan, { allow: ["db"], program, round: 1 });
 */
export function refuseDataLoss(plan: Plan, check: DataLossCheck): string[] {
  const refused = refusedLosses(plan, check.allow);
  if (refused.length) {
    const n = refused.length;
    const nothing = check.round > 1 ? `nothing of round ${check.round} was applied (earlier rounds were)` : "nothing was applied";
    throw new DataLossError(
      `up refused: the plan deletes ${n === 1 ? "a stateful object" : `${n} stateful objects`} and the data in ${n === 1 ? "it" : "them"}; ${nothing}:`,
      refused.map((l) => refusedLine(l, check.program)),
      remedy(refused),
      refused.map((l) => l.step.urn),
    );
  }
  return unusedAllows(plan, check.allow);
}

/**
 * `up` refused a plan that would replace or delete stateful objects with their data, before anything of it
 * was applied; `urns` are the resources to allow (`allowDataLoss`, or the option `allowDataLoss: true`).
 *
 * @example try { await stack.up(); } catch (e) { if (e instanceof DataLossError) console.log(e.urns); }
 */
export class DataLossError extends CairnError {
  constructor(
    message: string,
    problems: readonly string[],
    /** What to do, after the problems. */
    remedy: string,
    /** The resources whose replace or delete was not allowed. */
    readonly urns: readonly string[],
  ) {
    super(message, problems, remedy);
    this.name = "DataLossError";
  }
}
